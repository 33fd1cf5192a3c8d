/** POST member/payment/deletePayment { id, transPassword }. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { API_PATHS } from '@exchange/api';
import { paymentsQueryKey } from './get-payments';

/** Deletes a method. Throws ApiError (toasted). */
export function deletePayment(id: string, transPassword: string): Promise<unknown> {
  return apiPost(API_PATHS.deletePayment, { id, transPassword });
}

/** Mutation; refetches the list on success. */
export function useDeletePayment() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({
    mutationFn: (v: { id: string; transPassword: string }) => deletePayment(v.id, v.transPassword),
    onSuccess: () => qc.invalidateQueries({ queryKey: paymentsQueryKey(userId) }),
  });
}
