/**
 * Unit conversions of a spot market and the integer rounding helpers used for fees.
 *
 * Units (brands.ts): price in 10^-priceDecimals quote per one base coin; quantity in
 * 10^-qtyDecimals base; asset amounts in 10^-scale of the asset. A market requires
 * priceDecimals + qtyDecimals <= quote.scale and qtyDecimals <= base.scale, so both
 * conversions below are exact multiplications.
 */
import type { Amount, Ppm, Price, Quantity } from './brands';
import { pow10 } from './decimal';

/** a * b / c rounded down (towards zero for non-negative inputs). c must be > 0. */
export function mulDivFloor(a: bigint, b: bigint, c: bigint): bigint {
  if (c <= 0n) throw new RangeError('mulDivFloor: divisor must be positive');
  const p = a * b;
  const q = p / c;
  return p < 0n && q * c !== p ? q - 1n : q;
}

/** a * b / c rounded up (towards +infinity). c must be > 0. Used for fees (exchange's favour). */
export function mulDivCeil(a: bigint, b: bigint, c: bigint): bigint {
  if (c <= 0n) throw new RangeError('mulDivCeil: divisor must be positive');
  const p = a * b;
  const q = p / c;
  return p > 0n && q * c !== p ? q + 1n : q;
}

/** One million, the denominator of ppm rates. */
export const PPM: Ppm = 1_000_000n;

/** Fee in the asset's units for `amount` units at `feePpm` parts per million, rounded up: ceil(amount*feePpm/1e6). */
export function feeCeil(amount: Amount, feePpm: Ppm): Amount {
  return mulDivCeil(amount, feePpm, PPM);
}

/** The decimal shapes of a market that the conversions need. */
export interface MarketScales {
  priceDecimals: number;
  qtyDecimals: number;
  /** scale of the base asset */
  baseScale: number;
  /** scale of the quote asset */
  quoteScale: number;
}

/**
 * Multiplier turning price*qty (10^-(priceDecimals+qtyDecimals) quote) into quote asset units:
 * 10^(quoteScale - priceDecimals - qtyDecimals).
 */
export function notionalMultiplier(s: MarketScales): bigint {
  return pow10(s.quoteScale - s.priceDecimals - s.qtyDecimals);
}

/** Multiplier turning qty units into base asset units: 10^(baseScale - qtyDecimals). */
export function baseMultiplier(s: MarketScales): bigint {
  return pow10(s.baseScale - s.qtyDecimals);
}

/** price (price units) * qty (qty units) in quote asset units, exact. */
export function quoteUnits(price: Price, qty: Quantity, s: MarketScales): Amount {
  return price * qty * notionalMultiplier(s);
}

/** qty (qty units) in base asset units, exact. */
export function baseUnits(qty: Quantity, s: MarketScales): Amount {
  return qty * baseMultiplier(s);
}

/**
 * Largest quantity (qty units, a multiple of stepSize) whose cost at `price` fits in `quoteAmount`
 * quote units: floor(floor(quoteAmount / (price * notionalMultiplier)) / stepSize) * stepSize.
 * This is the Binance quoteOrderQty rule used by MARKET BUY by quote amount.
 */
export function affordableQty(quoteAmount: Amount, price: Price, stepSize: Quantity, s: MarketScales): Quantity {
  const q = quoteAmount / (price * notionalMultiplier(s));
  return q - (q % stepSize);
}
