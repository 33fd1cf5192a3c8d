/**
 * The small bridge to the native shell (DESIGN.md section 6): status bar style, app version/update.
 * In a plain browser (no Capacitor) each call has a web fallback: the status bar style becomes the
 * <meta name="theme-color">, and the update check compares the running build with /version.json.
 */

/** Status bar text colour: 'dark' text on a light bar (day), 'light' text on a dark bar (night). */
export type StatusBarStyle = 'light' | 'dark';

interface NativeShell {
  setStatusBarStyle?: (style: StatusBarStyle, background: string) => void;
  /** Saves a PNG (data: URL) to the photo library; resolves 'denied' when the user refused the permission. */
  saveImage?: (dataUrl: string, fileName: string) => Promise<'saved' | 'denied' | 'failed'>;
  /** Opens the app's page in the system settings (to grant a refused permission). */
  openSettings?: () => void;
}

function native(): NativeShell | null {
  const w = window as unknown as { ExchangeNative?: NativeShell };
  return w.ExchangeNative ?? null;
}

/** Sets the status bar style; web fallback updates meta theme-color to `background`. */
export function setStatusBarStyle(style: StatusBarStyle, background: string): void {
  const n = native();
  if (n?.setStatusBarStyle) {
    n.setStatusBarStyle(style, background);
    return;
  }
  let meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'theme-color';
    document.head.appendChild(meta);
  }
  meta.content = background;
}

/** Outcome of saveImage: saved, the photo permission refused (spec section 6: prompt to open settings), or failed. */
export type SaveImageResult = 'saved' | 'denied' | 'failed';

/**
 * Saves an image (a PNG data: URL) to the device (spec section 6): in the native shell to the photo library, which
 * may ask for the permission; on the web a download of the file (no permission to ask for).
 */
export async function saveImage(dataUrl: string, fileName: string): Promise<SaveImageResult> {
  const n = native();
  if (n?.saveImage) {
    try {
      return await n.saveImage(dataUrl, fileName);
    } catch {
      return 'failed';
    }
  }
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

/** Opens the system settings of the app (native shell only; a no-op on the web). */
export function openAppSettings(): void {
  native()?.openSettings?.();
}

/** Build id of the running code (vite define). */
export const RUNNING_BUILD_ID: string = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev';

/**
 * Checks whether a newer build is deployed: fetches /version.json (written by the build) and
 * returns its build id when it differs from the running one, else null. Dev server: always null.
 */
export async function checkForUpdate(): Promise<string | null> {
  if (import.meta.env.DEV) return null;
  try {
    const res = await fetch(`/version.json?t=${Date.now()}`, { cache: 'no-store' });
    if (!res.ok) return null;
    const j = (await res.json()) as { buildId?: string };
    return j.buildId && j.buildId !== RUNNING_BUILD_ID ? j.buildId : null;
  } catch {
    return null;
  }
}

/** Applies an update: on the web, a reload picks up the new build. */
export function applyUpdate(): void {
  window.location.reload();
}
