/** GET data/help/getCategories: the help centre's published categories with their article counts. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CONTENT_PATHS, type HelpCategory } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { globalOf } from '../../../shared/content-api';
import { useAppStore, type Lang } from '../../../shared/storage';

/** queryOptions of the categories in `lang`. */
export function helpCategoriesQuery(lang: Lang) {
  return queryOptions({
    queryKey: ['help', 'categories', lang] as const,
    queryFn: ({ signal }) => apiGet<HelpCategory[]>(CONTENT_PATHS.helpCategories, { global: globalOf(lang) }, { signal, silent: true }),
    staleTime: 60_000,
  });
}

/** The categories in the current language. */
export function useHelpCategories() {
  const lang = useAppStore((s) => s.currentLangue);
  return useQuery(helpCategoriesQuery(lang));
}
