/**
 * Where the server is. The web app is served by the server itself, so its API and WebSocket are on the page's
 * origin (''). Inside the native shell the web build is loaded from the device (capacitor://localhost,
 * https://localhost), so a shell build names the server: VITE_API_ORIGIN=https://exchange.example npm run
 * build:shell -w apps/web (README "Native shell").
 */
export const API_ORIGIN: string = (import.meta.env.VITE_API_ORIGIN as string | undefined)?.replace(/\/+$/, '') ?? '';

/** An absolute URL for a server path ('/api/...'): on the API origin, else on the page's. */
export function serverUrl(path: string): string {
  return new URL(path, API_ORIGIN || window.location.origin).toString();
}
