/**
 * Registers the service worker the build generates (/sw.js: vite.config.ts, vite-plugin-pwa with Workbox) once the
 * first screen is done, so its precaching (the app's shell, some 100 files) never competes with the first screen for
 * the network or the main thread: SW_AFTER_LOAD_MS after the load event, when the browser is next idle (at most
 * SW_IDLE_TIMEOUT_MS later). The offline start (spec section 8) needs the worker only on a later visit, so nothing a
 * user sees waits for it. Not in the dev server (no worker there) and not inside the native shell: the shell's web
 * bundle is on the device already and its live updater replaces it (shared/bridge/update.ts); a worker there would
 * hold on to the old bundle.
 */
import { isNativeShell } from '../bridge/bridge';

/** The worker's URL and scope (the whole app). */
export const SERVICE_WORKER_URL = '/sw.js';
/** How long after the load event the worker is registered, ms (the first screen's data and images have arrived). */
export const SW_AFTER_LOAD_MS = 5000;
/** The longest the registration then waits for an idle moment, ms. */
export const SW_IDLE_TIMEOUT_MS = 5000;

/** Registers the worker once the page has loaded and settled; a no-op where there is none to register. */
export function registerServiceWorker(): void {
  if (import.meta.env.DEV || isNativeShell() || !('serviceWorker' in navigator)) return;
  const register = () => void navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch(() => undefined);
  const whenIdle = () => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(register, { timeout: SW_IDLE_TIMEOUT_MS });
    else register();
  };
  const afterLoad = () => window.setTimeout(whenIdle, SW_AFTER_LOAD_MS);
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
}
