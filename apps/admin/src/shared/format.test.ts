// Proves formatAmount (grouping, dropped trailing zeros, negative amounts, anything else left as it is) and formatRatio
// (a ratio as a grouped percent, rounded down).
import { describe, expect, it } from 'vitest';
import { formatAmount, formatRatio } from './format';

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

describe('formatRatio', () => {
  it('shows a ratio as a percent with grouped digits, rounded down, and leaves the rest as it came', () => {
    expect(formatRatio('1.0100')).toBe('101.00%');
    expect(formatRatio('10000.0000')).toBe('1,000,000.00%');
    expect(formatRatio('0.99999')).toBe('99.99%');
    expect(formatRatio('')).toBe('');
    expect(formatRatio('n/a')).toBe('n/a');
  });
});
