/** POST entrust/entrust/cancelOcoEntrust (login required): cancels an OCO list, both its open legs; refreshes orders and balances. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, type OcoEntrust } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { assetsQueryKey } from './get-spot-assets';

/** Cancels list `orderListId`; throws ApiError on FAILED (toasted). */
export function cancelOcoEntrust(orderListId: string): Promise<OcoEntrust> {
  return apiPost<OcoEntrust>(API_PATHS.cancelOcoEntrust, { orderListId });
}

/** Mutation hook cancelling an OCO list. */
export function useCancelOcoEntrust() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({
    mutationFn: cancelOcoEntrust,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: ['entrust'] });
      void qc.invalidateQueries({ queryKey: assetsQueryKey(userId) });
    },
  });
}
