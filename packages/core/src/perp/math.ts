/**
 * Formulas of the perpetual contracts, pure and exact: used by the engine, by the server for previews and
 * by the web app for the order form's cost, maximum lots and liquidation price preview. Integers only (bigint);
 * units as in perp/types.ts: prices in price units, quantities in qty units, amounts in quote units (the settle
 * asset's smallest unit), `mult` = 10^(settle scale - priceDecimals - qtyDecimals) turns price * qty into quote
 * units. Rounding is always against the user for requirements (margin, fees: up) and towards the exchange for
 * what the user receives.
 *
 * Sources: Binance USDT-M futures documentation: "Leverage and Margin of USDⓈ-M Futures" (brackets, maintenance
 * amount), "How to Calculate Liquidation Price of USDⓈ-M Contracts" (liquidation price), "Mark Price" (median of
 * three prices), "Introduction to Funding Rates" (premium index, interest, clamp), "Auto-Deleveraging" (ranking).
 */
import type { LeverageBracket, PositionSide } from './types';

const E6 = 1_000_000n;
/** 1e8, the denominator of E8 rates (funding, premium). */
export const E8 = 100_000_000n;
/** The funding rate's clamp around the interest: +-0.05% (Binance), E8. */
export const FUNDING_CLAMP_E8 = 50_000n;

/**
 * A bigint known to be a safe integer (|v| < 2^53) as a number: rates (ppm, E8) are bounded by their clamps, so they
 * travel as numbers in the views. Throws RangeError outside the safe range (a bug).
 */
export function toSafeInt(v: bigint): number {
  if (v > 9_007_199_254_740_991n || v < -9_007_199_254_740_991n) throw new RangeError('toSafeInt: out of the safe integer range');
  // Digit by digit: exact for a safe integer, without the core's banned number conversions (tidy.test.ts).
  const digits = (v < 0n ? -v : v).toString();
  let n = 0;
  for (let i = 0; i < digits.length; i++) n = n * 10 + (digits.charCodeAt(i) - 48);
  return v < 0n ? -n : n;
}

/** 10^n as a bigint (n >= 0). */
export function pow10n(n: number): bigint {
  let r = 1n;
  for (let i = 0; i < n; i++) r *= 10n;
  return r;
}

/** The notional multiplier of a market: 10^(settleScale - priceDecimals - qtyDecimals) (>= 1). */
export function perpNotionalMult(settleScale: number, priceDecimals: number, qtyDecimals: number): bigint {
  const d = settleScale - priceDecimals - qtyDecimals;
  if (d < 0) throw new RangeError('perpNotionalMult: priceDecimals + qtyDecimals exceed the settle scale');
  return pow10n(d);
}

function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a > 0n === b > 0n ? q + 1n : q;
}
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a > 0n !== b > 0n ? q - 1n : q;
}

/** price (price units) * qty (qty units) in quote units. */
export function notionalOf(price: bigint, qty: bigint, mult: bigint): bigint {
  return price * qty * mult;
}

/**
 * Quantity of `lots` lots at `price`: a lot is a face value of `lotNotional` quote units at the order's price (spec
 * section 9 "1000 USDT per lot", read as docs/perpetuals.md documents), so qty = lots * lotNotional / (price * mult), rounded
 * down to the step. 0n when the price is not positive.
 */
export function lotsToQty(lots: bigint, price: bigint, lotNotional: bigint, stepSize: bigint, mult: bigint): bigint {
  if (price <= 0n || lots <= 0n) return 0n;
  const q = (lots * lotNotional) / (price * mult);
  return q - (q % stepSize);
}

/** Whole lots a quantity is worth at `price` (rounded down): floor(qty * price * mult / lotNotional). */
export function qtyToLots(qty: bigint, price: bigint, lotNotional: bigint, mult: bigint): bigint {
  if (qty <= 0n || price <= 0n) return 0n;
  return (qty * price * mult) / lotNotional;
}

/**
 * A position's hands: its entry notional (cost, quote units) in lots, rounded half up. Lots are counted at the
 * order's price when opened (lotsToQty rounds each order down to the step), so a position of 2 lots reads 2 whatever
 * the mark does; 0 for a position worth less than half a lot.
 */
export function positionLots(cost: bigint, lotNotional: bigint): bigint {
  if (cost <= 0n) return 0n;
  return (2n * cost + lotNotional) / (2n * lotNotional);
}

/**
 * The quantity that closes `lots` of a position of `size` (qty units) worth `posLots` hands: the whole position when
 * lots >= posLots, else size * lots / posLots rounded down to the step (0n when that is below one step).
 */
