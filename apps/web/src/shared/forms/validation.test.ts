// Proves the sign-up/sign-in rules of spec section 5: email pattern, phone numbers valid for their
// country code ("12345" with +86 is refused), exactly 6-digit codes, passwords of 8-20
// characters that are not only digits, and matching confirmation.
import { describe, expect, it } from 'vitest';
import { checkAccount, checkCode, checkConfirm, checkPassword, isValidMobile } from './validation';

describe('account validation', () => {
  it('checks emails and phones', () => {
    expect(checkAccount('EMAIL', 'alice@example.com')).toBeNull();
    expect(checkAccount('EMAIL', 'alice@example')).toBe('v.emailInvalid');
    expect(checkAccount('EMAIL', '')).toBe('v.emailRequired');
    expect(checkAccount('PHONE', '13812345678')).toBeNull();
    expect(checkAccount('PHONE', '138-1234')).toBe('v.phoneInvalid');
    expect(checkAccount('PHONE', ' ')).toBe('v.phoneRequired');
  });
  it('wants a mobile number valid for the chosen country code', () => {
    expect(checkAccount('PHONE', '12345')).toBe('v.phoneInvalid');
    expect(checkAccount('PHONE', '12345', '86')).toBe('v.phoneInvalid');
    expect(checkAccount('PHONE', '13800138000', '86')).toBeNull();
    expect(checkAccount('PHONE', '13800138000', '44')).toBe('v.phoneInvalid');
    expect(checkAccount('PHONE', '7911123456', '44')).toBeNull();
    expect(checkAccount('PHONE', '07911123456', '44')).toBeNull();
    expect(isValidMobile('2025550123', '1')).toBe(true);
    expect(isValidMobile('5555555555', '1')).toBe(false);
    expect(isValidMobile('51234567', '852')).toBe(true);
    expect(isValidMobile('1380013800', '86')).toBe(false);
    expect(isValidMobile('01012345678', '86')).toBe(false); // a landline: codes go by SMS
    expect(isValidMobile('13800138000', '999')).toBe(false); // no such country code
  });
  it('wants exactly 6 digits for a code', () => {
    expect(checkCode('123456')).toBeNull();
    expect(checkCode('12345')).toBe('v.codeInvalid');
    expect(checkCode('1234567')).toBe('v.codeInvalid');
    expect(checkCode('12a456')).toBe('v.codeInvalid');
    expect(checkCode('')).toBe('v.codeRequired');
  });
  it('wants passwords of 8-20 characters, not only digits', () => {
    expect(checkPassword('abc12345')).toBeNull();
    expect(checkPassword('12345678')).toBe('v.passwordRule');
    expect(checkPassword('abc1234')).toBe('v.passwordRule');
    expect(checkPassword('a'.repeat(21))).toBe('v.passwordRule');
    expect(checkPassword('a'.repeat(20))).toBeNull();
    expect(checkPassword('')).toBe('v.passwordRequired');
  });
  it('wants the confirmation to match', () => {
    expect(checkConfirm('abc12345', 'abc12345')).toBeNull();
    expect(checkConfirm('abc12345', 'abc12346')).toBe('v.confirmMismatch');
    expect(checkConfirm('abc12345', '')).toBe('v.confirmRequired');
  });
});
