/**
 * The rules of a basic identity verification's fields (spec section 5 "Name required, no special
 * characters. ID number required and valid", section 9 "Minors under 16 need guardian consent"). Pure functions of
 * their input (and of `now` for the age), each throwing the AppError the user sees.
 */
import { getCountries } from 'libphonenumber-js';
import type { IdType } from '@exchange/api';
import { AppError } from '../../platform/shared/errors';

/** ISO 3166-1 alpha-2 codes (the regions libphonenumber-js knows: every country and territory with a dialling plan). */
const COUNTRIES: ReadonlySet<string> = new Set(getCountries());

/** Age under which a user needs a guardian's consent (spec section 9). */
export const GUARDIAN_CONSENT_UNDER_AGE = 16;

/** Weights of the 17 digits of a mainland ID number (GB 11643-1999, ISO 7064 MOD 11-2). */
const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const;
/** The check character for each remainder of the weighted sum mod 11. */
const ID_CHECK = '10X98765432';

/** The country code, upper-cased ('' or absent = CN, the spec's default region); throws country_invalid. */
export function parseCountry(country: string | undefined): string {
  const c = (country ?? '').trim().toUpperCase();
  if (c === '') return 'CN';
  if (!/^[A-Z]{2}$/.test(c) || !COUNTRIES.has(c)) throw new AppError('country_invalid', 400, 'country');
  return c;
}

/**
 * A real name, trimmed: letters (any script, with their combining marks) in words separated by one space or a
 * middle dot (U+00B7, as in Chinese renderings of foreign names: 阿依古丽·买买提), 2 to 64 characters; no digits,
 * punctuation or symbols. Throws real_name_invalid.
 */
export function parseRealName(name: string): string {
  const n = name.trim();
  if (n.length < 2 || n.length > 64 || !/^[\p{L}\p{M}]+(?:[ \u00B7][\p{L}\p{M}]+)*$/u.test(n)) throw new AppError('real_name_invalid', 400, 'realName');
  return n;
}

/** A checked document number, upper-cased, and the birth date it carries (mainland ID cards only). */
export interface IdNumber {
  number: string;
  /** 'YYYY-MM-DD' for a mainland ID card, else undefined. */
  birthDate?: string;
}

/**
 * Checks a document number. CN + ID_CARD: 18 characters, 17 digits and a check character (digit or X) by ISO 7064
 * MOD 11-2, digits 7-14 a real birth date from 1900 up to `now`. Any other document (passport, driving licence, a
 * foreign ID card): 5-20 ASCII letters and digits. Throws id_number_invalid.
 */
export function parseIdNumber(country: string, idType: IdType, raw: string, now: number): IdNumber {
  const n = raw.trim().toUpperCase();
  if (country !== 'CN' || idType !== 'ID_CARD') {
    if (!/^[A-Z0-9]{5,20}$/.test(n)) throw new AppError('id_number_invalid', 400, 'idNumber');
    return { number: n };
  }
  if (!/^[0-9]{17}[0-9X]$/.test(n)) throw new AppError('id_number_invalid', 400, 'idNumber');
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(n[i]) * ID_WEIGHTS[i]!;
  if (ID_CHECK[sum % 11] !== n[17]) throw new AppError('id_number_invalid', 400, 'idNumber');
  const y = Number(n.slice(6, 10));
  const m = Number(n.slice(10, 12));
  const d = Number(n.slice(12, 14));
  const birth = Date.UTC(y, m - 1, d);
  const date = new Date(birth);
  const real = y >= 1900 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  if (!real || birth > now) throw new AppError('id_number_invalid', 400, 'idNumber');
  return { number: n, birthDate: `${n.slice(6, 10)}-${n.slice(10, 12)}-${n.slice(12, 14)}` };
}

/** Whole years from `birthDate` ('YYYY-MM-DD') to `now` (UTC calendar: a birthday counts from its day). */
export function ageOn(birthDate: string, now: number): number {
  const [y, m, d] = birthDate.split('-').map(Number) as [number, number, number];
  const t = new Date(now);
  let age = t.getUTCFullYear() - y;
  if (t.getUTCMonth() + 1 < m || (t.getUTCMonth() + 1 === m && t.getUTCDate() < d)) age--;
  return age;
}

/** A document number masked for display: first 3 and last 4 characters (shorter numbers: first and last one). */
export function maskIdNumber(n: string): string {
  if (n.length > 7) return `${n.slice(0, 3)}${'*'.repeat(n.length - 7)}${n.slice(-4)}`;
  if (n.length > 2) return `${n[0]}${'*'.repeat(n.length - 2)}${n.slice(-1)}`;
  return '*'.repeat(n.length);
}

/** The engine's unique key of a verified document number (updateUser addKeys): one number verifies one user. */
export function idNumberKey(country: string, number: string): string {
  return `idno:${country}:${number}`;
}