export function closeLotsQty(size: bigint, posLots: bigint, lots: bigint, stepSize: bigint): bigint {
  if (lots <= 0n || size <= 0n) return 0n;
  if (lots >= posLots) return size;
  const q = (size * lots) / posLots;
  return q - (q % stepSize);
}

/** A bracket with its derived maintenance amount, in quote units times 1e6 (exact). */
export interface BracketTier extends LeverageBracket {
  /** lower bound (exclusive, 0 for the first tier), quote units */
  notionalFloor: bigint;
  /** Binance's "maintenance amount" (cum) times 1e6: cum_n = cum_(n-1) + floor_n * (mmr_n - mmr_(n-1)) */
  cumE6: bigint;
}

/** The tiers of a bracket table with their maintenance amounts (see LeverageBracket). */
export function bracketTiers(brackets: readonly LeverageBracket[]): BracketTier[] {
  const out: BracketTier[] = [];
  let floor = 0n;
  let cum = 0n;
  let prevMmr = 0n;
  for (const b of brackets) {
    const mmr = BigInt(b.maintMarginPpm);
    cum += floor * (mmr - prevMmr);
    out.push({ ...b, notionalFloor: floor, cumE6: cum });
    floor = b.notionalCap;
    prevMmr = mmr;
  }
  return out;
}

/** The tier of a notional (quote units, >= 0), or undefined above the last cap (beyond the risk limit). */
export function tierOf(tiers: readonly BracketTier[], notional: bigint): BracketTier | undefined {
  const n = notional < 0n ? -notional : notional;
  for (const t of tiers) if (n <= t.notionalCap) return t;
  return undefined;
}

/** Highest leverage allowed for a position notional (0 beyond the last tier). */
export function maxLeverageFor(tiers: readonly BracketTier[], notional: bigint): number {
  return tierOf(tiers, notional)?.maxLeverage ?? 0;
}

/**
 * Largest notional (quote units) a leverage may hold: the cap of the last tier whose maxLeverage >= leverage
 * (0n when none allows it). Binance's "maximum position at current leverage".
 */
export function maxNotionalFor(tiers: readonly BracketTier[], leverage: number): bigint {
  let cap = 0n;
  for (const t of tiers) if (t.maxLeverage >= leverage) cap = t.notionalCap;
  return cap;
}

/**
 * Maintenance margin of a position notional (quote units, at the mark price): notional * mmr - cum, rounded up,
 * times 1e6 before the rounding is `maintMarginE6`. Beyond the last tier the last tier's rate applies.
 */
export function maintMarginE6(tiers: readonly BracketTier[], notional: bigint): bigint {
  const n = notional < 0n ? -notional : notional;
  const t = tierOf(tiers, n) ?? (tiers[tiers.length - 1] as BracketTier);
  return n * BigInt(t.maintMarginPpm) - t.cumE6;
}
/** Maintenance margin in quote units, rounded up. */
export function maintMargin(tiers: readonly BracketTier[], notional: bigint): bigint {
  return ceilDiv(maintMarginE6(tiers, notional), E6);
}

/** Initial margin of a notional at a leverage, rounded up: ceil(notional / leverage). */
export function initialMargin(notional: bigint, leverage: number): bigint {
  return ceilDiv(notional < 0n ? -notional : notional, BigInt(leverage));
}

/**
 * The most margin (quote units) that may be removed from an isolated position: what leaves the margin plus its
 * unrealized loss (a profit does not count) at least the initial margin of its notional at its leverage, and never
 * more than the margin itself; 0n when nothing may go. `notional` and `upnl` at the engine's reference price (the
 * mark price). The rule of perpAdjustMargin: removing `out` is refused when out > maxRemovableMargin(...).
 */
export function maxRemovableMargin(margin: bigint, notional: bigint, upnl: bigint, leverage: number): bigint {
  const free = margin + (upnl < 0n ? upnl : 0n) - initialMargin(notional, leverage);
  const max = free < margin ? free : margin;
  return max > 0n ? max : 0n;
}

/** Fee of a notional at ppm, rounded up: ceil(notional * ppm / 1e6). */
export function perpFee(notional: bigint, feePpm: number): bigint {
  return ceilDiv((notional < 0n ? -notional : notional) * BigInt(feePpm), E6);
}

