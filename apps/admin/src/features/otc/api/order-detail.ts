/**
 * GET admin/otc/orderDetail (the order, both sides, payment, appeal and the full chat) and POST admin/otc/resolveAppeal
 * (RELEASE to the buyer or RETURN to the seller, with the reason shown to both sides).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { OTC_ADMIN_PATHS } from '@exchange/api';
import { apiGet, apiPost } from '../../../shared/api';
import type { AdminOtcOrderDetail } from './types';

/** The query of one order's detail. */
export function orderDetailOptions(orderId: string) {
  return queryOptions({
    queryKey: ['admin', 'otc', 'orderDetail', orderId],
    queryFn: () => apiGet<AdminOtcOrderDetail>(OTC_ADMIN_PATHS.orderDetail, { orderId }),
  });
}

/** One order's detail (nothing while `orderId` is null). */
export function useOrderDetail(orderId: string | null) {
  return useQuery({ ...orderDetailOptions(orderId ?? ''), enabled: orderId !== null });
}

/** The operator's resolution of an appeal. */
export interface AppealResolution {
  orderId: string;
  outcome: 'RELEASE' | 'RETURN';
  reason: string;
}

/** Sends the resolution. */
export function resolveAppeal(v: AppealResolution): Promise<unknown> {
  return apiPost(OTC_ADMIN_PATHS.resolveAppeal, { ...v });
}

/** The resolution mutation; refreshes every console query (queue, the order, audit log). */
export function useResolveAppeal() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: resolveAppeal, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
