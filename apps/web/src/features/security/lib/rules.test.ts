// Account-centre form rules: 6-digit codes, transaction password pair (rule, then match), the login password rule
// of spec section 5 (8-20, not only digits) and whether a withdrawal lock is still on.
import { describe, expect, it } from 'vitest';
import { checkLoginPassword, checkPinPair, checkSixDigits, lockActive } from './rules';

describe('account centre rules', () => {
  it('codes are exactly 6 digits', () => {
    expect(checkSixDigits('', 'v.codeRequired')).toBe('v.codeRequired');
    expect(checkSixDigits('12345', 'v.codeRequired')).toBe('v.codeInvalid');
    expect(checkSixDigits('123456', 'v.codeRequired')).toBeNull();
  });

  it('transaction password: rule first, then the confirmation', () => {
    expect(checkPinPair('', '')).toEqual({ pin: 'v.pinRequired', confirm: null });
    expect(checkPinPair('12345', '12345')).toEqual({ pin: 'v.pinRule', confirm: null });
    expect(checkPinPair('123456', '123465')).toEqual({ pin: null, confirm: 'v.pinMismatch' });
    expect(checkPinPair('123456', '123456')).toEqual({ pin: null, confirm: null });
  });

  it('login password: 8-20 characters, not only digits', () => {
    expect(checkLoginPassword('abc12345')).toBeNull();
    expect(checkLoginPassword('12345678')).toBe('v.passwordRule');
    expect(checkLoginPassword('abc1234')).toBe('v.passwordRule');
    expect(checkLoginPassword('a'.repeat(21))).toBe('v.passwordRule');
  });

  it('a lock is on until its end', () => {
    expect(lockActive({ until: 1000 }, 999)).toBe(true);
    expect(lockActive({ until: 1000 }, 1000)).toBe(false);
    expect(lockActive(null, 0)).toBe(false);
  });
});
