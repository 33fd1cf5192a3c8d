/** POST member/apiKey/delete: deletes one of the caller's keys; it stops working at once. */
import { API_KEY_PATHS } from '@exchange/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { apiKeysQueryKey } from './list-api-keys';

/** Deletes the key `id`. Throws ApiError (toasted). */
export function deleteApiKey(id: string): Promise<unknown> {
  return apiPost(API_KEY_PATHS.remove, { id });
}

/** Mutation; refetches the list on success. */
export function useDeleteApiKey() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: deleteApiKey, onSuccess: () => qc.invalidateQueries({ queryKey: apiKeysQueryKey(userId) }) });
}
