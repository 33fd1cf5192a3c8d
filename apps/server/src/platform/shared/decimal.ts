/**
 * Decimal helpers the server shares (market data, index price, the perpetuals' tickers, the Binance gateway) over the
 * one money module (@exchange/money). No floating point. Reading rounds half away from zero to the target decimals,
 * because reference data (ReferencePaths) and the database may carry more decimals than a market shows.
 */
import { formatDecimal, parseDec, pow10, rescale as rescaleDec } from '@exchange/money';

export { pow10 };

/** Formats `units` (10^-decimals) as a decimal string with exactly `decimals` decimals: the money module's formatDecimal. */
export const fromUnits: (units: bigint, decimals: number) => string = formatDecimal;

/**
 * Reads a decimal string ("-12.345", "7", "0.10") into units of 10^-decimals, rounding half away from zero
 * (the money module's parseDec and rescale). Throws RangeError on anything else (exponents, NaN, empty).
 */
export function toUnits(str: string, decimals: number): bigint {
  return rescaleDec(parseDec(str), decimals, 'round').units;
}

/** Re-scales `units` from `from` decimals to `to` decimals, rounding half away from zero when dropping digits. */
export function rescale(units: bigint, from: number, to: number): bigint {
  return rescaleDec({ units, scale: from }, to, 'round').units;
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
