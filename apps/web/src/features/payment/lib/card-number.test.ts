// Bank card number check: Luhn on published test numbers, a one-digit typo refused, the 12-19 digit length rule,
// spaces ignored, and the display grouping.
import { describe, expect, it } from 'vitest';
import { checkCardNo, groupCardNo, luhnValid } from './card-number';

describe('Luhn', () => {
  it('accepts valid numbers and refuses a changed digit', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('79927398710')).toBe(false);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('41111a1111111111')).toBe(false);
  });
});

describe('checkCardNo', () => {
  it('applies length and Luhn, ignoring spaces', () => {
    expect(checkCardNo('4111 1111 1111 1111')).toBeNull();
    expect(checkCardNo('')).toBe('v.cardRequired');
    expect(checkCardNo('79927398713')).toBe('v.cardInvalid'); // valid Luhn, only 11 digits
    expect(checkCardNo('4111111111111112')).toBe('v.cardInvalid');
    expect(checkCardNo('41111111111111111111')).toBe('v.cardInvalid'); // 20 digits
  });

  it('groups by four for display', () => {
    expect(groupCardNo('4111111111111111')).toBe('4111 1111 1111 1111');
    expect(groupCardNo('41 11-11')).toBe('4111 11');
  });
});
