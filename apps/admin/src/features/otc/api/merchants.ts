/** GET admin/otc/merchants (by state, paged) and the decisions: reviewMerchant (approve or reject) and setMerchantStatus. */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { OTC_ADMIN_PATHS } from '@exchange/api';
import { apiGet, apiPost } from '../../../shared/api';
import type { AdminOtcMerchant, OtcMerchantState, OtcPage } from './types';

/** The list's filter: a state or ALL, the page from 1. */
export interface MerchantsFilter {
  state: OtcMerchantState | 'ALL';
  page: number;
}

/** The query of one page of merchants. */
export function merchantsOptions(f: MerchantsFilter) {
  return queryOptions({
    queryKey: ['admin', 'otc', 'merchants', f],
    queryFn: () => apiGet<OtcPage<AdminOtcMerchant>>(OTC_ADMIN_PATHS.merchants, { state: f.state === 'ALL' ? undefined : f.state, page: f.page }),
    placeholderData: keepPreviousData,
  });
}

/** One page of merchants. */
export function useMerchants(f: MerchantsFilter) {
  return useQuery(merchantsOptions(f));
}

/** An operator's decision on a merchant: review an application, or suspend / reinstate, always with a reason. */
export type MerchantDecision =
  { kind: 'review'; userId: string; approve: boolean; reason: string } | { kind: 'status'; userId: string; status: 'ACTIVE' | 'SUSPENDED'; reason: string };

/** Sends the decision. */
export function decideMerchant(d: MerchantDecision): Promise<unknown> {
  return d.kind === 'review'
    ? apiPost(OTC_ADMIN_PATHS.reviewMerchant, { userId: d.userId, approve: d.approve, reason: d.reason })
    : apiPost(OTC_ADMIN_PATHS.setMerchantStatus, { userId: d.userId, status: d.status, reason: d.reason });
}

/** The decision mutation; refreshes every console query (lists, audit log). */
export function useDecideMerchant() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: decideMerchant, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
