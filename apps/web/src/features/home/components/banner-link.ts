/**
 * Where a banner's link goes for this visitor. The seeded welcome banner links /register ("Sign up and
 * get 10,000 demo USDT"); a logged-in user has done that, so sign-up and log-in links send them to the
 * trade screen instead, where the demo USDT is spent. Other links are unchanged.
 */

/** Where a logged-in user goes instead of /register or /login. */
export const LOGGED_IN_BANNER_TARGET = '/transaction';

const AUTH_PATHS = new Set(['/register', '/login']);

/**
 * The in-app path or external URL to open for `link` (the banner's link field) when the visitor is
 * (`isLogin`) or is not logged in; null when the banner has no link.
 */
export function bannerTarget(link: string, isLogin: boolean): string | null {
  const trimmed = link.trim();
  if (!trimmed) return null;
  if (!isLogin || /^https?:\/\//.test(trimmed)) return trimmed;
  const path = trimmed.split(/[?#]/, 1)[0]!.replace(/\/+$/, '') || '/';
  return AUTH_PATHS.has(path) ? LOGGED_IN_BANNER_TARGET : trimmed;
}
