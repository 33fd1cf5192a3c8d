// Proves formatAmount: grouping, dropped trailing zeros, negative amounts, and anything else left as it is.
import { describe, expect, it } from 'vitest';
import { formatAmount } from './format';

describe('formatAmount', () => {
  it('groups thousands and drops trailing zeros, as text', () => {
    expect(formatAmount('100000000.00000000')).toBe('100,000,000');
    expect(formatAmount('250.00000000')).toBe('250');
    expect(formatAmount('0.25000000')).toBe('0.25');
    expect(formatAmount('-1234.50')).toBe('-1,234.5');
    expect(formatAmount('12345678901234567890.12345678')).toBe('12,345,678,901,234,567,890.12345678');
    expect(formatAmount('')).toBe('');
    expect(formatAmount('n/a')).toBe('n/a');
  });
});
