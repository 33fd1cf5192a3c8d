/**
 * Notices (spec section 7): GET data/data/getNotices (noticeType OFFICIAL, global by language) and
 * GET data/data/getNoticeDetail (id). The list shares its query key with the home ticker.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type Notice, type NoticeDetail } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore, type Lang } from '../../../shared/storage';

const globalOf = (lang: Lang) => (lang === 'zh' ? 'CHINESE_SIM' : 'ENGLISH');

/** queryOptions of the notice list in `lang`. */
export function noticeListQuery(lang: Lang) {
  return queryOptions({
    queryKey: ['notices', 'list', lang] as const,
    queryFn: ({ signal }) => apiGet<Notice[]>(API_PATHS.getNotices, { noticeType: 'OFFICIAL', global: globalOf(lang) }, { signal, silent: true }),
    staleTime: 60_000,
  });
}

/** The notice list of the current language. */
export function useNoticeList() {
  const lang = useAppStore((s) => s.currentLangue);
  return useQuery(noticeListQuery(lang));
}

/** One notice with its content. */
export function useNoticeDetail(id: number) {
  const lang = useAppStore((s) => s.currentLangue);
  return useQuery({
    queryKey: ['notices', 'detail', id, lang] as const,
    queryFn: ({ signal }) => apiGet<NoticeDetail>(API_PATHS.getNoticeDetail, { id, global: globalOf(lang) }, { signal }),
    enabled: Number.isInteger(id) && id > 0,
    staleTime: 60_000,
  });
}
