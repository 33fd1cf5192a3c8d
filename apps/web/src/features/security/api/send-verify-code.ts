/**
 * POST data/sms/sendCode with two more types: `VERIFY` (to the signed-in user's own phone or e-mail, `channel`
 * picks which when both are bound; no slide puzzle: the address is the user's own, proven) and `BIND` (to a new
 * address, refused when another user has it; after the slide puzzle, like the other types).
 */
import { API_PATHS, type GeetestResult } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';

/** Sends a VERIFY code to the own account. Throws ApiError (toasted). */
export function sendVerifyCode(args: { channel?: 'EMAIL' | 'PHONE' }): Promise<unknown> {
  return apiPost(API_PATHS.sendCode, { type: 'VERIFY', channel: args.channel });
}

/** Sends a BIND code to a new e-mail or phone (`areaCode` for phones). Throws ApiError (toasted). */
export function sendBindCode(args: { account: string; areaCode?: string; pass: GeetestResult | undefined }): Promise<unknown> {
  return apiPost(API_PATHS.sendCode, { type: 'BIND', account: args.account, areaCode: args.areaCode, ...args.pass });
}
