/**
 * Form rules of the account centre (spec sections 5 and 9): codes exactly 6 digits; transaction passwords exactly 6
 * digits, confirmed; the login password rule of registration. Each returns an i18n key of the 'security' namespace
 * or null. The withdrawal lock's remaining time is read from its end (ms epoch) and `now`.
 */
import { isPin } from '../../../shared/ui/PinInput';

/** A 6-digit code (verification or Google). */
export function checkSixDigits(v: string, requiredKey: string): string | null {
  if (!v) return requiredKey;
  return /^\d{6}$/.test(v) ? null : 'v.codeInvalid';
}

/** New transaction password and its confirmation. */
export function checkPinPair(pin: string, confirm: string): { pin: string | null; confirm: string | null } {
  const p = !pin ? 'v.pinRequired' : isPin(pin) ? null : 'v.pinRule';
  const c = p ? null : confirm === pin ? null : 'v.pinMismatch';
  return { pin: p, confirm: c };
}

/** Login password: 8-20 characters, not only digits (spec sections 5 and 9). */
export function checkLoginPassword(v: string): string | null {
  if (!v) return 'v.passwordRequired';
  if (v.length < 8 || v.length > 20 || /^\d+$/.test(v)) return 'v.passwordRule';
  return null;
}

/** Whether a withdrawal lock ending at `until` is still on at `now`. */
export function lockActive(lock: { until: number } | null | undefined, now: number): boolean {
  return !!lock && lock.until > now;
}
