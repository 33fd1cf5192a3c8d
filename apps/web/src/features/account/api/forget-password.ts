/** POST member/member/forgetPassword: resets the login password with a FORGET code. */
import { API_PATHS } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';

/** Resets the password. Throws ApiError (toasted) on FAILED. */
export function forgetPassword(v: { account: string; areaCode?: string; code: string; password: string; confirmPassword: string }): Promise<unknown> {
  return apiPost(API_PATHS.forgetPassword, v);
}
