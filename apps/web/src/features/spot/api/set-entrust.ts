/**
 * POST entrust/entrust/setEntrust (login and nickname required): places a spot order. The body carries
 * a client order id, so retrying the same submission returns the first result instead of a second
 * order. On success the open orders and the balances are refetched.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, type Entrust } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { assetsQueryKey } from './get-spot-assets';

/** Sends the order; throws ApiError on FAILED (errorMessage toasted by the client). */
export function setEntrust(body: Record<string, string>): Promise<Entrust> {
  return apiPost<Entrust>(API_PATHS.setEntrust, body);
}

/** Mutation hook placing an order. */
export function useSetEntrust() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({
    mutationFn: setEntrust,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: ['entrust'] });
      void qc.invalidateQueries({ queryKey: assetsQueryKey(userId) });
    },
  });
}
