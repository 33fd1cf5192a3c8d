/** POST member/security/setTransPassword: the first transaction password (6 digits) with a VERIFY or Google code. */
import { API_PATHS } from '@exchange/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { type SecondFactor } from './contract';
import { securityQueryKey } from './get-security';

/** Sets the transaction password. Throws ApiError (toasted). */
export function setTransPassword(input: { transPassword: string; confirmTransPassword: string } & SecondFactor): Promise<unknown> {
  return apiPost(API_PATHS.setTransPassword, { ...input });
}

/** Mutation; refetches the security states on success. */
export function useSetTransPassword() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: setTransPassword, onSuccess: () => qc.invalidateQueries({ queryKey: securityQueryKey(userId) }) });
}
