/**
 * Wire schemas of account security (spec sections 2,
 * 5 and 9): the account centre's state, binding a second address, login and transaction passwords, Google
 * authenticator, sessions and the security log. The schemas bound sizes and forms; the rules (password strength,
 * codes, locks) are the server's, each with its own error code (errors.ts, "account security" section).
 */
import { Type, type Static } from '@sinclair/typebox';

/** A verification code (6 digits) or a TOTP code (6 digits). */
const SixDigits = Type.String({ pattern: '^[0-9]{6}$', maxLength: 6 });
/** A login password as typed (rule 8-20, not only digits, checked by the server: password_invalid). */
const PasswordText = Type.String({ minLength: 1, maxLength: 64 });
/** A transaction password as typed (exactly 6 digits, checked by the server: trans_password_invalid). */
const TransPasswordText = Type.String({ minLength: 1, maxLength: 32 });

/** Why withdrawals are locked for 24 hours (spec section 9). */
export const WithdrawLockReason = Type.Union([Type.Literal('PASSWORD_CHANGED'), Type.Literal('PASSWORD_RESET'), Type.Literal('GOOGLE_CLOSED')]);
export type WithdrawLockReason = Static<typeof WithdrawLockReason>;
/** A withdrawal lock: until when (Unix ms) and why. */
export const WithdrawLock = Type.Object({ until: Type.Number(), reason: WithdrawLockReason });
export type WithdrawLock = Static<typeof WithdrawLock>;

/** GET member/security/getSecurity: the account centre's state (phone and e-mail masked as the side menu shows them). */
export const SecurityState = Type.Object({
  phone: Type.String(),
  areaCode: Type.String(),
  mail: Type.String(),
  googleBound: Type.Boolean(),
  transPasswordSet: Type.Boolean(),
  withdrawLock: Type.Union([WithdrawLock, Type.Null()]),
  lastLogin: Type.Union([Type.Object({ at: Type.Number(), ip: Type.String() }), Type.Null()]),
});
export type SecurityState = Static<typeof SecurityState>;

/**
 * POST member/security/bindAccount: bind the missing phone or e-mail. `code` is the BIND code sent to the new
 * address; the second proof is `googleCode` when Google authenticator is bound, else `verifyCode` (a VERIFY code
 * sent to the existing account).
 */
export const BindAccountBody = Type.Object({
  bindType: Type.Union([Type.Literal('PHONE'), Type.Literal('EMAIL')]),
  phone: Type.Optional(Type.String({ maxLength: 20 })),
  areaCode: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
  mail: Type.Optional(Type.String({ maxLength: 100 })),
  code: SixDigits,
  verifyCode: Type.Optional(SixDigits),
  googleCode: Type.Optional(SixDigits),
});
export type BindAccountBody = Static<typeof BindAccountBody>;

/** POST member/security/changePassword (second proof as in BindAccountBody). */
export const ChangePasswordBody = Type.Object({
  oldPassword: PasswordText,
  password: PasswordText,
  confirmPassword: PasswordText,
  verifyCode: Type.Optional(SixDigits),
  googleCode: Type.Optional(SixDigits),
});
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

/** POST member/security/setTransPassword: the first transaction password (exactly 6 digits), with a second proof. */
export const SetTransPasswordBody = Type.Object({
  transPassword: TransPasswordText,
  confirmTransPassword: TransPasswordText,
  verifyCode: Type.Optional(SixDigits),
  googleCode: Type.Optional(SixDigits),
});
export type SetTransPasswordBody = Static<typeof SetTransPasswordBody>;

/** POST member/security/changeTransPassword. */
export const ChangeTransPasswordBody = Type.Object({
  oldTransPassword: TransPasswordText,
  transPassword: TransPasswordText,
  confirmTransPassword: TransPasswordText,
});
export type ChangeTransPasswordBody = Static<typeof ChangeTransPasswordBody>;

/** POST member/security/forgetTransPassword: a VERIFY code, and the TOTP code too when Google authenticator is bound. */
export const ForgetTransPasswordBody = Type.Object({
  verifyCode: SixDigits,
  googleCode: Type.Optional(SixDigits),
  transPassword: TransPasswordText,
  confirmTransPassword: TransPasswordText,
});
export type ForgetTransPasswordBody = Static<typeof ForgetTransPasswordBody>;

/** GET member/security/googleSecret: the pending secret (base32) and its otpauth:// URL for the QR code. */
export const GoogleSecret = Type.Object({ secret: Type.String(), otpauthUrl: Type.String() });
export type GoogleSecret = Static<typeof GoogleSecret>;

/** POST member/security/bindGoogle and closeGoogle: the TOTP code and a VERIFY code. */
export const GoogleCodeBody = Type.Object({ googleCode: SixDigits, verifyCode: SixDigits });
export type GoogleCodeBody = Static<typeof GoogleCodeBody>;

/** One signed-in device. `id` is opaque (never the token or its hash); `device` is "browser on OS" from the User-Agent. */
export const SessionItem = Type.Object({
  id: Type.String(),
  device: Type.String(),
  ip: Type.String(),
  createdAt: Type.Number(),
  lastSeenAt: Type.Number(),
  current: Type.Boolean(),
});
export type SessionItem = Static<typeof SessionItem>;

/** POST member/security/revokeSession. */
export const RevokeSessionBody = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,18}$', maxLength: 19 }) });

/** Kinds of security-log entries. */
export const SecurityEventType = Type.Union([
  Type.Literal('LOGIN'),
  Type.Literal('LOGIN_FAILED'),
  Type.Literal('PASSWORD_CHANGED'),
  Type.Literal('PASSWORD_RESET'),
  Type.Literal('TRANS_PASSWORD_SET'),
  Type.Literal('TRANS_PASSWORD_CHANGED'),
  Type.Literal('TRANS_PASSWORD_RESET'),
  Type.Literal('GOOGLE_BOUND'),
  Type.Literal('GOOGLE_CLOSED'),
  Type.Literal('ACCOUNT_BOUND'),
  Type.Literal('SESSION_REVOKED'),
  Type.Literal('API_KEY_CREATED'),
  Type.Literal('API_KEY_DELETED'),
]);
export type SecurityEventType = Static<typeof SecurityEventType>;

/** GET member/security/getSecurityLog. */
export const SecurityLogQuery = Type.Object({
  pageNo: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
/** One security-log entry; `detail` e.g. 'PASSWORD' or 'GOOGLE' for a failed login, 'EMAIL' or 'PHONE' for a binding. */
export const SecurityLogItem = Type.Object({
  id: Type.String(),
  type: SecurityEventType,
  detail: Type.String(),
  ip: Type.String(),
  device: Type.String(),
  createdAt: Type.Number(),
});
export type SecurityLogItem = Static<typeof SecurityLogItem>;
export const SecurityLogPage = Type.Object({ list: Type.Array(SecurityLogItem), total: Type.Integer(), pageNo: Type.Integer(), pageSize: Type.Integer() });
export type SecurityLogPage = Static<typeof SecurityLogPage>;
