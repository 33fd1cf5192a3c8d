/** POST member/security/changeTransPassword: old and new transaction password (6 digits each). */
import { API_PATHS } from '@exchange/api';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../shared/api-client';

/** Changes the transaction password. Throws ApiError (toasted; trans_password_wrong / trans_password_locked). */
export function changeTransPassword(input: { oldTransPassword: string; transPassword: string; confirmTransPassword: string }): Promise<unknown> {
  return apiPost(API_PATHS.changeTransPassword, { ...input });
}

/** Mutation hook. */
export function useChangeTransPassword() {
  return useMutation({ mutationFn: changeTransPassword });
}
