/**
 * POST otc/otc/takeAd, markPaid, release, cancelOrder, appeal, cancelAppeal (login): the order's transitions
 * (packages/core otc/types.ts). Each refreshes the user's OTC data and balances.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OTC_PATHS, type OtcOrder, type OtcOrderDetail, type TakeAdBody } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { invalidateOtc } from './keys';

/** Takes an ad (creates an order); throws ApiError (toasted). */
export function takeAd(body: TakeAdBody): Promise<OtcOrder> {
  return apiPost<OtcOrder>(OTC_PATHS.takeAd, { ...body });
}

/** The buyer says the fiat was paid with `paymentMethodId` (optional proof upload id). */
export function markPaid(v: { orderId: string; paymentMethodId: string; proofImageId?: string }): Promise<OtcOrderDetail> {
  return apiPost<OtcOrderDetail>(OTC_PATHS.markPaid, v);
}

/** The seller releases with the transaction password (and the Google code when bound). */
export function releaseOrder(v: { orderId: string; transPassword: string; googleCode?: string }): Promise<OtcOrderDetail> {
  return apiPost<OtcOrderDetail>(OTC_PATHS.release, v);
}

/** The buyer cancels. */
export function cancelOtcOrder(v: { orderId: string; reason?: string }): Promise<OtcOrderDetail> {
  return apiPost<OtcOrderDetail>(OTC_PATHS.cancelOrder, v);
}

/** Either side appeals (reason, description, evidence upload ids comma-separated). */
export function appealOrder(v: { orderId: string; reason: string; description: string; imageIds?: string }): Promise<OtcOrderDetail> {
  return apiPost<OtcOrderDetail>(OTC_PATHS.appeal, v);
}

/** The appellant withdraws the appeal. */
export function cancelAppeal(orderId: string): Promise<OtcOrderDetail> {
  return apiPost<OtcOrderDetail>(OTC_PATHS.cancelAppeal, { orderId });
}

/** The order mutations. */
export function useOrderActions() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  const onSettled = () => invalidateOtc(qc, userId);
  return {
    take: useMutation({ mutationFn: takeAd, onSettled }),
    markPaid: useMutation({ mutationFn: markPaid, onSettled }),
    release: useMutation({ mutationFn: releaseOrder, onSettled }),
    cancel: useMutation({ mutationFn: cancelOtcOrder, onSettled }),
    appeal: useMutation({ mutationFn: appealOrder, onSettled }),
    cancelAppeal: useMutation({ mutationFn: cancelAppeal, onSettled }),
  };
}
