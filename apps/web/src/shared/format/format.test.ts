// Proves the display formatting of spec section 9 and the exact decimal helpers: abbreviations at
// and above 10,000 (万/亿, K/M) with thousands separators and the carry into the next unit, fixed
// precision without floats (values beyond 2^53 and 0.1+0.2 style cases), display precision of coins
// (USDT at 2 decimals, other coins up to 8 with trailing zeros dropped, zero as "0.00" / "0"),
// chart labels, signed percentages, CNY, masking of phone/email and shortening of UIDs.
import { describe, expect, it } from 'vitest';
import {
  addDecimal,
  compareDecimal,
  decimalsOf,
  divDecimal,
  formatCny,
  formatAmount,
  formatChartNumber,
  formatCoin,
  formatCompact,
  formatFixed,
  formatPercent,
  formatPrice,
  formatQty,
  groupThousands,
  maskAccount,
  mulDecimal,
  shortUid,
  subDecimal,
  toFixedDecimal,
  trendOf,
  trimZeros,
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
  it('leaves values below 10,000 unabbreviated, with thousands separators', () => {
    expect(formatCompact('9999.994', 'zh')).toBe('9,999.99');
    expect(formatCompact('9999.994', 'en')).toBe('9,999.99');
    expect(formatCompact('1234.5', 'en')).toBe('1,234.50');
    expect(formatCompact('999', 'zh')).toBe('999.00');
    expect(formatCompact('0', 'en')).toBe('0.00');
  });
  it('uses 万 and 亿 in Chinese', () => {
    expect(formatCompact('10000', 'zh')).toBe('1.00万');
    expect(formatCompact('123456.7', 'zh')).toBe('12.35万');
    expect(formatCompact('100000000', 'zh')).toBe('1.00亿');
    expect(formatCompact('2345678901.5', 'zh')).toBe('23.46亿');
    expect(formatCompact('1234567890123', 'zh')).toBe('12,345.68亿');
  });
  it('uses K and M in English', () => {
    expect(formatCompact('10000', 'en')).toBe('10.00K');
    expect(formatCompact('123456.7', 'en')).toBe('123.46K');
    expect(formatCompact('1000000', 'en')).toBe('1.00M');
    expect(formatCompact('2345678901.5', 'en')).toBe('2,345.68M');
  });
  it('carries a value that rounds up into the next unit', () => {
    expect(formatCompact('99999999', 'zh')).toBe('1.00亿');
    expect(formatCompact('9999.996', 'zh')).toBe('1.00万');
    expect(formatCompact('999999.995', 'en')).toBe('1.00M');
    expect(formatCompact('9999.996', 'en')).toBe('10.00K');
    expect(formatCompact('99944', 'zh')).toBe('9.99万');
    expect(formatCompact('99999.4', 'zh')).toBe('10.00万');
  });
  it('keeps the sign', () => {
    expect(formatCompact('-123456', 'zh')).toBe('-12.35万');
    expect(formatCompact('-1234.5', 'en')).toBe('-1,234.50');
  });
});

describe('display precision of amounts and coins', () => {
  it('trims trailing zeros down to a minimum', () => {
    expect(trimZeros('1.2300')).toBe('1.23');
    expect(trimZeros('5.000')).toBe('5');
    expect(trimZeros('5.000', 2)).toBe('5.00');
    expect(trimZeros('5', 2)).toBe('5.00');
    expect(trimZeros('0.10', 1)).toBe('0.1');
  });
  it('formats an amount at most at its precision, rounded down, grouped', () => {
    expect(formatAmount('7902.14400460', 2, { minDecimals: 2 })).toBe('7,902.14');
    expect(formatAmount('0.00000000', 8)).toBe('0');
    expect(formatAmount('0.00123400', 8)).toBe('0.001234');
    expect(formatAmount('1234567.99999999', 2)).toBe('1,234,567.99');
    expect(formatAmount('1234567.99999999', 2, { group: false })).toBe('1234567.99');
    expect(formatAmount('0.005', 2, { mode: 'round' })).toBe('0.01');
    expect(formatAmount('', 2)).toBe('--');
  });
  it('shows USDT balances at 2 decimals and other coins up to 8 without trailing zeros', () => {
    expect(formatCoin('7902.14400460', 'USDT')).toBe('7,902.14');
    expect(formatCoin('0.00000000', 'USDT')).toBe('0.00');
    expect(formatCoin('10000.00000000', 'USDT')).toBe('10,000.00');
    expect(formatCoin('0.00000000', 'BTC')).toBe('0');
    expect(formatCoin('0.01542000', 'BTC')).toBe('0.01542');
    expect(formatCoin('1234.50000000', 'DOGE')).toBe('1,234.5');
    expect(formatCoin('0.123456789', 'ETH')).toBe('0.12345678');
  });
  it('keeps every digit of an amount the user acts on (Available filled by Max, fees), grouped', () => {
    expect(formatCoin('9410.2226254', 'USDT', { exact: true })).toBe('9,410.2226254');
    expect(formatCoin('9410.2226254', 'USDT')).toBe('9,410.22');
    expect(formatCoin('97.50018000', 'USDT', { exact: true })).toBe('97.50018');
    expect(formatCoin('1000.00000000', 'USDT', { exact: true })).toBe('1,000.00');
    expect(formatCoin('0.00000000', 'USDT', { exact: true })).toBe('0.00');
    expect(formatCoin('0.00001500', 'BTC', { exact: true })).toBe('0.000015');
    expect(formatCoin('0.00000000', 'BTC', { exact: true })).toBe('0');
  });
  it('shows prices and quantities at the market precision, grouped', () => {
    expect(formatPrice('100000', 2)).toBe('100,000.00');
    expect(formatPrice('65000.125', 2)).toBe('65,000.13');
    expect(formatQty('1234.5', 3)).toBe('1,234.500');
    expect(formatQty('0.0015', 4)).toBe('0.0015');
    expect(formatPrice('', 2)).toBe('--');
  });
  it('groups chart labels', () => {
    expect(formatChartNumber(65432.1, 2)).toBe('65,432.10');
    expect(formatChartNumber(0.123456, 5)).toBe('0.12346');
    expect(formatChartNumber(Number.NaN, 2)).toBe('--');
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
    expect(maskAccount('alice@example.com')).toBe('ali***@example.com');
    expect(maskAccount('wallet@example.com')).toBe('wal***@example.com');
    expect(maskAccount('al@b.io')).toBe('al***@b.io');
    expect(maskAccount('short')).toBe('short');
    expect(maskAccount(undefined)).toBe('');
  });
  it('shortens the UID to first and last 5 characters', () => {
    expect(shortUid('8f3a1c9d2e7b4a60')).toBe('8f3a1...b4a60');
    expect(shortUid('1234567890')).toBe('1234567890');
    expect(shortUid('')).toBe('');
  });
});
