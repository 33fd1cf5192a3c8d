/**
 * Wire types of the account-security endpoints (server module member/security), from `@exchange/api`
 * (security.ts) under the names the account centre uses. Paths are `API_PATHS` (packages/api paths.ts).
 */
import type { SessionItem, SecurityLogItem, SecurityLogPage as ApiSecurityLogPage, GoogleSecret as ApiGoogleSecret } from '@exchange/api';

export type { SecurityInfo, WithdrawLockReason } from '../../../shared/session';

/** GET member/security/googleSecret: the pending TOTP secret (base32) and its otpauth:// URL. */
export type GoogleSecret = ApiGoogleSecret;
/** One signed-in device of GET member/security/getSessions. */
export type SessionEntry = SessionItem;
/** One entry of GET member/security/getSecurityLog (`type` LOGIN, LOGIN_FAILED ...; `detail` e.g. PASSWORD, EMAIL). */
export type SecurityLogEntry = SecurityLogItem;
/** A page of the security log. */
export type SecurityLogPage = ApiSecurityLogPage;

/** The second proof of a sensitive change: the TOTP when Google is bound, else a VERIFY code to the own account. */
export interface SecondFactor {
  googleCode?: string;
  verifyCode?: string;
}
