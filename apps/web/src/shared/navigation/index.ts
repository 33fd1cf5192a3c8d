/**
 * Navigation from outside React (API client on 401/SYS.0015, WebSocket auth failure). The app
 * registers the router's navigate at start; before that (or in tests) it falls back to location.
 */
type Navigate = (to: string, opts?: { replace?: boolean }) => void;

let navigator: Navigate | null = null;

/** Registers the router's navigate function (called once by src/app). */
export function setNavigator(fn: Navigate | null): void {
  navigator = fn;
}

/** Navigates to an app path such as '/login'. */
export function navigateTo(to: string, opts?: { replace?: boolean }): void {
  if (navigator) navigator(to, opts);
  else if (typeof window !== 'undefined') window.location.assign(to);
}

/** Current app path (pathname + search). */
export function currentPath(): string {
  return typeof window === 'undefined' ? '/' : window.location.pathname + window.location.search;
}
