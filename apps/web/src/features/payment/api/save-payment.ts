/** POST member/payment/addPayment and updatePayment (with the transaction password). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { API_PATHS } from '@exchange/api';
import type { PaymentInput } from './contract';
import { paymentsQueryKey } from './get-payments';

/** Adds (no `id`) or updates (`id`) a method. Throws ApiError (toasted; trans_password_wrong, real_name_required ...). */
export function savePayment(input: PaymentInput & { id?: string; transPassword: string }): Promise<unknown> {
  return apiPost(input.id ? API_PATHS.updatePayment : API_PATHS.addPayment, { ...input });
}

/** Mutation; refetches the list on success. */
export function useSavePayment() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: savePayment, onSuccess: () => qc.invalidateQueries({ queryKey: paymentsQueryKey(userId) }) });
}
