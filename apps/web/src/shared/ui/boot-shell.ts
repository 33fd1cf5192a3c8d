/**
 * The page's shell (index.html `#boot`): the brand bar and, on the home screen, the first banner (public/boot.js),
 * painted before the app's JavaScript arrives and lying over the app until the first page has rendered, so the
 * screen goes from the shell to the page without a blank or half-loaded frame.
 *
 * Lazy pages dismiss it when they mount (shared/routing/lazy-page.tsx); a page that shows the shell's content itself
 * (the home banners) holds it until that content is there. It goes after BOOT_SHELL_MAX_MS whatever happens, so
 * nothing can leave it over the app.
 */

/** The longest the shell stays after the app's code started, ms. */
export const BOOT_SHELL_MAX_MS = 8_000;

/** Removes the shell (idempotent). */
export function dismissBootShell(): void {
  if (typeof document === 'undefined') return;
  document.getElementById('boot')?.remove();
}

/** Starts the BOOT_SHELL_MAX_MS limit; call once at start (main.tsx). */
export function limitBootShell(): void {
  if (typeof window !== 'undefined') window.setTimeout(dismissBootShell, BOOT_SHELL_MAX_MS);
}