/**
 * Binance's "open loss" of an order (quote units, >= 0): what the order loses at once against the mark price if it
 * fills at its own price, qty x max(0, price - mark) for a BUY and qty x max(0, mark - price) for a SELL. Given as
 * notionals: `orderNotional` at the order's price (a MARKET order: what the book fills), `markNotional` the same
 * quantity at the mark. Source: Binance USDⓈ-M futures, "How to Calculate Order Cost": order cost = initial margin +
 * open loss. The engine adds it to an opening order's hold and to an isolated position's margin at the fill, so an
 * order far from the mark cannot open a position that is already past its bankruptcy price.
 */
export function openLoss(side: 'BUY' | 'SELL', orderNotional: bigint, markNotional: bigint): bigint {
  const d = side === 'BUY' ? orderNotional - markNotional : markNotional - orderNotional;
  return d > 0n ? d : 0n;
}

/**
 * What an opening order holds (quote units): initial margin plus the taker fee of its notional, both rounded up
 * (the engine's hold for a non-reduce-only order, plus its openLoss when priced beyond the mark; the order form's
 * "cost").
 */
export function orderCost(notional: bigint, leverage: number, takerFeePpm: number): bigint {
  return initialMargin(notional, leverage) + perpFee(notional, takerFeePpm);
}

/**
 * The most lots `available` quote units pay for at `price` and `leverage` (the order form's "max lots"): the largest
 * n with orderCost(notional of lotsToQty(n)) <= available, capped at the bracket's maximum notional for the leverage.
 */
export function maxLots(
  available: bigint,
  price: bigint,
  leverage: number,
  takerFeePpm: number,
  lotNotional: bigint,
  stepSize: bigint,
  mult: bigint,
  tiers: readonly BracketTier[],
): bigint {
  if (available <= 0n || price <= 0n || leverage <= 0) return 0n;
  const cap = maxNotionalFor(tiers, leverage);
  // Upper estimate, then step down (a lot's quantity rounds down, so the cost per lot is at most lotNotional's).
  let n = (available * BigInt(leverage) * E6) / (lotNotional * (E6 + BigInt(takerFeePpm) * BigInt(leverage))) + 1n;
  for (; n > 0n; n--) {
    const q = lotsToQty(n, price, lotNotional, stepSize, mult);
    const notional = q * price * mult;
    if (notional <= cap && orderCost(notional, leverage, takerFeePpm) <= available) return q > 0n ? n : 0n;
  }
  return 0n;
}

/** Unrealized PnL (quote units, signed) of a position at `price`: long size*price*mult - cost, short cost - that. */
export function unrealizedPnl(side: PositionSide, size: bigint, cost: bigint, price: bigint, mult: bigint): bigint {
  const v = size * price * mult;
  return side === 'LONG' ? v - cost : cost - v;
}

/** Average entry price (price units) of `cost` over `size`, rounded half up; 0n for size 0. */
export function entryPriceOf(cost: bigint, size: bigint, mult: bigint): bigint {
  if (size <= 0n) return 0n;
  const d = size * mult;
  return (2n * cost + d) / (2n * d);
}

/** Return on margin, ppm (signed): unrealized PnL / margin ("yield rate"); 0 for no margin. */
export function yieldRatePpm(pnl: bigint, margin: bigint): number {
  if (margin <= 0n) return 0;
  return toSafeInt((pnl * E6) / margin);
}

/**
 * Estimated liquidation price (price units) of one position, Binance's one-way formula:
 *   LP = (WB + cum - side * size * EP) / (size * MMR - side * size)
 * with WB the wallet balance in scope (isolated: the position's margin; cross: the cross wallet balance less the
 * other cross positions' maintenance margin plus their unrealized PnL), side +1 long / -1 short, EP the entry price
 * (here cost / size exactly), MMR and cum of the tier the liquidation notional falls in (tried tier by tier).
 * Rounded towards the mark (long up, short down) so that the estimate is never beyond the real trigger.
 * Returns 0n when the position cannot be liquidated by a falling price (long with WB covering everything) and null
 * for a short that cannot be liquidated.
 */
export function liquidationPrice(
  side: PositionSide,
  size: bigint,
  cost: bigint,
  walletInScope: bigint,
  tiers: readonly BracketTier[],
  mult: bigint,
): bigint | null {
  if (size <= 0n) return null;
  const n = size * mult; // quote units per price unit
  let fallback: bigint | null = null;
  for (const t of tiers) {
    const mmr = BigInt(t.maintMarginPpm);
    let p: bigint;
    if (side === 'LONG') {
      // (cost - WB - cum) * 1e6 / (n * (1e6 - mmr))
      const num = (cost - walletInScope) * E6 - t.cumE6;
      if (num <= 0n) return 0n;
      p = ceilDiv(num, n * (E6 - mmr));
    } else {
      const num = (cost + walletInScope) * E6 + t.cumE6;
      p = floorDiv(num, n * (E6 + mmr));
      if (p <= 0n) return null;
    }
    fallback ??= p;
    const notional = p * n;
    if (notional > t.notionalFloor && notional <= t.notionalCap) return p;
    if (t.notionalFloor === 0n && notional <= t.notionalCap) return p;
  }
  return fallback;
}

