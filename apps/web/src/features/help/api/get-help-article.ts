/** GET data/help/getArticle: one published help centre article. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CONTENT_PATHS, type HelpArticle } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { globalOf } from '../../../shared/content-api';
import { useAppStore, type Lang } from '../../../shared/storage';

/** queryOptions of article `id` in `lang`. */
export function helpArticleQuery(id: number, lang: Lang) {
  return queryOptions({
    queryKey: ['help', 'article', id, lang] as const,
    queryFn: ({ signal }) => apiGet<HelpArticle>(CONTENT_PATHS.helpArticle, { id, global: globalOf(lang) }, { signal, silent: true }),
    staleTime: 60_000,
  });
}

/** Article `id` (a positive integer, else not fetched) in the current language. */
export function useHelpArticle(id: number) {
  const lang = useAppStore((s) => s.currentLangue);
  return useQuery({ ...helpArticleQuery(id, lang), enabled: Number.isSafeInteger(id) && id > 0 });
}
