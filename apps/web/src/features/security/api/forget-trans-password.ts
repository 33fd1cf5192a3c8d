/** POST member/security/forgetTransPassword: a new transaction password with a VERIFY code (+ Google when bound). */
import { API_PATHS } from '@exchange/api';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../shared/api-client';
import { type SecondFactor } from './contract';

/** Resets the transaction password. Throws ApiError (toasted). */
export function forgetTransPassword(input: { transPassword: string; confirmTransPassword: string } & SecondFactor): Promise<unknown> {
  return apiPost(API_PATHS.forgetTransPassword, { ...input });
}

/** Mutation hook. */
export function useForgetTransPassword() {
  return useMutation({ mutationFn: forgetTransPassword });
}
