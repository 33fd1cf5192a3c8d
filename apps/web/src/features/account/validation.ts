/**
 * Form rules of spec section 5 for sign-up, sign-in and password reset. Each returns an i18n key of
 * the 'account' namespace describing the first problem, or null when the value is fine.
 */

/** Standard email pattern (spec section 5). */
export const EMAIL_RE = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
/** Phone digits (national number, 5-15 digits). */
export const PHONE_RE = /^\d{5,15}$/;

/** Email or phone, per the chosen tab. */
export function checkAccount(kind: 'EMAIL' | 'PHONE', v: string): string | null {
  const s = v.trim();
  if (!s) return kind === 'EMAIL' ? 'v.emailRequired' : 'v.phoneRequired';
  if (kind === 'EMAIL' && !EMAIL_RE.test(s)) return 'v.emailInvalid';
  if (kind === 'PHONE' && !PHONE_RE.test(s)) return 'v.phoneInvalid';
  return null;
}

/** Verification code: exactly 6 digits. */
export function checkCode(v: string): string | null {
  if (!v) return 'v.codeRequired';
  return /^\d{6}$/.test(v) ? null : 'v.codeInvalid';
}

/** Password: 8-20 characters, not only digits. */
export function checkPassword(v: string): string | null {
  if (!v) return 'v.passwordRequired';
  if (v.length < 8 || v.length > 20 || /^\d+$/.test(v)) return 'v.passwordRule';
  return null;
}

/** Confirmation must match the password. */
export function checkConfirm(password: string, confirm: string): string | null {
  if (!confirm) return 'v.confirmRequired';
  return password === confirm ? null : 'v.confirmMismatch';
}
