/** POST member/payment/setPaymentEnabled { id, enabled }. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { API_PATHS } from '@exchange/api';
import { paymentsQueryKey } from './get-payments';

/** Switches a method on or off. Throws ApiError (toasted). */
export function setPaymentEnabled(id: string, enabled: boolean): Promise<unknown> {
  return apiPost(API_PATHS.setPaymentEnabled, { id, enabled: String(enabled) });
}

/** Mutation; refetches the list when settled (also after a failure, so the switch shows the truth). */
export function useSetPaymentEnabled() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({
    mutationFn: (v: { id: string; enabled: boolean }) => setPaymentEnabled(v.id, v.enabled),
    onSettled: () => qc.invalidateQueries({ queryKey: paymentsQueryKey(userId) }),
  });
}
