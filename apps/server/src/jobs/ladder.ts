/**
 * The liquidity bot's quoting rules as pure functions over engine integers (bigint; no floats): the ladder of
 * bid and ask levels around a reference price, and the smallest set of cancels and places that turns the
 * bot's open orders into that ladder. Prices in price units (10^-priceDecimals quote), quantities in qty units
 * (10^-qtyDecimals base), notionals in quote asset units, as in packages/core/src/types.ts.
 */
import { notionalMultiplier, parseDecimal, pow10, type MarketScales, type Side } from '@exchange/core';
import { hashString, mixSeed } from './prng';

/** The market filters the ladder must respect (from the engine's MarketConfig) plus the asset scales. */
export interface LadderMarket extends MarketScales {
  tickSize: bigint;
  stepSize: bigint;
  minQty: bigint;
  minNotional: bigint;
}

/** How the ladder looks. */
export interface LadderParams {
  /** Levels per side (10..15). */
  levels: number;
  /** Distance from the reference price to the best bid/ask, in ticks (>= 1). */
  halfSpreadTicks: bigint;
  /** Distance between consecutive levels, in ticks (>= 1). Levels sit on a fixed grid of this spacing. */
  levelSpacingTicks: bigint;
  /** Notional of the innermost level, quote asset units. */
  baseNotional: bigint;
  /** Each level further out is this many per mille larger (e.g. 250 = +25% per level). */
  growthPermille: bigint;
  /** Seeded size variation: each level's size is scaled by a factor in [1 - v, 1 + v] per mille. */
  variationPermille: number;
  /** Seed of the variation (e.g. a hash of the market symbol): the same level always gets the same size. */
  seed: number;
}

/** One resting order of the ladder. */
export interface LadderLevel {
  side: Side;
  price: bigint;
  quantity: bigint;
}

/** The ladder: bids best (highest) first, asks best (lowest) first. */
export interface Ladder {
  bids: LadderLevel[];
  asks: LadderLevel[];
}

/** a / b rounded down for b > 0 (also for negative a). */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a < 0n && q * b !== a ? q - 1n : q;
}

/** a / b rounded up for b > 0. */
function ceilDiv(a: bigint, b: bigint): bigint {
  return -floorDiv(-a, b);
}

/**
 * The smallest quantity (qty units, a multiple of stepSize, >= minQty) whose notional at `price` is at least
 * `notional` quote units.
 */
export function qtyForNotional(notional: bigint, price: bigint, m: LadderMarket): bigint {
  const perQty = price * notionalMultiplier(m); // quote units per qty unit
  let qty = ceilDiv(ceilDiv(notional, perQty), m.stepSize) * m.stepSize;
  if (qty < m.minQty) qty = ceilDiv(m.minQty, m.stepSize) * m.stepSize;
  return qty;
}

/**
 * Size of a level: the notional target (baseNotional grown by `growthPermille` per level and varied by a seeded
 * factor keyed by side and price, so the level keeps its size across re-quotes), converted to qty at the level's
 * price rounded down to the step, and raised to minQty and minNotional.
 */
export function levelQuantity(side: Side, price: bigint, level: number, m: LadderMarket, p: LadderParams): bigint {
  const r = mixSeed(p.seed, side === 'BUY' ? 1 : 2, hashString(price.toString()));
  const v = p.variationPermille;
  const factor = BigInt(1000 - v + (r % (2 * v + 1))); // per mille, in [1000 - v, 1000 + v]
  const notional = (p.baseNotional * (1000n + p.growthPermille * BigInt(level)) * factor) / 1_000_000n;
  const perQty = price * notionalMultiplier(m);
  let qty = floorDiv(notional / perQty, m.stepSize) * m.stepSize;
  const floor = qtyForNotional(m.minNotional, price, m);
  if (qty < floor) qty = floor;
  return qty;
}

/**
 * The ladder around `refPrice` (price units, > 0): best bid = the grid point at or below refPrice - halfSpread,
 * best ask = the grid point at or above refPrice + halfSpread, further levels every `levelSpacingTicks` ticks.
 * The grid is absolute (multiples of the spacing), so a small move of the reference changes at most the levels
 * it crosses. Bids at or below zero are left out. The best bid is always below the best ask.
 */
export function computeLadder(refPrice: bigint, m: LadderMarket, p: LadderParams): Ladder {
  if (refPrice <= 0n) throw new RangeError('refPrice must be positive');
  if (p.halfSpreadTicks < 1n || p.levelSpacingTicks < 1n) throw new RangeError('spread and spacing must be at least one tick');
  const spacing = p.levelSpacingTicks * m.tickSize;
  const half = p.halfSpreadTicks * m.tickSize;
  const bestBid = floorDiv(refPrice - half, spacing) * spacing;
  const bestAsk = ceilDiv(refPrice + half, spacing) * spacing;
  const bids: LadderLevel[] = [];
  const asks: LadderLevel[] = [];
  for (let i = 0; i < p.levels; i++) {
    const bidPrice = bestBid - BigInt(i) * spacing;
    if (bidPrice > 0n) bids.push({ side: 'BUY', price: bidPrice, quantity: levelQuantity('BUY', bidPrice, i, m, p) });
    const askPrice = bestAsk + BigInt(i) * spacing;
    asks.push({ side: 'SELL', price: askPrice, quantity: levelQuantity('SELL', askPrice, i, m, p) });
  }
  return { bids, asks };
}

