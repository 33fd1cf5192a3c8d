/** GET data/data/getNotices (spec section 7): noticeType OFFICIAL, global by language. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type Notice } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore, type Lang } from '../../../shared/storage';
import { globalOf } from './banners';

/** queryOptions of the official notices in `lang`. */
export function noticesQuery(lang: Lang) {
  return queryOptions({
    queryKey: ['notices', 'list', lang] as const,
    queryFn: ({ signal }) => apiGet<Notice[]>(API_PATHS.getNotices, { noticeType: 'OFFICIAL', global: globalOf(lang) }, { signal, silent: true }),
    staleTime: 60_000,
  });
}

/** Notices of the current language. */
export function useNotices() {
  const lang = useAppStore((s) => s.currentLangue);
  return useQuery(noticesQuery(lang));
}
