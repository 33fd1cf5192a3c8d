// The transaction password rule of spec section 5: exactly six ASCII digits (not five, not seven, no full-width or
// other Unicode digits, no spaces).
import { describe, expect, it } from 'vitest';
import { isPin } from './PinInput';

describe('isPin', () => {
  it('accepts exactly six ASCII digits only', () => {
    expect(isPin('012345')).toBe(true);
    for (const bad of ['', '12345', '1234567', '12345a', '１２３４５６', '١٢٣٤٥٦', '123 45', ' 123456']) expect(isPin(bad), bad).toBe(false);
  });
});
