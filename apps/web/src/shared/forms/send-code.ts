/** POST data/sms/sendCode: sends a 6-digit code to an email or phone after the slide puzzle (its pass; without one the server answers captcha_required). */
import { API_PATHS, type GeetestResult } from '@exchange/api';
import { apiPost } from '../api-client';

/** Purpose of a code (packages/api CodeType). */
export type CodeType = 'REGISTER' | 'LOGIN' | 'FORGET' | 'BIND';

/** Sends the code; `areaCode` only for phones. Throws ApiError (toasted) on FAILED. */
export function sendCode(args: { account: string; areaCode?: string; type: CodeType; pass: GeetestResult | undefined }): Promise<unknown> {
  return apiPost(API_PATHS.sendCode, {
    account: args.account,
    areaCode: args.areaCode,
    type: args.type,
    geetest_challenge: args.pass?.geetest_challenge,
    geetest_validate: args.pass?.geetest_validate,
    geetest_seccode: args.pass?.geetest_seccode,
  });
}
