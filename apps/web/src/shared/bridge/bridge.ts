/**
 * The small bridge to the native shell (ARCHITECTURE.md section 10): status bar style, saving images with the
 * permission flow (spec section 6), sharing, network status, the app's version and the update flow (spec section 4).
 * Inside the Capacitor shell each call goes to a plugin (capacitor.ts, loaded lazily so the web app's initial
 * JavaScript does not carry it); in a plain browser each has a web fallback: the status bar style becomes
 * <meta name="theme-color">, a saved image a download, sharing the Web Share API (the Share plugin's web
 * implementation), the network status navigator.onLine.
 */
import type { CapacitorBridge, SaveImageResult, ShareResult, StatusBarStyle } from './capacitor';

export type { SaveImageResult, ShareResult, StatusBarStyle } from './capacitor';

/** The platform the app runs on, as the version API names it. */
export type BridgePlatform = 'android' | 'ios' | 'web';

interface CapacitorGlobal {
  isNativePlatform?: () => boolean;
  getPlatform?: () => string;
}

function capacitorGlobal(): CapacitorGlobal | undefined {
  return (window as unknown as { Capacitor?: CapacitorGlobal }).Capacitor;
}

/** True inside the native shell (Capacitor's native bridge injects window.Capacitor before the page runs). */
export function isNativeShell(): boolean {
  return capacitorGlobal()?.isNativePlatform?.() === true;
}

/** The platform: 'android' or 'ios' inside the shell, else 'web'. */
export function bridgePlatform(): BridgePlatform {
  if (!isNativeShell()) return 'web';
  return capacitorGlobal()?.getPlatform?.() === 'ios' ? 'ios' : 'android';
}

let nativeBridge: Promise<CapacitorBridge> | null = null;

/** The Capacitor side, loaded once on first use. */
export function loadCapacitorBridge(): Promise<CapacitorBridge> {
  nativeBridge ??= import('./capacitor').then((m) => m.createCapacitorBridge());
  return nativeBridge;
}

/** Sets the status bar style; the web fallback (always applied) sets meta theme-color to `background`. */
export function setStatusBarStyle(style: StatusBarStyle, background: string): void {
  let meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'theme-color';
    document.head.appendChild(meta);
  }
  meta.content = background;
  if (isNativeShell()) void loadCapacitorBridge().then((b) => b.setStatusBarStyle(style, background));
}

/** Downloads `dataUrl` as `fileName` (the web's way of saving an image: no permission to ask for). */
function downloadDataUrl(dataUrl: string, fileName: string): SaveImageResult {
  try {
    const a = document.createElement('a');
    a.href = dataUrl;
    a.download = fileName;
    a.rel = 'noopener';
    document.body.appendChild(a);
    a.click();
    a.remove();
    return 'saved';
  } catch {
    return 'failed';
  }
}

/**
 * Saves an image (a PNG data: URL) to the device (spec section 6): in the native shell to the photo album, which
 * may ask for the permission ('denied' when refused: the caller offers openAppSettings); on the web a download.
 */
export async function saveImage(dataUrl: string, fileName: string): Promise<SaveImageResult> {
  if (!isNativeShell()) return downloadDataUrl(dataUrl, fileName);
  try {
    return await (await loadCapacitorBridge()).saveImage(dataUrl, fileName);
  } catch {
    return 'failed';
  }
}

/** Opens the system settings of the app (native shell only; a no-op on the web). */
export function openAppSettings(): void {
  if (isNativeShell()) void loadCapacitorBridge().then((b) => b.openAppSettings());
}

/**
 * Shares a text and link: the system share sheet in the shell, the Web Share API in a browser (the Share plugin's
 * web implementation). 'unavailable' when neither can (a desktop browser): the caller copies the link instead.
 */
export async function share(opts: { title: string; text: string; url?: string }): Promise<ShareResult> {
  try {
    return await (await loadCapacitorBridge()).share(opts);
  } catch {
    return 'unavailable';
  }
}

/**
 * Calls `cb` with the connectivity now and at each change: the Network plugin in the shell, the browser's
 * online/offline events on the web. Returns the unsubscribe.
 */
export function watchNetwork(cb: (connected: boolean) => void): () => void {
  if (isNativeShell()) {
    let stop: (() => void) | null = null;
    let stopped = false;
    void loadCapacitorBridge().then(async (b) => {
      if (stopped) return;
      stop = b.watchNetwork(cb);
      cb(await b.isConnected());
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }
  const on = () => cb(true);
  const off = () => cb(false);
  window.addEventListener('online', on);
  window.addEventListener('offline', off);
  cb(navigator.onLine);
  return () => {
    window.removeEventListener('online', on);
    window.removeEventListener('offline', off);
  };
}

/** Calls `cb` each time the app comes back to the foreground (App plugin's resume; the web's visibilitychange). */
export function onAppResume(cb: () => void): () => void {
  if (isNativeShell()) {
    let stop: (() => void) | null = null;
    void loadCapacitorBridge().then((b) => (stop = b.onResume(cb)));
    return () => stop?.();
  }
  const onVisible = () => document.visibilityState === 'visible' && cb();
  document.addEventListener('visibilitychange', onVisible);
  return () => document.removeEventListener('visibilitychange', onVisible);
}

/** Build id of the running code (vite define). */
export const RUNNING_BUILD_ID: string = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev';

/** Version of the running web code (apps/web/package.json, vite define): the web app's version. */
export const APP_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.0.0';

/** `v` as major.minor.patch ('1.0' -> '1.0.0'), or null when it is not a version of at most three numeric parts. */
export function normalizeVersion(v: string): string | null {
  const parts = v.trim().split('.');
  if (parts.length < 1 || parts.length > 3 || !parts.every((p) => /^(0|[1-9][0-9]{0,3})$/.test(p))) return null;
  while (parts.length < 3) parts.push('0');
  return parts.join('.');
}

/**
 * The version the app runs, as major.minor.patch: in the shell the live-updated bundle's version or the binary's
 * (capacitor.ts runningVersion), on the web APP_VERSION.
 */
export async function runningVersion(): Promise<string> {
  if (!isNativeShell()) return APP_VERSION;
  try {
    const v = await (await loadCapacitorBridge()).runningVersion();
    return (v && normalizeVersion(v)) ?? APP_VERSION;
  } catch {
    return APP_VERSION;
  }
}

/** Tells the shell's updater the running bundle started fine (a no-op on the web); call once the app has rendered. */
export function notifyAppReady(): void {
  if (isNativeShell()) void loadCapacitorBridge().then((b) => b.notifyAppReady());
}
