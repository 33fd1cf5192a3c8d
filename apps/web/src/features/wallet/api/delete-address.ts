/** POST asset/wallet/deleteAddress: removes one saved address of the caller. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { walletKeys } from './keys';

/** Deletes entry `id`. Throws ApiError (toasted). */
export function deleteAddress(id: string): Promise<unknown> {
  return apiPost(API_PATHS.deleteAddress, { id });
}

/** Mutation; the address book is refetched. */
export function useDeleteAddress() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: deleteAddress, onSettled: () => qc.invalidateQueries({ queryKey: walletKeys.addressBook(userId) }) });
}
