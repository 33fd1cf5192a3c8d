/**
 * POST data/sms/sendCode type VERIFY to the caller's own e-mail or phone (the withdrawal's second proof), after the
 * slide puzzle. `channel` follows WithdrawInfo.codeChannel ('mail' or 'phone'). The security feature has the same
 * call; features do not import each other.
 */
import { API_PATHS, type GeetestResult } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';

/** Sends the code. Throws ApiError (toasted). */
export function sendWithdrawCode(codeChannel: string, pass: GeetestResult): Promise<unknown> {
  return apiPost(API_PATHS.sendCode, { type: 'VERIFY', channel: codeChannel === 'phone' ? 'PHONE' : 'EMAIL', ...pass });
}
