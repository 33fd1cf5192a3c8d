/**
 * The native shell (ARCHITECTURE.md section 10): Capacitor 7 (its CLI runs on Node 20; Capacitor 8's needs 22)
 * wraps the same web build (dist/) into the Android and iOS projects generated under android/ and ios/ (npx cap add;
 * `npx cap sync` copies a new build and the plugins into them). README "Native shell" says how to build the apps.
 *
 * The web build inside the shell is loaded from the device (https://localhost on Android, capacitor://localhost on
 * iOS), so a shell build names the server it talks to: VITE_API_ORIGIN (apps/web/src/shared/origin.ts).
 *
 * Live updates of the web bundle: @capgo/capacitor-updater in manual mode only. autoUpdate is off and the stats,
 * update and channel URLs are empty, so nothing goes to Capgo's cloud: the app asks our server
 * (GET /api/app/version/latest) and downloads the zip it serves (GET /api/app/version/bundle) when the user chooses
 * "Update now" (apps/web/src/shared/bridge/update.ts). A bundle that does not report itself ready within 10 s of
 * starting (notifyAppReady, in the app shell once the first screen is up) is rolled back at the next start; a store
 * update of the binary drops live bundles (resetWhenUpdate).
 */
import type { CapacitorConfig } from '@capacitor/cli';

const config: CapacitorConfig = {
  appId: 'com.exchange.app',
  appName: 'Exchange',
  webDir: 'dist',
  android: { allowMixedContent: false },
  ios: { contentInset: 'never' },
  plugins: {
    CapacitorUpdater: {
      autoUpdate: false,
      updateUrl: '',
      channelUrl: '',
      statsUrl: '',
      appReadyTimeout: 10_000,
      responseTimeout: 60,
      autoDeleteFailed: true,
      autoDeletePrevious: true,
      resetWhenUpdate: true,
    },
    StatusBar: { overlaysWebView: false, style: 'LIGHT', backgroundColor: '#ffffff' },
  },
};

export default config;
