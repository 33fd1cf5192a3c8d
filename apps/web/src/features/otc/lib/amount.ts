/**
 * The order entry's conversion between the fiat amount (CNY) and the coin quantity (USDT), the engine's rule
 * (packages/core otc/types.ts otcQuantity): quantity = floor(fiatCents * 10^scale / priceCents) units, so the buyer
 * never receives more than was paid for. Entering a quantity converts it to the fiat amount rounded UP to a cent
 * (the server's rule for takeAd's `quantity`), and that amount then gives the quantity the order will carry.
 * Everything is bigint on decimal strings: never a JS number.
 */
import { formatDecimal, isDecimal, mulDivCeil, parseDec, pow10, rescale } from '@exchange/money';

/** Decimal places of fiat amounts and prices (CNY cents). */
export const FIAT_DECIMALS = 2;
/** Decimal places of the coin (USDT) on the wire. */
export const COIN_SCALE = 8;

/**
 * Units of an amount as the user typed it at `scale` places ("1.5" at 8 -> 150000000n; "5." and ".5" read as 5 and
 * 0.5, spaces around ignored), or null when it is not an unsigned decimal of at most `scale` places. Read by
 * @exchange/money's `parseDec` (the one parser, `tryParseDecimal`, after the typed form is made canonical).
 */
export function coinToUnits(s: string, scale = COIN_SCALE): bigint | null {
  const v = s.trim();
  if (!isDecimal(v) || v.startsWith('-') || v.startsWith('+')) return null;
  const d = parseDec(v);
  if (d.scale > scale) return null;
  return rescale(d, scale).units;
}

/** Cents of a fiat amount as typed ("720.5" -> 72050n), or null when it is not an unsigned decimal of at most 2 places. */
export function fiatToCents(s: string): bigint | null {
  return coinToUnits(s, FIAT_DECIMALS);
}

/** The quantity (units) an order of `fiatCents` at `priceCents` per coin carries: floor(fiat * 10^scale / price). */
export function quantityOfFiat(fiatCents: bigint, priceCents: bigint, scale = COIN_SCALE): bigint {
  if (priceCents <= 0n) return 0n;
  return (fiatCents * pow10(scale)) / priceCents;
}

/** The fiat amount (cents, rounded up) of `units` (>= 0) at `priceCents` (> 0) per coin: ceil(units * price / 10^scale). */
export function fiatOfQuantity(units: bigint, priceCents: bigint, scale = COIN_SCALE): bigint {
  return mulDivCeil(units, priceCents, pow10(scale));
}

/** What the order entry shows for one input: the other field, the fiat amount sent and the quantity received. */
export interface OrderAmounts {
  /** fiat amount the order is for, 2 decimals */
  fiat: string;
  /** quantity the order carries, `scale` decimals */
  quantity: string;
  fiatCents: bigint;
  units: bigint;
}

/**
 * The order of an input in `mode` ('fiat': the user typed CNY; 'coin': USDT) at `price` (fiat string): null when the
 * input or the price is not a valid amount. A coin input goes through the fiat amount (rounded up to a cent), as the
 * server does, so the quantity shown is the one the order will carry.
 */
export function orderAmounts(mode: 'fiat' | 'coin', input: string, price: string, scale = COIN_SCALE): OrderAmounts | null {
  const priceCents = fiatToCents(price);
  if (priceCents === null || priceCents <= 0n) return null;
  let fiatCents: bigint | null;
  if (mode === 'fiat') fiatCents = fiatToCents(input);
  else {
    const units = coinToUnits(input, scale);
    fiatCents = units === null ? null : fiatOfQuantity(units, priceCents, scale);
  }
  if (fiatCents === null) return null;
  const units = quantityOfFiat(fiatCents, priceCents, scale);
  return { fiat: formatDecimal(fiatCents, FIAT_DECIMALS), quantity: formatDecimal(units, scale), fiatCents, units };
}

/** Why an order amount is refused before asking the server, or null: under the ad's minimum, over its maximum or what is left. */
export type AmountProblem = 'invalid' | 'belowMin' | 'aboveMax' | 'aboveAvailable' | 'zeroQuantity';

/** Checks an order against the ad's per-order limits (fiat strings) and the remaining quantity (coin string). */
export function checkOrderAmounts(a: OrderAmounts | null, minFiat: string, maxFiat: string, remaining: string, scale = COIN_SCALE): AmountProblem | null {
  if (!a) return 'invalid';
  const min = fiatToCents(minFiat) ?? 0n;
  const max = fiatToCents(maxFiat) ?? 0n;
  if (a.fiatCents < min) return 'belowMin';
  if (a.fiatCents > max) return 'aboveMax';
  if (a.units <= 0n) return 'zeroQuantity';
  const left = coinToUnits(remaining, scale);
  if (left !== null && a.units > left) return 'aboveAvailable';
  return null;
}

/**
 * A floating ad's price from the index: index * percent / 100 rounded half up to a cent (the engine's otcFloatPrice
 * with floatPpm = percent * 10^4). Null when either is not a valid decimal.
 */
export function floatPrice(indexPrice: string, percent: string): string | null {
  const idx = fiatToCents(indexPrice);
  // the field's shape: up to three whole digits and two places; then hundredths of a percent
  const p = /^[0-9]{1,3}(\.[0-9]{1,2})?$/.test(percent.trim()) ? coinToUnits(percent, 2) : null;
  if (idx === null || p === null) return null;
  const ppm = p * 100n; // percent with 2 decimals (hundredths of a percent) -> ppm
  return formatDecimal((idx * ppm * 2n + 1_000_000n) / 2_000_000n, FIAT_DECIMALS);
}
