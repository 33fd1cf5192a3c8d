/**
 * POST admin/apiKey/delete: deletes (revokes) a user's key with a reason; the server writes the audit row
 * (action api_key_delete) in the same transaction. Refreshes the user's keys and the audit log.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API_KEY_PATHS } from '@exchange/api';
import { apiPost } from '../../../shared/api';

/** Revokes the key `id` for `reason` (1-200 characters). */
export function revokeApiKey(input: { id: string; reason: string }): Promise<null> {
  return apiPost<null>(ADMIN_API_KEY_PATHS.remove, { id: input.id, reason: input.reason });
}

/** The revoke mutation. */
export function useRevokeApiKey() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: revokeApiKey, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
