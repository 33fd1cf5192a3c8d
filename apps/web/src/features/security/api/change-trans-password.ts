/** POST member/security/changeTransPassword: old and new transaction password (6 digits each). */
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../shared/api-client';
import { SECURITY_PATHS } from './contract';

/** Changes the transaction password. Throws ApiError (toasted; trans_password_wrong / trans_password_locked). */
export function changeTransPassword(input: { oldTransPassword: string; transPassword: string; confirmTransPassword: string }): Promise<unknown> {
  return apiPost(SECURITY_PATHS.changeTransPassword, { ...input });
}

/** Mutation hook. */
export function useChangeTransPassword() {
  return useMutation({ mutationFn: changeTransPassword });
}
