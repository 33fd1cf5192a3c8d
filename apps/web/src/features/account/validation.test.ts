// Proves the sign-up/sign-in rules of spec section 5: email pattern, exactly 6-digit codes,
// passwords of 8-20 characters that are not only digits, and matching confirmation.
import { describe, expect, it } from 'vitest';
import { checkAccount, checkCode, checkConfirm, checkPassword } from './validation';
import { sliderToImageX } from './components/SlideCaptcha';

describe('account validation', () => {
  it('checks emails and phones', () => {
    expect(checkAccount('EMAIL', 'alice@example.com')).toBeNull();
    expect(checkAccount('EMAIL', 'alice@example')).toBe('v.emailInvalid');
    expect(checkAccount('EMAIL', '')).toBe('v.emailRequired');
    expect(checkAccount('PHONE', '13812345678')).toBeNull();
    expect(checkAccount('PHONE', '138-1234')).toBe('v.phoneInvalid');
    expect(checkAccount('PHONE', ' ')).toBe('v.phoneRequired');
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
  it('maps the slider offset to image pixels', () => {
    const ch = { width: 320, pieceSize: 50 };
    expect(sliderToImageX(0, ch)).toBe(0);
    // Handle at its end: the piece's left edge sits at width - pieceSize.
    expect(sliderToImageX(288 - 44, ch)).toBe(270);
  });
});
