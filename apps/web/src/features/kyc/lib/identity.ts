/**
 * Client-side checks of basic verification (spec sections 5 and 9), the same rules the server applies
 * (kyc-rules.ts) so the user learns of a typo before submitting:
 * - real name: letters (any script), spaces and the middle dot of Chinese transliterated names; no digits or
 *   special characters (spec section 5 "no special characters");
 * - mainland ID card (country CN, 18 characters): ISO 7064 MOD 11-2 check character and a real birth date not in
 *   the future;
 * - passport / driving licence: 5-20 letters or digits;
 * - under 16 (spec section 9) needs guardian consent: the age is read from the ID number's birth date.
 * Each check returns an i18n key of the 'kyc' namespace, or null when the value is fine.
 */
import type { IdType } from '../../../shared/session';

/** Age below which guardian consent is needed (spec section 9). */
export const GUARDIAN_AGE = 16;

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** The check character (0-9 or X) of the first 17 digits of a mainland ID number (ISO 7064 MOD 11-2). */
export function idCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i]!;
  return ID_CHECK[sum % 11]!;
}

/** Birth date of an 18-character mainland ID number as [year, month, day], or null when it is not a real date. */
export function idBirthDate(id: string): [number, number, number] | null {
  const m = /^\d{6}(\d{4})(\d{2})(\d{2})/.exec(id);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (y < 1900 || date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return [y, mo, d];
}

/** Whole years between a birth date and `now` (UTC calendar). */
export function ageOn(birth: [number, number, number], now: Date): number {
  const [y, m, d] = birth;
  let age = now.getUTCFullYear() - y;
  const beforeBirthday = now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return age;
}

/** Mainland ID number check: 'v.idInvalid' (format or checksum), 'v.idBirth' (no such date or in the future). */
export function checkMainlandId(raw: string, now: Date): string | null {
  const id = raw.trim().toUpperCase();
  if (!/^\d{17}[\dX]$/.test(id)) return 'v.idInvalid';
  if (idCheckChar(id.slice(0, 17)) !== id[17]) return 'v.idInvalid';
  const birth = idBirthDate(id);
  if (!birth) return 'v.idBirth';
  if (Date.UTC(birth[0], birth[1] - 1, birth[2]) > now.getTime()) return 'v.idBirth';
  return null;
}

/** Document number check for the chosen country and type. */
export function checkIdNumber(country: string, idType: IdType, raw: string, now: Date): string | null {
  const v = raw.trim();
  if (!v) return 'v.idRequired';
  if (country === 'CN' && idType === 'ID_CARD') return checkMainlandId(v, now);
  return /^[A-Za-z0-9]{5,20}$/.test(v) ? null : 'v.docInvalid';
}

/** Real name: letters of any script, spaces and the middle dot (· or •); 2-50 characters. */
export function checkRealName(raw: string): string | null {
  const v = raw.trim();
  if (!v) return 'v.nameRequired';
  if (!/^[\p{L}\p{M}]+(?:[ ·•][\p{L}\p{M}]+)*$/u.test(v) || v.length > 50) return 'v.nameInvalid';
  return null;
}

/** True when the document is a mainland ID card whose holder is under GUARDIAN_AGE on `now`. */
export function needsGuardian(country: string, idType: IdType, raw: string, now: Date): boolean {
  if (country !== 'CN' || idType !== 'ID_CARD' || checkMainlandId(raw, now)) return false;
  return ageOn(idBirthDate(raw.trim())!, now) < GUARDIAN_AGE;
}
