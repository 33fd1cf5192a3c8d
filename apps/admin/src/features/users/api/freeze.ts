/** POST admin/user/freeze and admin/user/unfreeze, with a reason; refreshes the user's detail and the audit log. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_PATHS } from '@exchange/api';
import { apiPost } from '../../../shared/api';

/** Freezes or unfreezes a user. */
export function setFrozen(input: { userId: string; frozen: boolean; reason: string }): Promise<null> {
  return apiPost<null>(input.frozen ? ADMIN_PATHS.userFreeze : ADMIN_PATHS.userUnfreeze, { userId: input.userId, reason: input.reason });
}

/** The freeze/unfreeze mutation. */
export function useSetFrozen() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setFrozen,
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }),
  });
}
