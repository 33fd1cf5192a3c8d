// The interest estimate matches the server's formula on exact values (packages/core earn/types.ts earnInterest).
import { describe, expect, it } from 'vitest';
import { estimateInterest } from './interest';

describe('estimateInterest', () => {
  it('is amount x apr% x days / 365, rounded down to 8 decimals', () => {
    expect(estimateInterest('1000', '3.65', 7)).toBe('0.70000000');
    expect(estimateInterest('100', '8', 30)).toBe('0.65753424');
    expect(estimateInterest('0.00000001', '5', 7)).toBe('0.00000000');
    expect(estimateInterest('abc', '5', 7)).toBe('');
  });
});
