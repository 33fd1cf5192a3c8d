/** GET data/help/search: published articles whose title or text contains the words. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CONTENT_PATHS, type HelpSearchHit } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { globalOf } from '../../../shared/content-api';
import { useAppStore, type Lang } from '../../../shared/storage';

/** Longest search the server takes (packages/api HelpSearchQuery). */
export const HELP_SEARCH_MAX = 50;

/** queryOptions of the search `q` in `lang`. */
export function helpSearchQuery(q: string, lang: Lang) {
  return queryOptions({
    queryKey: ['help', 'search', q, lang] as const,
    queryFn: ({ signal }) => apiGet<HelpSearchHit[]>(CONTENT_PATHS.helpSearch, { q, global: globalOf(lang) }, { signal, silent: true }),
    staleTime: 60_000,
  });
}

/** The hits of `q` (trimmed; not fetched when empty) in the current language. */
export function useHelpSearch(q: string) {
  const lang = useAppStore((s) => s.currentLangue);
  const words = q.trim().slice(0, HELP_SEARCH_MAX);
  return useQuery({ ...helpSearchQuery(words, lang), enabled: words !== '' });
}