/** Ticks for a distance of `bps` basis points of `refPrice`, at least 1. */
export function ticksForBps(refPrice: bigint, tickSize: bigint, bps: bigint): bigint {
  const t = (refPrice * bps) / (10_000n * tickSize);
  return t < 1n ? 1n : t;
}

/** One of the bot's open orders as the re-quote plan sees it. */
export interface OpenQuote {
  orderId: string;
  side: Side;
  price: bigint;
  /** Unfilled quantity (qty units); a level filled down below 30% of its ladder size is renewed. */
  remaining?: bigint;
}

/** What to do now: cancel these orders, then place these levels (in order). */
export interface RequotePlan {
  cancels: string[];
  places: LadderLevel[];
}

/**
 * The cancels and places that move the open orders towards the ladder, within `budget` commands:
 * - an open order whose (side, price) is a ladder level is kept (one per level; extra ones are cancelled), unless
 *   fills left less than 30% of the level's size, in which case it is cancelled and the level placed afresh;
 * - orders that would cross the new ladder (a bid at or above its best ask, an ask at or below its best bid) are
 *   always cancelled, whatever the budget;
 * - the remaining budget goes to the other stale orders and the missing levels, nearest to the reference first;
 * - a missing level is not placed while one of the bot's own orders on the other side would cross it.
 */
export function planRequote(open: readonly OpenQuote[], ladder: Ladder, refPrice: bigint, budget: number): RequotePlan {
  const key = (side: Side, price: bigint) => `${side}:${price}`;
  const wanted = new Map<string, LadderLevel>();
  for (const l of [...ladder.bids, ...ladder.asks]) wanted.set(key(l.side, l.price), l);
  const bestBid = ladder.bids[0]?.price ?? 0n;
  const bestAsk = ladder.asks[0]?.price ?? 0n;
  const dist = (price: bigint) => (price > refPrice ? price - refPrice : refPrice - price);
  const byDistance = <T extends { price: bigint }>(a: T, b: T) => (dist(a.price) < dist(b.price) ? -1 : dist(a.price) > dist(b.price) ? 1 : 0);

  const kept = new Set<string>();
  const mustCancel: OpenQuote[] = [];
  const stale: OpenQuote[] = [];
  const remaining: OpenQuote[] = [];
  for (const o of open) {
    const k = key(o.side, o.price);
    const want = wanted.get(k);
    const depleted = want !== undefined && o.remaining !== undefined && o.remaining * 10n < want.quantity * 3n;
    if (want !== undefined && !kept.has(k) && !depleted) {
      kept.add(k);
      remaining.push(o);
    } else if ((o.side === 'BUY' && o.price >= bestAsk) || (o.side === 'SELL' && o.price <= bestBid)) mustCancel.push(o);
    else stale.push(o);
  }
  stale.sort(byDistance);
  const missing = [...wanted.values()].filter((l) => !kept.has(key(l.side, l.price))).sort(byDistance);

  const cancels = mustCancel.map((o) => o.orderId);
  let left = Math.max(0, budget - cancels.length);
  // Interleave: stale cancels and new places, nearest first, so the touch is repaired before the outer levels.
  const places: LadderLevel[] = [];
  let si = 0;
  let mi = 0;
  while (left > 0 && (si < stale.length || mi < missing.length)) {
    const s = stale[si];
    const l = missing[mi];
    if (s && (!l || dist(s.price) <= dist(l.price))) {
      cancels.push(s.orderId);
      si++;
    } else if (l) {
      mi++;
      places.push(l);
    }
    left--;
  }
  // Own orders still resting after the cancels: never place a level that would trade against them.
  const cancelled = new Set(cancels);
  const resting = [...remaining, ...stale.filter((o) => !cancelled.has(o.orderId))];
  const ownBestBid = resting.filter((o) => o.side === 'BUY').reduce((a, o) => (o.price > a ? o.price : a), 0n);
  const ownBestAsk = resting.filter((o) => o.side === 'SELL').reduce<bigint | null>((a, o) => (a === null || o.price < a ? o.price : a), null);
  const safe = places.filter((l) => (l.side === 'BUY' ? ownBestAsk === null || l.price < ownBestAsk : l.price > ownBestBid));
  return { cancels, places: safe };
}

/**
 * A reference price string (any number of decimals) in a market's price units, rounded half up to the nearest
 * tick; at least one tick. Throws on a malformed string (the reference paths only produce valid ones).
 */
export function referenceToTicks(price: string, priceDecimals: number, tickSize: bigint): bigint {
  const frac = price.includes('.') ? (price.split('.')[1] as string).length : 0;
  const exact = parseDecimal(price, frac); // 10^-frac units
  // price units = exact * 10^priceDecimals / 10^frac, then to the nearest tick (half up).
  const num = exact * pow10(priceDecimals);
  const den = pow10(frac) * tickSize;
  const ticks = (2n * num + den) / (2n * den);
  return (ticks < 1n ? 1n : ticks) * tickSize;
}

/** Amount of the base asset (base units) worth `quoteAmount` quote units at `price` (price units), rounded down. */
export function baseForQuote(quoteAmount: bigint, price: bigint, m: MarketScales): bigint {
  // base units = quote units * 10^(priceDecimals + baseScale) / (price * 10^quoteScale)
  return (quoteAmount * pow10(m.priceDecimals + m.baseScale)) / (price * pow10(m.quoteScale));
}

/** The largest power of two <= x (x > 0): a reference that changes rarely, so spacing in ticks stays put. */
export function pow2Floor(x: bigint): bigint {
  return 1n << BigInt(x.toString(2).length - 1);
}
