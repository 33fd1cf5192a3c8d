/**
 * Form rules of spec section 5 for sign-up, sign-in and password reset. Each returns an i18n key of
 * the 'account' namespace describing the first problem, or null when the value is fine. A phone
 * number must be a valid mobile number of the chosen country code (libphonenumber's metadata, as the
 * server checks it: codes go by SMS), so "12345" with +86 is refused before a code is asked for.
 */
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/mobile';

/** Standard email pattern (spec section 5). */
export const EMAIL_RE = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
/** Phone digits as typed (national number, 5-15 digits). */
export const PHONE_RE = /^\d{5,15}$/;

/** Every country calling code the phone metadata knows ('1', '44', '86', ...). */
const CALLING_CODES: ReadonlySet<string> = new Set(getCountries().map((c) => getCountryCallingCode(c)));

/** True when `digits` (without the country code) are a valid mobile number for calling code `areaCode`. */
export function isValidMobile(digits: string, areaCode: string): boolean {
  if (!PHONE_RE.test(digits) || !CALLING_CODES.has(areaCode)) return false;
  const parsed = parsePhoneNumberFromString(digits, { defaultCallingCode: areaCode });
  return !!parsed && parsed.countryCallingCode === areaCode && parsed.isValid();
}

/** Email or phone, per the chosen tab; a phone is checked against its country code (default 86). */
export function checkAccount(kind: 'EMAIL' | 'PHONE', v: string, areaCode = '86'): string | null {
  const s = v.trim();
  if (!s) return kind === 'EMAIL' ? 'v.emailRequired' : 'v.phoneRequired';
  if (kind === 'EMAIL' && !EMAIL_RE.test(s)) return 'v.emailInvalid';
  if (kind === 'PHONE' && !isValidMobile(s, areaCode)) return 'v.phoneInvalid';
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
