/** GET admin/otc/ads (by status and merchant, paged) and POST admin/otc/closeAd (with a reason). */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { OTC_ADMIN_PATHS } from '@exchange/api';
import { apiGet, apiPost } from '../../../shared/api';
import type { OtcAd, OtcAdStatus, OtcPage } from './types';

/** The list's filter: a status or ALL, a merchant's user id ('' = everyone), the page from 1. */
export interface AdsFilter {
  status: OtcAdStatus | 'ALL';
  userId: string;
  page: number;
}

/** The query of one page of ads. */
export function adsOptions(f: AdsFilter) {
  return queryOptions({
    queryKey: ['admin', 'otc', 'ads', f],
    queryFn: () => apiGet<OtcPage<OtcAd>>(OTC_ADMIN_PATHS.ads, { status: f.status === 'ALL' ? undefined : f.status, userId: f.userId, page: f.page }),
    placeholderData: keepPreviousData,
  });
}

/** One page of ads. */
export function useAds(f: AdsFilter) {
  return useQuery(adsOptions(f));
}

/** Closes an ad (its escrowed remainder returns to the merchant) with the operator's reason. */
export function closeAd(v: { adId: string; reason: string }): Promise<unknown> {
  return apiPost(OTC_ADMIN_PATHS.closeAd, v);
}

/** The close mutation; refreshes every console query. */
export function useCloseAd() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: closeAd, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
