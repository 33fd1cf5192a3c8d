// Proves the decimal edge conversions are strict and exact (unit examples plus fast-check
// round trips) and that the mul-div helpers round in the stated direction.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  affordableQty,
  decToString,
  isDecimal,
  parseDec,
  type Price,
  type Quantity,
  baseUnits,
  DecimalError,
  feeCeil,
  formatDecimal,
  mulDivCeil,
  mulDivFloor,
  parseDecimal,
  pow10,
  quoteUnits,
  ratioToPercent,
  rescaleFloor,
  tryParseDecimal,
} from './index';

describe('parseDecimal', () => {
  it('parses integers and fractions into smallest units', () => {
    expect(parseDecimal('0.0015', 8)).toBe(150000n);
    expect(parseDecimal('1', 8)).toBe(100000000n);
    expect(parseDecimal('123.45678901', 8)).toBe(12345678901n);
    expect(parseDecimal('0', 0)).toBe(0n);
    expect(parseDecimal('42', 0)).toBe(42n);
    expect(parseDecimal('0.10', 2)).toBe(10n);
  });
  it('rejects too many decimals with a typed error', () => {
    expect(tryParseDecimal('0.123', 2)).toEqual({ ok: false, error: 'too_many_decimals' });
    expect(tryParseDecimal('1.0', 0)).toEqual({ ok: false, error: 'too_many_decimals' });
    expect(() => parseDecimal('0.000000001', 8)).toThrow(DecimalError);
  });
  it.each(['', '-1', '+1', '1e5', '.5', '5.', ' 1', '1 ', '01', '1,5', 'NaN', 'Infinity', '0x10', '1..2', '١'])('rejects malformed %j', (s) => {
    expect(tryParseDecimal(s, 8)).toEqual({ ok: false, error: 'invalid_format' });
  });
  it('rejects over-long input before parsing', () => {
    expect(tryParseDecimal('1'.repeat(1_000_000), 8)).toEqual({ ok: false, error: 'too_long' });
  });
});

describe('formatDecimal', () => {
  it('always prints exactly `decimals` fraction digits', () => {
    expect(formatDecimal(150000n, 8)).toBe('0.00150000');
    expect(formatDecimal(0n, 8)).toBe('0.00000000');
    expect(formatDecimal(100000000n, 8)).toBe('1.00000000');
    expect(formatDecimal(12345n, 2)).toBe('123.45');
    expect(formatDecimal(7n, 0)).toBe('7');
    expect(formatDecimal(-150000n, 8)).toBe('-0.00150000');
  });
  it('round-trips with parseDecimal (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }), (v, d) => {
        expect(parseDecimal(formatDecimal(v, d), d)).toBe(v);
      }),
    );
  });
  it('parse then format normalises to the full scale (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }), (v, shown, extra) => {
        // a string with `shown` decimals parsed at scale shown+extra, then formatted, equals the string padded with zeros
        const s = formatDecimal(v, shown);
        const back = formatDecimal(parseDecimal(s, shown + extra), shown + extra);
        expect(back).toBe(shown === 0 ? (extra === 0 ? s : `${s}.${'0'.repeat(extra)}`) : s + '0'.repeat(extra));
      }),
    );
  });
});

describe('mulDiv', () => {
  it('floors and ceils', () => {
    expect(mulDivFloor(10n, 3n, 4n)).toBe(7n);
    expect(mulDivCeil(10n, 3n, 4n)).toBe(8n);
    expect(mulDivCeil(8n, 1n, 4n)).toBe(2n);
    expect(mulDivFloor(-10n, 3n, 4n)).toBe(-8n);
    expect(mulDivCeil(-10n, 3n, 4n)).toBe(-7n);
    expect(() => mulDivCeil(1n, 1n, 0n)).toThrow(RangeError);
  });
  it('bracket the exact quotient (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        (a, b, c) => {
          const f = mulDivFloor(a, b, c);
          const cl = mulDivCeil(a, b, c);
          expect(f * c <= a * b && a * b < (f + 1n) * c).toBe(true);
          expect((cl - 1n) * c < a * b && a * b <= cl * c).toBe(true);
          expect(cl - f === ((a * b) % c === 0n ? 0n : 1n)).toBe(true);
        },
      ),
    );
  });
  it('fees round up in the exchange favour', () => {
    // 0.1% of 1 unit is 0.001 unit -> 1 unit; 0.1% of 1000 units is exactly 1 unit.
    expect(feeCeil(1n, 1000n)).toBe(1n);
    expect(feeCeil(1000n, 1000n)).toBe(1n);
    expect(feeCeil(1001n, 1000n)).toBe(2n);
    expect(feeCeil(0n, 1000n)).toBe(0n);
    expect(feeCeil(123n, 0n)).toBe(0n);
  });
});