/**
 * Mark price (price units) as Binance computes it: the median of
 *   price 1 = index * (1 + last funding rate * time to the next funding / interval),
 *   price 2 = index + moving average of the basis ((bid1 + ask1) / 2 - index),
 *   contract price = the last trade price (the index before the first trade),
 * rounded half up to the tick. `basisAvg` in price units (may be fractional: numerator and denominator given).
 */
export function markPriceOf(
  index: bigint,
  lastFundingRateE8: number,
  msToFunding: number,
  intervalMs: number,
  basisSum: bigint,
  basisCount: number,
  lastPrice: bigint | null,
  tickSize: bigint,
): bigint {
  const p1 = index + floorDiv(index * BigInt(lastFundingRateE8) * BigInt(msToFunding), E8 * BigInt(intervalMs));
  const p2 = basisCount > 0 ? index + floorDiv(basisSum, BigInt(basisCount)) : index;
  const p3 = lastPrice ?? index;
  const sorted = [p1, p2, p3].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const m = sorted[1] as bigint;
  const ticks = (2n * m + tickSize) / (2n * tickSize);
  const r = ticks * tickSize;
  return r > 0n ? r : tickSize;
}

/**
 * Premium index of one sample, E8: (max(0, impact bid - index) - max(0, index - impact ask)) / index, where the
 * impact prices are the average fill prices of `impactNotional` sold into the bids and bought from the asks. A side
 * whose book cannot fill the impact notional contributes 0. Inputs: quote filled and qty filled per side.
 */
export function premiumIndexE8(
  index: bigint,
  bidQuote: bigint,
  bidQty: bigint,
  askQuote: bigint,
  askQty: bigint,
  mult: bigint,
  sidesComplete: { bid: boolean; ask: boolean },
): bigint {
  if (index <= 0n) return 0n;
  let num = 0n; // in price units * (qty*mult) of each side, reduced to E8 per side
  if (sidesComplete.bid && bidQty > 0n) {
    const d = bidQuote - index * bidQty * mult; // (impact bid - index) * qty * mult
    if (d > 0n) num += floorDiv(d * E8, index * bidQty * mult);
  }
  if (sidesComplete.ask && askQty > 0n) {
    const d = index * askQty * mult - askQuote; // (index - impact ask) * qty * mult
    if (d > 0n) num -= ceilDiv(d * E8, index * askQty * mult);
  }
  return num;
}

/**
 * Funding rate, E8, from the interval's weighted average premium index (weights 1, 2, ..., n): F = P + clamp(I - P,
 * -0.05%, +0.05%), clamped to +-cap. `weightedSum` = sum of k * premium_k, `weightTotal` = sum of k.
 */
export function fundingRateE8(weightedSum: bigint, weightTotal: bigint, interestE8: number, capE8: number): number {
  const p = weightTotal > 0n ? floorDiv(weightedSum, weightTotal) : 0n;
  const i = BigInt(interestE8);
  let d = i - p;
  if (d > FUNDING_CLAMP_E8) d = FUNDING_CLAMP_E8;
  if (d < -FUNDING_CLAMP_E8) d = -FUNDING_CLAMP_E8;
  let f = p + d;
  const cap = BigInt(capE8);
  if (f > cap) f = cap;
  if (f < -cap) f = -cap;
  return toSafeInt(f);
}

/**
 * Funding of one position (quote units, signed for the holder: negative = pays): size * mark * mult * rate / 1e8,
 * the payer's amount rounded up and the receiver's down (the dust stays in '@funding'). Longs pay a positive rate.
 */
export function fundingPayment(side: PositionSide, size: bigint, mark: bigint, mult: bigint, rateE8: number): bigint {
  const v = size * mark * mult * BigInt(rateE8);
  const pays = (side === 'LONG') === rateE8 > 0;
  if (rateE8 === 0) return 0n;
  const abs = v < 0n ? -v : v;
  return pays ? -ceilDiv(abs, E8) : abs / E8;
}

/** The funding time at or before `ts`: the last multiple of the interval (Unix ms). */
export function fundingTimeAtOrBefore(ts: number, intervalMs: number): number {
  return Math.floor(ts / intervalMs) * intervalMs;
}
