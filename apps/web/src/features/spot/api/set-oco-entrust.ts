/**
 * POST entrust/entrust/setOcoEntrust (login and nickname required): places an OCO list (a limit maker leg and a
 * stop-limit leg, one amount). The body carries a client id naming the list, so retrying the same submission returns
 * the first list instead of a second one. On success the orders and the balances are refetched.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, type OcoEntrust } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { assetsQueryKey } from './get-spot-assets';

/** Sends the list; throws ApiError on FAILED (errorMessage toasted by the client). */
export function setOcoEntrust(body: Record<string, string>): Promise<OcoEntrust> {
  return apiPost<OcoEntrust>(API_PATHS.setOcoEntrust, body);
}

/** Mutation hook placing an OCO list. */
export function useSetOcoEntrust() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({
    mutationFn: setOcoEntrust,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: ['entrust'] });
      void qc.invalidateQueries({ queryKey: assetsQueryKey(userId) });
    },
  });
}
