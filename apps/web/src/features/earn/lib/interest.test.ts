// The interest estimate matches the server's formula on exact values (packages/core earn/types.ts earnInterest).
import { describe, expect, it } from 'vitest';
import { estimateInterest, formatApr } from './interest';

describe('estimateInterest', () => {
  it('is amount x apr% x days / 365, rounded down to 8 decimals', () => {
    expect(estimateInterest('1000', '3.65', 7)).toBe('0.70000000');
    expect(estimateInterest('100', '8', 30)).toBe('0.65753424');
    expect(estimateInterest('0.00000001', '5', 7)).toBe('0.00000000');
    expect(estimateInterest('abc', '5', 7)).toBe('');
  });
});

describe('formatApr', () => {
  it('rounds half up to 2 decimals on the string, never truncating', () => {
    expect(formatApr('3.655')).toBe('3.66%');
    expect(formatApr('3.6549')).toBe('3.65%');
    expect(formatApr('12.9999')).toBe('13%');
    expect(formatApr('0.005')).toBe('0.01%');
    expect(formatApr('5')).toBe('5%');
    expect(formatApr('8.10')).toBe('8.1%');
  });
});
