/**
 * The web app's page (the build's index.html) as the server sends it. On the home screen (`/` and `/home`) the page's
 * shell (`#boot`, painted before the app's JavaScript arrives) gets the first published banner of the request's
 * language as an `<img>`, where the home screen shows it, so the browser finds the image in the page itself and
 * fetches it with the page's first requests, as a server-rendered page would. Without it the image waits for the
 * shell's script (apps/web/public/boot.js), then for the banners request: the home screen's Largest Contentful Paint
 * is that banner.
 *
 * The image goes where the build's page has the marker `<!--boot-banner-->` (apps/web/index.html); a page without the
 * marker, a home screen without a published banner or a banner whose image is not on this origin is sent as built.
 * The language is the request's (`lang` header, else Accept-Language: platform/shared/lang.ts); the image carries it
 * (`data-lang`), and boot.js replaces it when the app's persisted language is the other one.
 */
import fs from 'node:fs/promises';
import type { Banner, Lang } from '@exchange/api';

/** Where the build's page takes the first banner (apps/web/index.html, inside `#boot`). */
export const BOOT_BANNER_MARKER = '<!--boot-banner-->';

/** The paths of the home screen (apps/web: the start URL and its route). */
const HOME_PATHS = new Set(['/', '/home']);

/** An image path on this origin (as boot.js accepts it): one leading slash, not a protocol-relative `//host`. */
const SAME_ORIGIN_PATH = /^\/(?!\/)[^"<>\s]*$/;

/** `s` escaped for a double-quoted HTML attribute. */
function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The shell's banner element for `banner` in `lang`, or '' when its image is not a path on this origin.
 * The class is the shell's (`.boot-banner`, styled in index.html); `fetchpriority="high"` because it is the page's
 * largest element.
 */
export function bootBannerHtml(banner: Pick<Banner, 'bannerUrl' | 'title'>, lang: Lang): string {
  if (!SAME_ORIGIN_PATH.test(banner.bannerUrl)) return '';
  return `<img class="boot-banner" alt="${attr(banner.title)}" src="${attr(banner.bannerUrl)}" data-lang="${lang}" fetchpriority="high">`;
}

/** What the web shell reads: the published banners of a language (the content service's `banners`). */
export interface WebShellDeps {
  /** The build's index.html. */
  indexFile: string;
  /** Published banners in display order (spec getBanners). */
  banners: (lang: Lang) => Promise<Pick<Banner, 'bannerUrl' | 'title'>[]>;
  /** Logs a failure to read the banners (the page then goes out as built). */
  warn: (msg: string) => void;
}

/** The web app's page for a request. */
export interface WebShell {
  /** The page for `pathname` in `lang`: the build's index.html, with the first banner in its shell on the home screen. */
  page(pathname: string, lang: Lang): Promise<string>;
}

/**
 * Builds the web shell. The build's page is read once and again whenever its modification time changes (a new build
 * deployed under a running server). Never throws for the banners: the page is sent as built when they fail.
 */
export function createWebShell(deps: WebShellDeps): WebShell {
  let cached: { mtimeMs: number; html: string } | undefined;
  const read = async (): Promise<string> => {
    const st = await fs.stat(deps.indexFile);
    if (!cached || cached.mtimeMs !== st.mtimeMs) cached = { mtimeMs: st.mtimeMs, html: await fs.readFile(deps.indexFile, 'utf8') };
    return cached.html;
  };
  return {
    async page(pathname, lang) {
      const html = await read();
      if (!HOME_PATHS.has(pathname) || !html.includes(BOOT_BANNER_MARKER)) return html;
      let first: Pick<Banner, 'bannerUrl' | 'title'> | undefined;
      try {
        first = (await deps.banners(lang))[0];
      } catch (e) {
        deps.warn(`web shell: banners unavailable, page sent without its banner (${(e as Error).message})`);
      }
      const img = first ? bootBannerHtml(first, lang) : '';
      return img ? html.replace(BOOT_BANNER_MARKER, img) : html;
    },
  };
}
