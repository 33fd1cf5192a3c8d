import { describe, expect, it } from 'vitest';
import { fractionDigits, splitDecimal, toUnits } from './decimal';

describe('decimal strings to integer units', () => {
  it('reads exchange strings exactly', () => {
    expect(toUnits('61837.63000000', 2)).toBe(6_183_763n);
    expect(toUnits('0.00150000', 5)).toBe(150n);
    expect(toUnits('0', 8)).toBe(0n);
    expect(toUnits('60980', 8)).toBe(6_098_000_000_000n);
    expect(toUnits('0.1', 1)).toBe(1n);
  });
  it('reads scientific notation exactly', () => {
    expect(splitDecimal('1.48e-06')).toEqual({ int: '0', frac: '00000148' });
    expect(toUnits('1.48e-06', 8)).toBe(148n);
    expect(toUnits('2.5E+3', 0)).toBe(2500n);
    expect(toUnits('0.0001e4', 0)).toBe(1n);
  });
  it('counts significant fraction digits', () => {
    expect(fractionDigits('61837.63000000')).toBe(2);
    expect(fractionDigits('60979.47273555')).toBe(8);
    expect(fractionDigits('100')).toBe(0);
    expect(fractionDigits('1.48e-06')).toBe(8);
  });
  it('refuses what would round or is not a decimal', () => {
    expect(() => toUnits('0.001', 2)).toThrow(/more than 2 decimals/);
    expect(() => toUnits('-1', 2)).toThrow(/not a decimal/);
    expect(() => toUnits('1,5', 2)).toThrow(/not a decimal/);
    expect(() => toUnits('NaN', 2)).toThrow(/not a decimal/);
  });
});
