/**
 * POST data/sms/sendCode type VERIFY to the caller's own e-mail or phone (the withdrawal's second proof), without a
 * slide puzzle (the address is the user's own, proven). `channel` follows WithdrawInfo.codeChannel ('mail' or 'phone'). The security feature has the same
 * call; features do not import each other.
 */
import { API_PATHS } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';

/** Sends the code. Throws ApiError (toasted). */
export function sendWithdrawCode(codeChannel: string): Promise<unknown> {
  return apiPost(API_PATHS.sendCode, { type: 'VERIFY', channel: codeChannel === 'phone' ? 'PHONE' : 'EMAIL' });
}
