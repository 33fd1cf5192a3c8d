/**
 * GET data/data/getNotices (spec section 7): the OFFICIAL notices of a language. Read by the home
 * ticker and the notice list page under one query key, so either page finds the other's list cached.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type Notice } from '@exchange/api';
import { apiGet } from '../api-client';
import { useAppStore, type Lang } from '../storage';
import { globalOf } from './global-of';

/** Fetches the official notices in `lang`; throws ApiError on failure (not toasted). */
export function getNotices(lang: Lang, signal?: AbortSignal): Promise<Notice[]> {
  return apiGet<Notice[]>(API_PATHS.getNotices, { noticeType: 'OFFICIAL', global: globalOf(lang) }, { signal, silent: true });
}

/** queryOptions of the official notices in `lang` (key ['notices', 'list', lang], 1 min stale). */
export function noticesQuery(lang: Lang) {
  return queryOptions({
    queryKey: ['notices', 'list', lang] as const,
    queryFn: ({ signal }) => getNotices(lang, signal),
    staleTime: 60_000,
  });
}

/** Notices of the current language. */
export function useNotices() {
  const lang = useAppStore((s) => s.currentLangue);
  return useQuery(noticesQuery(lang));
}
