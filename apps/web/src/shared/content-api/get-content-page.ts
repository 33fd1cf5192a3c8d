/**
 * GET data/content/getPage (packages/api content.ts): a text page edited in the console (the user
 * agreement, the privacy policy, the P2P terms, the merchant agreement, the download page), its published copy in a
 * language. Read by the about, OTC and help features and the download page.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CONTENT_PATHS, type ContentPage, type PageSlug } from '@exchange/api';
import { apiGet } from '../api-client';
import { useAppStore, type Lang } from '../storage';
import { globalOf } from './global-of';

/** Fetches page `slug` in `lang`; throws ApiError on failure (shown by the page, not toasted). */
export function getContentPage(slug: PageSlug, lang: Lang, signal?: AbortSignal): Promise<ContentPage> {
  return apiGet<ContentPage>(CONTENT_PATHS.page, { slug, global: globalOf(lang) }, { signal, silent: true });
}

/** queryOptions of page `slug` in `lang` (key ['content', 'page', slug, lang], 1 min stale). */
export function contentPageQuery(slug: PageSlug, lang: Lang) {
  return queryOptions({ queryKey: ['content', 'page', slug, lang] as const, queryFn: ({ signal }) => getContentPage(slug, lang, signal), staleTime: 60_000 });
}

/** Page `slug` in the current language. */
export function useContentPage(slug: PageSlug) {
  const lang = useAppStore((s) => s.currentLangue);
  return useQuery(contentPageQuery(slug, lang));
}
