/**
 * Paths and answer shapes of the account-security endpoints (issue 10; server module member/security). They mirror
 * the contract agreed for the server (brief H1) until `@exchange/api` carries them in security.ts; then these
 * re-export from there.
 */

/** Paths relative to /api/. */
export const SECURITY_PATHS = {
  getSecurity: 'member/security/getSecurity',
  bindAccount: 'member/security/bindAccount',
  changePassword: 'member/security/changePassword',
  setTransPassword: 'member/security/setTransPassword',
  changeTransPassword: 'member/security/changeTransPassword',
  forgetTransPassword: 'member/security/forgetTransPassword',
  googleSecret: 'member/security/googleSecret',
  bindGoogle: 'member/security/bindGoogle',
  closeGoogle: 'member/security/closeGoogle',
  getSessions: 'member/security/getSessions',
  revokeSession: 'member/security/revokeSession',
  getSecurityLog: 'member/security/getSecurityLog',
} as const;

export type { SecurityInfo, WithdrawLockReason } from '../../../shared/session';

/** GET member/security/googleSecret: the pending TOTP secret (base32) and its otpauth:// URL. */
export interface GoogleSecret {
  secret: string;
  otpauthUrl: string;
}

/** One signed-in device of GET member/security/getSessions. */
export interface SessionEntry {
  id: string;
  device: string;
  ip: string;
  createdAt: number;
  lastSeenAt: number;
  current: boolean;
}

/**
 * One entry of GET member/security/getSecurityLog: `type` LOGIN, LOGIN_FAILED, PASSWORD_CHANGED ...; `detail` e.g.
 * PASSWORD or GOOGLE for a failed login, EMAIL or PHONE for a binding.
 */
export interface SecurityLogEntry {
  id: string;
  type: string;
  detail: string;
  ip: string;
  device: string;
  createdAt: number;
}

/** A page of the security log. */
export interface SecurityLogPage {
  list: SecurityLogEntry[];
  total: number;
  pageNo: number;
  pageSize: number;
}

/** The second proof of a sensitive change: the TOTP when Google is bound, else a VERIFY code to the own account. */
export interface SecondFactor {
  googleCode?: string;
  verifyCode?: string;
}
