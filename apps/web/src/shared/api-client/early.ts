/**
 * Answers requested before the app's JavaScript arrived, by public/boot.js: the home
 * banners. boot.js leaves `window.__exchangeEarly[url]`, a promise of the raw answer; the API client takes it
 * once, for a GET of exactly that URL, instead of making the same request again.
 */

/** The raw answer boot.js keeps: HTTP status and body text. */
export interface EarlyAnswer {
  status: number;
  statusText: string;
  text: string;
}

declare global {
  interface Window {
    /** Set by public/boot.js: URL -> promise of its answer. */
    __exchangeEarly?: Record<string, Promise<EarlyAnswer> | undefined>;
  }
}

/**
 * The early answer for `url` (as built by the API client, e.g. '/api/data/data/getBanners?...') as a Response,
 * or undefined when there is none or it was taken already. Rejects when boot.js's request failed (the caller
 * then makes its own request).
 */
export function takeEarlyResponse(url: string): Promise<Response> | undefined {
  const early = typeof window === 'undefined' ? undefined : window.__exchangeEarly;
  const answer = early?.[url];
  if (!answer) return undefined;
  delete early[url];
  return answer.then((a) => new Response(a.text, { status: a.status, statusText: a.statusText }));
}
