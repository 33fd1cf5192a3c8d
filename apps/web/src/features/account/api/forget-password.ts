/** POST member/member/forgetPassword: resets the login password with a FORGET code. */
import { API_PATHS } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';

/**
 * Resets the password (with `googleCode` when the account has Google authenticator bound). Throws ApiError on FAILED:
 * 'google_code_required' when the account has it bound and no code was sent (the e-mail code stays live), toasted
 * unless `silent`.
 */
export function forgetPassword(
  v: { account: string; areaCode?: string; code: string; password: string; confirmPassword: string; googleCode?: string },
  silent = false,
): Promise<unknown> {
  return apiPost(API_PATHS.forgetPassword, v, { silent });
}
