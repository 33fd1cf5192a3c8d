/** GET data/help/getArticles: a help centre category and its published articles. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CONTENT_PATHS, type HelpArticles } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { globalOf } from '../../../shared/content-api';
import { useAppStore, type Lang } from '../../../shared/storage';

/** queryOptions of category `categoryId` in `lang`. */
export function helpArticlesQuery(categoryId: number, lang: Lang) {
  return queryOptions({
    queryKey: ['help', 'articles', categoryId, lang] as const,
    queryFn: ({ signal }) => apiGet<HelpArticles>(CONTENT_PATHS.helpArticles, { categoryId, global: globalOf(lang) }, { signal, silent: true }),
    staleTime: 60_000,
  });
}

/** Category `categoryId` (a positive integer, else not fetched) in the current language. */
export function useHelpArticles(categoryId: number) {
  const lang = useAppStore((s) => s.currentLangue);
  return useQuery({ ...helpArticlesQuery(categoryId, lang), enabled: Number.isSafeInteger(categoryId) && categoryId > 0 });
}
