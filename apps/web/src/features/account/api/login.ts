/**
 * POST member/member/login: account (email or phone) + password (+ slide-puzzle pass when asked; + the Google
 * authenticator code once the user has bound one: the server answers google_code_required without it).
 */
import { API_PATHS, type GeetestResult, type Session } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';

/**
 * Logs in; resolves with the session. Throws ApiError ('captcha_required' when a puzzle is needed,
 * 'google_code_required' / 'google_code_invalid' for the second step).
 */
export function login(
  args: { account: string; areaCode?: string; password: string; googleCode?: string; pass?: GeetestResult },
  silent = false,
): Promise<Session> {
  return apiPost<Session>(
    API_PATHS.login,
    {
      account: args.account,
      areaCode: args.areaCode,
      password: args.password,
      googleCode: args.googleCode,
      geetest_challenge: args.pass?.geetest_challenge,
      geetest_validate: args.pass?.geetest_validate,
      geetest_seccode: args.pass?.geetest_seccode,
    },
    { silent },
  );
}
