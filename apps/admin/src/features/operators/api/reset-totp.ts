/** POST admin/operator/resetTotp: a new TOTP key for an operator (shown once); its sessions end. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_PATHS } from '@exchange/api';
import { apiPost } from '../../../shared/api';

/** Resets an operator's TOTP key. */
export function resetOperatorTotp(operatorId: string): Promise<{ totpSecret: string; otpauthUrl: string }> {
  return apiPost(ADMIN_PATHS.operatorResetTotp, { operatorId });
}

/** The mutation; refreshes the audit log. */
export function useResetOperatorTotp() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: resetOperatorTotp, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
