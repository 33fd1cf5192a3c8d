/** POST entrust/entrust/cancelEntrust (login required): cancels an open order by id; refreshes orders and balances. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, type Entrust } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { assetsQueryKey } from './get-spot-assets';

/** Cancels order `id`; throws ApiError on FAILED (toasted). */
export function cancelEntrust(id: string): Promise<Entrust> {
  return apiPost<Entrust>(API_PATHS.cancelEntrust, { id });
}

/** Mutation hook cancelling an order. */
export function useCancelEntrust() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({
    mutationFn: cancelEntrust,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: ['entrust'] });
      void qc.invalidateQueries({ queryKey: assetsQueryKey(userId) });
    },
  });
}
