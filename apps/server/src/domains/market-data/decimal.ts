/**
 * Exact decimal helpers of the market-data module: decimal strings <-> bigint counts of 10^-decimals units.
 * No floating point. Parsing rounds half up (away from zero) to the target decimals, because reference data
 * (ReferencePaths) and the database may carry more decimals than a market shows.
 */

// pow10 (10^n, RangeError on a bad exponent) and formatting are the core's: same values, one copy.
// Parsing stays here because it differs on purpose: core's parseDecimal is strict (no sign, throws on
// extra decimals) while reference data needs signs and half-up rounding to the market's decimals.
import { formatDecimal, pow10 } from '@exchange/core';

export { pow10 };

const DEC_RE = /^(-)?([0-9]+)(?:\.([0-9]*))?$/;

/**
 * Formats `units` (10^-decimals) as a decimal string with exactly `decimals` decimals: (12345n, 2) -> "123.45",
 * negatives with a leading '-'; core's formatDecimal under the name this module pairs with toUnits.
 */
export const fromUnits: (units: bigint, decimals: number) => string = formatDecimal;

/**
 * Parses a decimal string ("-12.345", "7", "0.10") into units of 10^-decimals, rounding half away from zero.
 * Throws RangeError on anything else (exponents, spaces, NaN, empty).
 */
export function toUnits(str: string, decimals: number): bigint {
  const m = DEC_RE.exec(str.trim());
  if (m === null) throw new RangeError(`not a decimal: ${str.slice(0, 40)}`);
  const neg = m[1] === '-';
  const int = m[2] as string;
  const frac = m[3] ?? '';
  let v: bigint;
  if (frac.length <= decimals) {
    v = BigInt(int) * pow10(decimals) + (frac.length === 0 ? 0n : BigInt(frac) * pow10(decimals - frac.length));
  } else {
    const kept = frac.slice(0, decimals);
    v = BigInt(int) * pow10(decimals) + (kept.length === 0 ? 0n : BigInt(kept));
    if (frac.charCodeAt(decimals) - 48 >= 5) v += 1n;
  }
  return neg ? -v : v;
}

/** Re-scales `units` from `from` decimals to `to` decimals, rounding half away from zero when dropping digits. */
export function rescale(units: bigint, from: number, to: number): bigint {
  if (to >= from) return units * pow10(to - from);
  return divRound(units, pow10(from - to));
}

/** a / b rounded half away from zero (b > 0). */
export function divRound(a: bigint, b: bigint): bigint {
  if (b <= 0n) throw new RangeError('divRound: divisor must be positive');
  const neg = a < 0n;
  const abs = neg ? -a : a;
  const q = (abs * 2n + b) / (2n * b);
  return neg ? -q : q;
}

/** Larger of two bigints. */
export function maxB(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/** Smaller of two bigints. */
export function minB(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/**
 * Percent change from `open` to `last` with 2 decimals, signed ("-1.25", "0.00", "3.10"), rounded half away
 * from zero. "0.00" when open is 0 (no reference).
 */
export function percentChange(open: bigint, last: bigint): string {
  if (open <= 0n) return '0.00';
  const bps = divRound((last - open) * 10_000n, open);
  return fromUnits(bps, 2);
}
