/**
 * Registers the service worker the build generates (/sw.js: vite.config.ts, vite-plugin-pwa with Workbox) once the
 * page has loaded, so its precaching never competes with the first screen. Not in the dev server (no worker there)
 * and not inside the native shell: the shell's web bundle is on the device already and its live updater replaces it
 * (shared/bridge/update.ts); a worker there would hold on to the old bundle.
 */
import { isNativeShell } from '../bridge/bridge';

/** The worker's URL and scope (the whole app). */
export const SERVICE_WORKER_URL = '/sw.js';

/** Registers the worker after the load event; a no-op where there is none to register. */
export function registerServiceWorker(): void {
  if (import.meta.env.DEV || isNativeShell() || !('serviceWorker' in navigator)) return;
  const register = () => void navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch(() => undefined);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
