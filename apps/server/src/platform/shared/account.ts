/**
 * Accounts as users type them: an e-mail address or phone digits (with a country calling code, default '86',
 * spec section 3). Parsing normalises them and yields the key used by codes, lockouts and lookups. A phone
 * number must be a valid mobile number of its country code (libphonenumber's metadata; codes go by SMS) and
 * is kept as its national significant number: the digits without the country code, as before, minus a trunk
 * prefix ("07911 123456" with +44 is 7911123456).
 */
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import { AppError } from './errors';

/** A standard e-mail pattern (WHATWG's `type=email` rule, with at least one dot in the domain). */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
/** Phone numbers as typed: 5 to 15 digits (E.164 allows at most 15), without the country code. */
export const PHONE_PATTERN = /^[0-9]{5,15}$/;
/** Country calling code used when none is given (spec section 9). */
export const DEFAULT_AREA_CODE = '86';

/** A parsed account: a lower-cased e-mail, or phone digits with their country code. */
export type Account = { kind: 'email'; mail: string } | { kind: 'phone'; phone: string; areaCode: string };

/** Parses an e-mail; throws AppError 'email_invalid' (400) when it does not match EMAIL_PATTERN. */
export function parseEmail(raw: string | undefined, field = 'mail'): Account {
  const mail = (raw ?? '').trim().toLowerCase();
  if (mail.length > 100 || !EMAIL_PATTERN.test(mail)) throw new AppError('email_invalid', 400, field);
  return { kind: 'email', mail };
}

/** Every country calling code the phone metadata knows ('1', '44', '86', ...). */
const CALLING_CODES: ReadonlySet<string> = new Set(getCountries().map((c) => getCountryCallingCode(c)));

/**
 * The national significant number of `digits` (no country code) when it is a valid mobile number for the
 * calling code `areaCode`, else null: ("13800138000", "86") -> "13800138000"; ("12345", "86") -> null.
 */
export function nationalMobileNumber(digits: string, areaCode: string): string | null {
  if (!PHONE_PATTERN.test(digits) || !CALLING_CODES.has(areaCode)) return null;
  const parsed = parsePhoneNumberFromString(digits, { defaultCallingCode: areaCode });
  if (!parsed || parsed.countryCallingCode !== areaCode || !parsed.isValid()) return null;
  return parsed.nationalNumber;
}

/**
 * Parses phone digits (spaces and dashes dropped) for country code `areaCode` (default 86); throws AppError
 * 'phone_invalid' (400) unless they are a valid mobile number there. The account keeps the national number.
 */
export function parsePhone(raw: string | undefined, areaCode: string | undefined, field = 'phone'): Account {
  const code = areaCode && areaCode !== '' ? areaCode : DEFAULT_AREA_CODE;
  const phone = nationalMobileNumber((raw ?? '').replace(/[\s-]/g, ''), code);
  if (phone === null) throw new AppError('phone_invalid', 400, field);
  return { kind: 'phone', phone, areaCode: code };
}

/** Parses "email or phone" as typed in one field: an '@' makes it an e-mail. */
export function parseAccount(raw: string, areaCode?: string, field = 'account'): Account {
  return raw.includes('@') ? parseEmail(raw, field) : parsePhone(raw, areaCode, field);
}

/** The normalised key of an account: 'a@b.c' or '+86 13800000000'. */
export function accountKey(a: Account): string {
  return a.kind === 'email' ? a.mail : `+${a.areaCode} ${a.phone}`;
}

/** What the user typed, normalised: the e-mail or the phone digits (the demo outbox is keyed by this). */
export function accountAddress(a: Account): string {
  return a.kind === 'email' ? a.mail : a.phone;
}

/** Parses a wire user id (a positive bigint in decimal); null when malformed. */
export function parseUserId(s: string): bigint | null {
  if (!/^[1-9][0-9]{0,18}$/.test(s)) return null;
  const v = BigInt(s);
  return v <= 9_223_372_036_854_775_807n ? v : null;
}

/** The engine key of an account: "mail:<address>" or "phone:<area code>:<digits>" (users.ts keys). */
export function userKeyOf(a: Account): string {
  return a.kind === 'email' ? `mail:${a.mail}` : `phone:${a.areaCode}:${a.phone}`;
}

/**
 * Masks a phone or e-mail as the web app does (web shared/format maskAccount): a phone keeps its first 3 and last 4
 * characters ("138****8123"); an e-mail the first 3 characters of its name and its whole domain, as Binance shows it
 * ("wallet@example.com" -> "wal***@example.com"), so the user can tell which mailbox a code goes to.
 */
export function maskAccount(s: string): string {
  const at = s.lastIndexOf('@');
  if (at > 0) return `${s.slice(0, Math.min(3, at))}***${s.slice(at)}`;
  return s.length <= 7 ? s : `${s.slice(0, 3)}****${s.slice(-4)}`;
}
