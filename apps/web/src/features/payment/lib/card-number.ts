/**
 * Bank card number check of the payment-method form: 12-19 digits (the server's rule, payment-rules.ts) passing
 * the Luhn check (ISO/IEC 7812-1), so a typo is caught before the transaction password is asked for. Spaces typed
 * or pasted in groups are ignored.
 */

/** The card number without spaces. */
export function normaliseCardNo(raw: string): string {
  return raw.replace(/\s+/g, '');
}

/** True when the digits pass the Luhn check. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** 'v.cardRequired' | 'v.cardInvalid' (not 12-19 digits or Luhn fails), or null. */
export function checkCardNo(raw: string): string | null {
  const v = normaliseCardNo(raw);
  if (!v) return 'v.cardRequired';
  if (!/^\d{12,19}$/.test(v) || !luhnValid(v)) return 'v.cardInvalid';
  return null;
}

/** Groups the digits by four for display while typing ("6222 0212 3456 7890"). */
export function groupCardNo(raw: string): string {
  return normaliseCardNo(raw)
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}
