/** POST member/security/changePassword: old + new login password; ends other sessions, locks withdrawals 24 h. */
import { API_PATHS } from '@exchange/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { type SecondFactor } from './contract';
import { securityQueryKey } from './get-security';

/** Changes the login password. Throws ApiError (toasted). */
export function changePassword(input: { oldPassword: string; password: string; confirmPassword: string } & SecondFactor): Promise<unknown> {
  return apiPost(API_PATHS.changePassword, { ...input });
}

/** Mutation; on success the security states (the new withdrawal lock) are refetched. */
export function useChangePassword() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: changePassword, onSuccess: () => qc.invalidateQueries({ queryKey: securityQueryKey(userId) }) });
}
