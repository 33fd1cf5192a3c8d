/** GET data/data/getNoticeDetail (spec section 7): one notice with its content, by id and language. */
import { useQuery } from '@tanstack/react-query';
import { API_PATHS, type NoticeDetail } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { globalOf } from '../../../shared/content-api';

/** One notice with its content. */
export function useNoticeDetail(id: number) {
  const lang = useAppStore((s) => s.currentLangue);
  return useQuery({
    queryKey: ['notices', 'detail', id, lang] as const,
    queryFn: ({ signal }) => apiGet<NoticeDetail>(API_PATHS.getNoticeDetail, { id, global: globalOf(lang) }, { signal, silent: true }),
    enabled: Number.isInteger(id) && id > 0,
    staleTime: 60_000,
  });
}
