// Proves the display formatting of spec section 9 and the exact decimal helpers: abbreviations at
// and above 10,000 (万/亿, K/M), fixed precision without floats (values beyond 2^53 and 0.1+0.2
// style cases), signed percentages, CNY, masking of phone/email and shortening of UIDs.
import { describe, expect, it } from 'vitest';
import {
  addDecimal,
  compareDecimal,
  decimalsOf,
  divDecimal,
  formatCny,
  formatCompact,
  formatFixed,
  formatPercent,
  groupThousands,
  maskAccount,
  mulDecimal,
  shortUid,
  subDecimal,
  toFixedDecimal,
  trendOf,
} from './index';

describe('decimal helpers', () => {
  it('rounds half away from zero, truncates, rounds up', () => {
    expect(toFixedDecimal('1.005', 2)).toBe('1.01');
    expect(toFixedDecimal('-1.005', 2)).toBe('-1.01');
    expect(toFixedDecimal('1.004', 2)).toBe('1.00');
    expect(toFixedDecimal('1.999', 2, 'down')).toBe('1.99');
    expect(toFixedDecimal('1.001', 2, 'up')).toBe('1.01');
    expect(toFixedDecimal('7', 3)).toBe('7.000');
    expect(toFixedDecimal('.5', 0)).toBe('1');
    expect(toFixedDecimal('-0.001', 2)).toBe('0.00');
  });
  it('is exact where floats are not', () => {
    expect(addDecimal('0.1', '0.2')).toBe('0.3');
    expect(subDecimal('0.3', '0.1')).toBe('0.2');
    expect(addDecimal('9007199254740993.00000001', '0.00000001')).toBe('9007199254740993.00000002');
    expect(mulDecimal('0.1', '3', 8)).toBe('0.30000000');
    expect(mulDecimal('65000.12', '0.00150000', 2)).toBe('97.50');
    expect(divDecimal('100', '3', 4)).toBe('33.3333');
    expect(divDecimal('2', '3', 4, 'round')).toBe('0.6667');
    expect(divDecimal('-2', '3', 2, 'up')).toBe('-0.67');
    expect(() => divDecimal('1', '0', 2)).toThrow(RangeError);
  });
  it('compares decimal strings', () => {
    expect(compareDecimal('100.0', '100')).toBe(0);
    expect(compareDecimal('99.99', '100')).toBe(-1);
    expect(compareDecimal('-1', '-2')).toBe(1);
    expect(decimalsOf('0.0100')).toBe(2);
    expect(decimalsOf('1')).toBe(0);
  });
  it('rejects what is not a decimal', () => {
    expect(() => toFixedDecimal('1e5', 2)).toThrow(RangeError);
    expect(formatFixed('abc', 2)).toBe('--');
    expect(formatFixed('', 2)).toBe('--');
    expect(formatFixed(null, 2)).toBe('--');
  });
});

describe('formatCompact (spec section 9)', () => {
  it('leaves values below 10,000 unabbreviated', () => {
    expect(formatCompact('9999.994', 'zh')).toBe('9999.99');
    expect(formatCompact('9999.994', 'en')).toBe('9999.99');
  });
  it('uses 万 and 亿 in Chinese', () => {
    expect(formatCompact('10000', 'zh')).toBe('1.00万');
    expect(formatCompact('123456.7', 'zh')).toBe('12.35万');
    expect(formatCompact('99999999', 'zh')).toBe('10000.00万');
    expect(formatCompact('100000000', 'zh')).toBe('1.00亿');
    expect(formatCompact('2345678901.5', 'zh')).toBe('23.46亿');
  });
  it('uses K and M in English', () => {
    expect(formatCompact('10000', 'en')).toBe('10.00K');
    expect(formatCompact('123456.7', 'en')).toBe('123.46K');
    expect(formatCompact('1000000', 'en')).toBe('1.00M');
    expect(formatCompact('2345678901.5', 'en')).toBe('2345.68M');
  });
  it('keeps the sign', () => {
    expect(formatCompact('-123456', 'zh')).toBe('-12.35万');
  });
});

describe('other formatters', () => {
  it('formats signed percentages', () => {
    expect(formatPercent('1.2')).toBe('+1.20%');
    expect(formatPercent('-0.5')).toBe('-0.50%');
    expect(formatPercent('0')).toBe('0.00%');
    expect(trendOf('0.01')).toBe('up');
    expect(trendOf('-3')).toBe('down');
    expect(trendOf('0.00')).toBe('flat');
  });
  it('formats fixed precision with grouping', () => {
    expect(formatFixed('65432.1', 2, { group: true })).toBe('65,432.10');
    expect(groupThousands('-1234567.891')).toBe('-1,234,567.891');
    expect(formatFixed('0.000123456', 6)).toBe('0.000123');
  });
  it('formats CNY', () => {
    expect(formatCny('471234.5')).toBe('¥471,234.50');
    expect(formatCny('0.0012345')).toBe('¥0.001235');
    expect(formatCny('0')).toBe('¥0.00');
    expect(formatCny('12', { symbol: false })).toBe('12.00');
  });
  it('masks phone and email: first 3 and last 4 characters', () => {
    expect(maskAccount('13812345678')).toBe('138****5678');
    expect(maskAccount('alice@example.com')).toBe('ali****.com');
    expect(maskAccount('short')).toBe('short');
    expect(maskAccount(undefined)).toBe('');
  });
  it('shortens the UID to first and last 5 characters', () => {
    expect(shortUid('8f3a1c9d2e7b4a60')).toBe('8f3a1...b4a60');
    expect(shortUid('1234567890')).toBe('1234567890');
    expect(shortUid('')).toBe('');
  });
});
