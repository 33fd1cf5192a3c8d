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

/** One point of a depth profile: `notional` (quote asset units) rests within `ppm` of the reference on one side; ppm 0 = the best level alone. */
export interface DepthPoint {
  ppm: bigint;
  notional: bigint;
}

/** How the ladder looks (liquidity-bot.ts `ladderParams` fills it from the market's depth profile). */
export interface LadderParams {
  /** Best ask minus best bid, ticks (>= 1). */
  spreadTicks: bigint;
  /** Levels right behind each best price, ticks behind it (ascending, > 0): the cluster near the mid. */
  clusterTicks: readonly bigint[];
  /**
   * Further levels at these distances from the reference, ppm (ascending). A level that would not lie beyond the
   * level before it (coarse ticks) and levels beyond the profile's last point are left out. Such a level sits on an
   * absolute grid of a power of two ticks no wider than a quarter of its distance, at the grid point at or inside
   * its distance (so 0-25% nearer the mid), and a move of the reference smaller than the grid leaves it in place.
   */
  levelPpm: readonly bigint[];
  /** Price (price units) that turns ppm into ticks; it should change rarely (see `anchorOf`) so outer levels stay put. */
  anchor: bigint;
  /** Cumulative depth per side by distance from the reference, quote asset units, ppm ascending from 0. */
  profile: readonly DepthPoint[];
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

/** Parts per billion in one ppm: distances inside the ladder are kept in ppb so sub-ppm cluster levels interpolate. */
const PPB_PER_PPM = 1000n;

/**
 * Cumulative notional of a profile within `ppb` (parts per billion of the reference) of the reference: linear
 * between the profile's points, the first point's value at 0 and the last point's value beyond it.
 */
export function cumulativeAt(profile: readonly DepthPoint[], ppb: bigint): bigint {
  const first = profile[0];
  if (!first) return 0n;
  let prev = first;
  if (ppb <= prev.ppm * PPB_PER_PPM) return prev.notional;
  for (let i = 1; i < profile.length; i++) {
    const p = profile[i] as DepthPoint;
    const a = prev.ppm * PPB_PER_PPM;
    const b = p.ppm * PPB_PER_PPM;
    if (ppb <= b) return prev.notional + ((p.notional - prev.notional) * (ppb - a)) / (b - a);
    prev = p;
  }
  return prev.notional;
}

/**
 * Size of a level: `notional` quote units scaled by a seeded factor keyed by side and price (so the level keeps
 * its size across re-quotes), converted to qty at the level's price rounded down to the step, and raised to minQty
 * and minNotional.
 */
export function levelQuantity(side: Side, price: bigint, notional: bigint, m: LadderMarket, p: Pick<LadderParams, 'seed' | 'variationPermille'>): bigint {
  const r = mixSeed(p.seed, side === 'BUY' ? 1 : 2, hashString(price.toString()));
  const v = p.variationPermille;
  const factor = BigInt(1000 - v + (r % (2 * v + 1))); // per mille, in [1000 - v, 1000 + v]
  const perQty = price * notionalMultiplier(m);
  let qty = floorDiv((notional * factor) / 1000n / perQty, m.stepSize) * m.stepSize;
  const floor = qtyForNotional(m.minNotional, price, m);
  if (qty < floor) qty = floor;
  return qty;
}

/**
 * A price that moves only when `refPrice` moves by about 3% (its top five binary digits): ppm distances are turned
 * into ticks with it, so the outer levels do not shift with every tick of the reference.
 */
export function anchorOf(refPrice: bigint): bigint {
  const bits = BigInt(refPrice.toString(2).length);
  const drop = bits > 5n ? bits - 5n : 0n;
  return (refPrice >> drop) << drop;
}

/**
 * The ladder around `refPrice` (price units, > 0), shaped on the depth profile:
 * - best bid = refPrice - floor(spread / 2) ticks, best ask = best bid + spread;
 * - behind each best price the cluster levels (`clusterTicks`), then one level per `levelPpm` distance from the
 *   reference, each on its own absolute grid (see LadderParams) and at least a tick beyond the level before;
 * - each level holds the profile's depth between the previous level's distance and its own (the best level holds
 *   the profile's best-level value), so the cumulative depth at any distance follows the profile.
 * Bids at or below zero and levels beyond the profile's last point are left out. The best bid is below the best ask.
 */
export function computeLadder(refPrice: bigint, m: LadderMarket, p: LadderParams): Ladder {
  if (refPrice <= 0n) throw new RangeError('refPrice must be positive');
  if (p.spreadTicks < 1n) throw new RangeError('the spread must be at least one tick');
  if (p.anchor <= 0n) throw new RangeError('anchor must be positive');
  const tick = m.tickSize;
  const bestBid = (floorDiv(refPrice, tick) - p.spreadTicks / 2n) * tick;
  const bestAsk = bestBid + p.spreadTicks * tick;
  const maxPpb = (p.profile[p.profile.length - 1]?.ppm ?? 0n) * PPB_PER_PPM;
  const side = (s: Side): LadderLevel[] => {
    const dir = s === 'BUY' ? -1n : 1n;
    const best = s === 'BUY' ? bestBid : bestAsk;
    const prices: bigint[] = [best, ...p.clusterTicks.map((c) => best + dir * c * tick)];
    for (const ppm of p.levelPpm) {
      const ticks = ceilDiv(ppm * p.anchor, 1_000_000n * tick);
      const grid = pow2Floor(ticks / 4n > 0n ? ticks / 4n : 1n) * tick;
      const target = refPrice + dir * ticks * tick;
      // On the grid at or inside the target distance, so the outermost level never falls beyond the profile.
      const price = s === 'BUY' ? ceilDiv(target, grid) * grid : floorDiv(target, grid) * grid;
      const prev = prices[prices.length - 1] as bigint;
      // A level that falls on or inside the one before (coarse ticks near the mid) is left out: its depth goes to
      // the next level, and no level is pushed along with the best price.
      if (s === 'BUY' ? price < prev : price > prev) prices.push(price);
    }
    const out: LadderLevel[] = [];
    let covered = -1n; // ppb of the reference covered by the levels so far
    for (const price of prices) {
      if (price <= 0n) break;
      const ppb = ((price > refPrice ? price - refPrice : refPrice - price) * 1_000_000_000n) / refPrice;
      if (ppb > maxPpb) break;
      const notional = cumulativeAt(p.profile, ppb) - (covered < 0n ? 0n : cumulativeAt(p.profile, covered));
      covered = ppb;
      out.push({ side: s, price, quantity: levelQuantity(s, price, notional, m, p) });
    }
    return out;
  };
  return { bids: side('BUY'), asks: side('SELL') };
}

/**
 * The price the ladder is centred on: `center` while the reference stays within `hysteresisPpm` of it, else the
 * reference itself (also when there is no centre yet). A centre that lags the reference by a fraction of a basis
 * point is invisible on a chart, and it spares re-pricing the levels near the mid on every tick of the reference.
 */
export function recenter(center: bigint | null, refPrice: bigint, hysteresisPpm: bigint): bigint {
  if (center === null) return refPrice;
  const dist = center > refPrice ? center - refPrice : refPrice - center;
  return dist * 1_000_000n > hysteresisPpm * refPrice ? refPrice : center;
}

/** Quote units resting on one side of a ladder within `ppm` of `refPrice` (to compare a ladder with its profile). */
export function ladderDepthWithin(levels: readonly LadderLevel[], refPrice: bigint, ppm: bigint, m: LadderMarket): bigint {
  let sum = 0n;
  for (const l of levels) {
    const dist = l.price > refPrice ? l.price - refPrice : refPrice - l.price;
    if (dist * 1_000_000n <= ppm * refPrice) sum += l.price * l.quantity * notionalMultiplier(m);
  }
  return sum;
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
 *   always cancelled, on top of the budget;
 * - the remaining budget goes to the other stale orders and the missing levels, nearest to the reference first;
 * - a missing level is not placed while one of the bot's own orders on the other side would cross it;
 * - the open orders never grow beyond `maxOpen` (the bot passes its ladder's size plus a little slack, well under
 *   the engine's limit of open orders per user and market): without room, stale orders are cancelled first.
 */
export function planRequote(open: readonly OpenQuote[], ladder: Ladder, refPrice: bigint, budget: number, maxOpen = Number.MAX_SAFE_INTEGER): RequotePlan {
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
  let left = budget; // the cancels of crossing orders come on top
  // Orders that may still be added before the open orders reach maxOpen.
  let room = maxOpen - (open.length - cancels.length);
  // Interleave: stale cancels and new places, nearest first, so the touch is repaired before the outer levels;
  // without room, the next stale order is cancelled first, however far.
  const places: LadderLevel[] = [];
  let si = 0;
  let mi = 0;
  while (left > 0 && (si < stale.length || mi < missing.length)) {
    const s = stale[si];
    const l = missing[mi];
    if (s && (!l || dist(s.price) <= dist(l.price) || room <= 0)) {
      cancels.push(s.orderId);
      si++;
      room++;
    } else if (l && room > 0) {
      mi++;
      places.push(l);
      room--;
    } else break;
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
