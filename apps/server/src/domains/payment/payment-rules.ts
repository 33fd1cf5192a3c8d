/**
 * Field rules of payment methods: a bank card number of 12-19 digits passing the Luhn
 * check (ISO/IEC 7812, the check digit of every UnionPay, Visa and Mastercard number), bank and branch names in
 * plain words, a WeChat or Alipay account id. Pure; each throws the AppError the user sees.
 */
import { AppError } from '../../platform/shared/errors';

/** True when `digits` passes the Luhn check (the last digit is the check digit). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** A bank card number: spaces and dashes the user typed removed, 12-19 ASCII digits, Luhn-valid; else bank_card_invalid. */
export function parseCardNo(raw: string | undefined): string {
  const n = (raw ?? '').replace(/[\s-]/g, '');
  if (!/^[0-9]{12,19}$/.test(n) || !luhnValid(n)) throw new AppError('bank_card_invalid', 400, 'cardNo');
  return n;
}

/**
 * A bank or branch name, trimmed: 2-64 characters of letters, digits, spaces and the punctuation bank names use
 * (parentheses, full-width too, dot, middle dot, comma, apostrophe, ampersand, dash). Empty: bank_name_required;
 * other characters: invalid_characters.
 */
export function parseBankText(raw: string | undefined, field: 'bankName' | 'branch'): string {
  const s = (raw ?? '').trim();
  if (s.length < 2) throw new AppError('bank_name_required', 400, field);
  if (s.length > 64 || !/^[\p{L}\p{M}\p{N} ()（）.·,'&-]+$/u.test(s)) throw new AppError('invalid_characters', 400, field);
  return s;
}

/** A WeChat or Alipay account (an id, a phone number or an e-mail address): 3-64 of A-Z a-z 0-9 _ . @ + -; else pay_account_invalid. */
export function parsePayAccount(raw: string | undefined): string {
  const s = (raw ?? '').trim();
  if (!/^[A-Za-z0-9_.@+-]{3,64}$/.test(s)) throw new AppError('pay_account_invalid', 400, 'account');
  return s;
}

/** A bank card number masked except its last 4 digits. */
export function maskCardNo(n: string): string {
  return n.length <= 4 ? n : `${'*'.repeat(n.length - 4)}${n.slice(-4)}`;
}