describe('market unit conversions', () => {
  // BTC/USDT: price 2 decimals, qty 6 decimals, both assets scale 8.
  const s = { priceDecimals: 2, qtyDecimals: 6, baseScale: 8, quoteScale: 8 };
  it('price*qty converts exactly to quote units', () => {
    // 0.5 BTC at 30000.00 USDT = 15000 USDT = 15000_00000000 units
    expect(quoteUnits(3000000n, 500000n, s)).toBe(1500000000000n);
    expect(formatDecimal(quoteUnits(3000000n, 500000n, s), 8)).toBe('15000.00000000');
    expect(baseUnits(500000n, s)).toBe(50000000n);
  });
  it('affordableQty rounds down to the step', () => {
    // 100 USDT at 30000.00 buys 0.003333 BTC (step 0.000001) -> 3333 qty units; step 10 -> 3330
    expect(affordableQty(100n * pow10(8), 3000000n, 1n, s)).toBe(3333n);
    expect(affordableQty(100n * pow10(8), 3000000n, 10n, s)).toBe(3330n);
    expect(affordableQty(1n, 3000000n, 1n, s)).toBe(0n);
  });
  it('rescaleFloor', () => {
    expect(rescaleFloor(123456n, 4, 2)).toBe(1234n);
    expect(rescaleFloor(12n, 2, 4)).toBe(1200n);
  });
});

describe('the one parser, signed and as typed', () => {
  it('reads a leading minus only when asked', () => {
    expect(tryParseDecimal('-1.5', 2)).toEqual({ ok: false, error: 'invalid_format' });
    expect(tryParseDecimal('-1.5', 2, { signed: true })).toEqual({ ok: true, value: -150n });
    expect(tryParseDecimal('--1', 2, { signed: true })).toEqual({ ok: false, error: 'invalid_format' });
    expect(tryParseDecimal('+1', 2, { signed: true })).toEqual({ ok: false, error: 'invalid_format' });
  });

  it('takes zeros beyond the scale only when asked', () => {
    expect(tryParseDecimal('1.5000000000', 8)).toEqual({ ok: false, error: 'too_many_decimals' });
    expect(tryParseDecimal('1.5000000000', 8, { trailingZeros: true })).toEqual({ ok: true, value: 150_000_000n });
    expect(tryParseDecimal('1.000000001', 8, { trailingZeros: true })).toEqual({ ok: false, error: 'too_many_decimals' });
    expect(tryParseDecimal('7.00', 0, { trailingZeros: true })).toEqual({ ok: true, value: 7n });
  });

  it('parseDec takes what a person types and keeps its scale', () => {
    expect(parseDec('.5')).toEqual({ units: 5n, scale: 1 });
    expect(parseDec('5.')).toEqual({ units: 5n, scale: 0 });
    expect(parseDec(' +007.250 ')).toEqual({ units: 7250n, scale: 3 });
    expect(parseDec('-0.010')).toEqual({ units: -10n, scale: 3 });
    expect(isDecimal('-')).toBe(false);
    expect(isDecimal('1e5')).toBe(false);
    expect(isDecimal('9'.repeat(70))).toBe(false);
    expect(() => parseDec('abc')).toThrow(RangeError);
  });

  it('decToString is formatDecimal and round-trips every signed value of any scale', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }), (units, scale) => {
        const s = decToString({ units, scale });
        expect(s).toBe(formatDecimal(units, scale));
        expect(parseDec(s)).toEqual({ units, scale });
      }),
    );
  });

  it('a price and a quantity cannot take each other’s place', () => {
    const price: Price = 6_500_000n;
    const qty: Quantity = 15n;
    const s = { priceDecimals: 2, qtyDecimals: 4, baseScale: 8, quoteScale: 8 };
    expect(quoteUnits(price, qty, s)).toBe(6_500_000n * 15n * 100n);
    // @ts-expect-error a quantity where a price is expected
    quoteUnits(qty, price, s);
  });
});

describe('ratioToPercent', () => {
  it('moves the point two places and rounds down, never overstating a ratio', () => {
    expect(ratioToPercent('1.0400', 2)).toBe('104.00');
    expect(ratioToPercent('0.99999', 2)).toBe('99.99');
    expect(ratioToPercent('10000.0000', 2)).toBe('1000000.00');
    expect(ratioToPercent('0', 2)).toBe('0.00');
    expect(ratioToPercent('1', 0)).toBe('100');
    expect(() => ratioToPercent('1.2.3', 2)).toThrow(RangeError);
  });

  it('is the ratio x 100 at `decimals` places, rounded down (exact bigint model)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 4 }), (units, scale, decimals) => {
        const pct = ratioToPercent(formatDecimal(units, scale), decimals);
        // percent units at `decimals` = floor(units * 100 * 10^decimals / 10^scale)
        const want = (units * 100n * 10n ** BigInt(decimals)) / 10n ** BigInt(scale);
        expect(pct).toBe(formatDecimal(want, decimals));
      }),
    );
  });
});
