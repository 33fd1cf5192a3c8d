/**
 * Proves the bot's quoting rules with exact integers: levels on the tick grid, sizes on the step and at least
 * the minimum notional, bids below asks, stable sizes per level, and re-quote plans that keep matching levels,
 * always cancel crossing orders and never place a level against the bot's own resting order.
 */
import { describe, expect, it } from 'vitest';
import { quoteUnits } from '@exchange/core';
import {
  anchorOf,
  baseForQuote,
  computeLadder,
  cumulativeAt,
  ladderDepthWithin,
  planRequote,
  pow2Floor,
  qtyForNotional,
  recenter,
  referenceToTicks,
  ticksForBps,
  type Ladder,
  type LadderLevel,
  type LadderMarket,
  type LadderParams,
} from './ladder';
import { ladderParams } from './liquidity-bot';
import { BINANCE_BTCUSDT, BINANCE_ETHUSDT, ladderProfile } from './depth-profile';

/** BTC/USDT as in the catalogue: tick 0.01, step 0.00001, minNotional 5 USDT. */
const btcUsdt: LadderMarket = {
  priceDecimals: 2,
  qtyDecimals: 5,
  baseScale: 8,
  quoteScale: 8,
  tickSize: 1n,
  stepSize: 1n,
  minQty: 1n,
  minNotional: 500_000_000n,
};
/** DOGE/USDT: tick 0.00001, step 1 DOGE. */
const dogeUsdt: LadderMarket = {
  priceDecimals: 5,
  qtyDecimals: 0,
  baseScale: 8,
  quoteScale: 8,
  tickSize: 1n,
  stepSize: 1n,
  minQty: 1n,
  minNotional: 500_000_000n,
};
/** A market with coarser filters: tick 0.05, step 0.010, minQty 0.020. */
const coarse: LadderMarket = {
  priceDecimals: 2,
  qtyDecimals: 3,
  baseScale: 8,
  quoteScale: 8,
  tickSize: 5n,
  stepSize: 10n,
  minQty: 20n,
  minNotional: 500_000_000n,
};

/** Ladder parameters of BTC/USDT around 98582.10 on the Binance BTCUSDT profile, without size variation. */
const btcRef = 9_858_210n;
const btcProfile = ladderProfile(BINANCE_BTCUSDT, 1000n, 8);
const btcParams: LadderParams = { ...ladderParams(btcRef, { ...btcUsdt, symbol: 'BTC/USDT' }, btcProfile), variationPermille: 0 };

/** Notional (whole USDT) of one level. */
const usdt = (l: { price: bigint; quantity: bigint }) => quoteUnits(l.price, l.quantity, btcUsdt) / 100_000_000n;

describe('computeLadder', () => {
  it('opens a one-tick spread with a two-tick cluster behind each best price', () => {
    const l = computeLadder(btcRef, btcUsdt, btcParams);
    expect(l.bids.slice(0, 3).map((x) => x.price)).toEqual([9_858_210n, 9_858_209n, 9_858_208n]);
    expect(l.asks.slice(0, 3).map((x) => x.price)).toEqual([9_858_211n, 9_858_212n, 9_858_213n]);
    // spread 0.01 USDT = 1 tick (Binance: 1 tick 99% of the time)
    expect((l.asks[0]?.price ?? 0n) - (l.bids[0]?.price ?? 0n)).toBe(1n);
    // a spread of 3 ticks: best bid one tick below the reference, best ask two above
    const wide = computeLadder(btcRef, btcUsdt, { ...btcParams, spreadTicks: 3n });
    expect([wide.bids[0]?.price, wide.asks[0]?.price]).toEqual([9_858_209n, 9_858_212n]);
  });

  it('puts the profile best-level value at the touch, and levels further out hold more', () => {
    const l = computeLadder(btcRef, btcUsdt, btcParams);
    // 122,529 USDT at 98,582.10 = 1.24291 BTC (rounded down to the step)
    expect(l.bids[0]?.quantity).toBe(124_291n);
    expect(usdt(l.bids[0] as LadderLevel)).toBe(122_528n);
    // depth grows away from the mid: the outer half of the ladder holds more than the inner half, on each side
    for (const side of [l.bids, l.asks]) {
      const half = side.length >> 1;
      const inner = side.slice(1, half).reduce((a, x) => a + usdt(x), 0n);
      const outer = side.slice(half).reduce((a, x) => a + usdt(x), 0n);
      expect(outer > 3n * inner).toBe(true);
    }
  });

  it('follows the profile: the depth up to each level is the profile value at its distance, growing outwards', () => {
    const l = computeLadder(btcRef, btcUsdt, btcParams);
    for (const side of [l.bids, l.asks]) {
      let cum = 0n;
      side.forEach((lv, k) => {
        cum += quoteUnits(lv.price, lv.quantity, btcUsdt);
        const ppb = ((lv.price > btcRef ? lv.price - btcRef : btcRef - lv.price) * 1_000_000_000n) / btcRef;
        const want = cumulativeAt(btcProfile, ppb);
        // each level rounds down by less than one step (0.00001 BTC, ~1 USDT) and is raised to at least 5 USDT
        expect(cum <= want + BigInt(k + 1) * 500_000_000n && cum >= want - BigInt(k + 1) * 100_000_000n, `level ${k}`).toBe(true);
      });
    }
    // at the profile points from 1 bps out: 60-100% of the Binance figure (the farthest level inside a point may
    // lie up to a third nearer the mid), more at every further point, and nothing beyond 1%
    let prev = 0n;
    for (const [ppm, want] of BINANCE_BTCUSDT.points) {
      if (ppm < 100n) continue;
      for (const side of [l.bids, l.asks]) {
        const got = ladderDepthWithin(side, btcRef, ppm, btcUsdt) / 100_000_000n;
        expect(got, `${ppm} ppm`).toBeGreaterThanOrEqual((want * 60n) / 100n);
        expect(got, `${ppm} ppm`).toBeLessThanOrEqual((want * 1001n) / 1000n);
      }
      const both = ladderDepthWithin(l.bids, btcRef, ppm, btcUsdt) + ladderDepthWithin(l.asks, btcRef, ppm, btcUsdt);
      expect(both > prev).toBe(true);
      prev = both;
    }
    expect(ladderDepthWithin(l.bids, btcRef, 10_000n, btcUsdt)).toBe(l.bids.reduce((a, x) => a + quoteUnits(x.price, x.quantity, btcUsdt), 0n));
    expect(ladderDepthWithin(l.asks, btcRef, 10_000n, btcUsdt) * 100n).toBeGreaterThanOrEqual(BINANCE_BTCUSDT.points[10]![1] * 100_000_000n * 85n);
  });

  it('with the bot variation (+-30% a level) stays within 35% of the profile from 10 bps out', () => {
    const l = computeLadder(btcRef, btcUsdt, ladderParams(btcRef, { ...btcUsdt, symbol: 'BTC/USDT' }, btcProfile));
    for (const [ppm, want] of BINANCE_BTCUSDT.points) {
      if (ppm < 1000n) continue;
      for (const side of [l.bids, l.asks]) {
        const got = ladderDepthWithin(side, btcRef, ppm, btcUsdt) / 100_000_000n;
        expect(got * 100n >= want * 65n && got * 100n <= want * 135n, `${ppm} ppm: ${got} vs ${want}`).toBe(true);
      }
    }
  });

  it('keeps the outer levels for a small move of the reference (absolute grids)', () => {
    const a = computeLadder(btcRef, btcUsdt, btcParams);
    const b = computeLadder(btcRef + 50n, btcUsdt, btcParams); // +0.50 USDT
    const far = (x: LadderLevel) => (x.price > btcRef ? x.price - btcRef : btcRef - x.price) * 1_000_000n > 1000n * btcRef;
    expect(b.bids.filter(far).map((x) => x.price)).toEqual(a.bids.filter(far).map((x) => x.price));
    expect(b.asks.filter(far).map((x) => x.price)).toEqual(a.asks.filter(far).map((x) => x.price));
    expect(a.bids.filter(far).length).toBeGreaterThan(5);
  });

  it('respects tick, step, minQty and minNotional, never crossed, also for coarse ticks', () => {
    for (const [m, ref, scale] of [
      [dogeUsdt, 20_748n, 630n], // DOGE 0.20748: one tick is 0.48 bps
      [coarse, 11_835n, 100n],
      [btcUsdt, btcRef, 1000n],
    ] as const) {
      const p = ladderParams(ref, { ...m, symbol: 'X/USDT' }, ladderProfile(BINANCE_ETHUSDT, scale, 8));
      const on = ref - (ref % m.tickSize);
      const l = computeLadder(on, m, p);
      // coarse ticks skip the levels that would fall inside the ones before: fewer, still ten a side
      expect(l.bids.length).toBeGreaterThanOrEqual(10);
      expect(l.asks.length).toBeGreaterThanOrEqual(10);
      expect((l.bids[0] as LadderLevel).price < (l.asks[0] as LadderLevel).price).toBe(true);
      for (const lv of [...l.bids, ...l.asks]) {
        expect(lv.price % m.tickSize).toBe(0n);
        expect(lv.quantity % m.stepSize).toBe(0n);
        expect(lv.quantity >= m.minQty).toBe(true);
        expect(quoteUnits(lv.price, lv.quantity, m) >= m.minNotional).toBe(true);
        // within 1% of the reference
        expect((lv.price > on ? lv.price - on : on - lv.price) * 100n <= on).toBe(true);
      }
      for (let i = 1; i < l.bids.length; i++) expect((l.bids[i] as LadderLevel).price < (l.bids[i - 1] as LadderLevel).price).toBe(true);
      for (let i = 1; i < l.asks.length; i++) expect((l.asks[i] as LadderLevel).price > (l.asks[i - 1] as LadderLevel).price).toBe(true);
      // deterministic: same inputs, same sizes
      expect(computeLadder(on, m, p)).toEqual(l);
    }
  });

  it('refuses a non-positive reference, a zero spread and a zero anchor', () => {
    expect(() => computeLadder(0n, btcUsdt, btcParams)).toThrow(RangeError);
    expect(() => computeLadder(1n, btcUsdt, { ...btcParams, spreadTicks: 0n })).toThrow(RangeError);
    expect(() => computeLadder(1n, btcUsdt, { ...btcParams, anchor: 0n })).toThrow(RangeError);
  });
});

describe('profile helpers', () => {
  const profile = [
    { ppm: 0n, notional: 100n },
    { ppm: 10n, notional: 200n },
    { ppm: 100n, notional: 1100n },
  ];
  it('interpolates the cumulative profile linearly in ppb', () => {
    expect(cumulativeAt(profile, 0n)).toBe(100n);
    expect(cumulativeAt(profile, 5_000n)).toBe(150n); // 5 ppm
    expect(cumulativeAt(profile, 10_000n)).toBe(200n);
    expect(cumulativeAt(profile, 55_000n)).toBe(650n);
    expect(cumulativeAt(profile, 1_000_000n)).toBe(1100n); // beyond the last point
    expect(cumulativeAt([], 5n)).toBe(0n);
  });
  it('anchors on the top five binary digits and recentres past the hysteresis', () => {
    expect(anchorOf(9_858_210n)).toBe(9_437_184n); // 0b10010 << 19
    expect(anchorOf(9_437_184n + 524_287n)).toBe(9_437_184n);
    expect(anchorOf(17n)).toBe(17n);
    expect(recenter(null, 1_000_000n, 50n)).toBe(1_000_000n);
    expect(recenter(1_000_000n, 1_000_050n, 50n)).toBe(1_000_000n); // exactly 50 ppm: stays
    expect(recenter(1_000_000n, 1_000_051n, 50n)).toBe(1_000_051n);
    expect(recenter(1_000_000n, 999_940n, 50n)).toBe(999_940n);
  });
  it('scales a profile into a quote coin', () => {
    // 50% of ETHUSDT's best level (26,452 USDT) in BTC at 100,000 USDT per BTC = 0.13226 BTC
    expect(ladderProfile(BINANCE_ETHUSDT, 500n, 8, 10_000_000_000_000n)[0]).toEqual({ ppm: 0n, notional: 13_226_000n });
    expect(ladderProfile(BINANCE_BTCUSDT, 1000n, 8)[10]).toEqual({ ppm: 10_000n, notional: 942_717_100_000_000n });
  });
});

describe('helpers', () => {
  it('converts reference strings to ticks (half up, on the tick)', () => {
    expect(referenceToTicks('98582.104', 2, 1n)).toBe(9_858_210n);
    expect(referenceToTicks('98582.105', 2, 1n)).toBe(9_858_211n);
    expect(referenceToTicks('0.0345678', 5, 1n)).toBe(3_457n);
    expect(referenceToTicks('1.23', 2, 5n)).toBe(125n);
    expect(referenceToTicks('0.000001', 2, 1n)).toBe(1n);
  });
  it('sizes, spacing and funding', () => {
    expect(ticksForBps(9_858_210n, 1n, 3n)).toBe(2957n);
    expect(ticksForBps(12_536n, 1n, 3n)).toBe(3n);
    expect(ticksForBps(1_200n, 1n, 3n)).toBe(1n);
    expect(pow2Floor(9_858_210n)).toBe(8_388_608n);
    expect(pow2Floor(1n)).toBe(1n);
    expect(qtyForNotional(500_000_000n, 11_835n, coarse)).toBe(50n); // 5 / 118.35 = 0.0423 -> 0.050 (step 0.010)
    expect(qtyForNotional(1n, 11_835n, coarse)).toBe(20n); // minQty 0.020
    // 1,200,000 USDT at 98582.10 = 12.172595223 BTC, rounded down to the satoshi
    expect(baseForQuote(120_000_000_000_000n, 9_858_210n, btcUsdt)).toBe(1_217_259_522n);
  });
});

describe('planRequote', () => {
  /** A hand-made ladder around 10000.00: bids 9999.90..9999.70, asks 10000.10..10000.30. */
  const ladder: Ladder = {
    bids: [
      { side: 'BUY', price: 999_990n, quantity: 1000n },
      { side: 'BUY', price: 999_980n, quantity: 1500n },
      { side: 'BUY', price: 999_970n, quantity: 2000n },
    ],
    asks: [
      { side: 'SELL', price: 1_000_010n, quantity: 999n },
      { side: 'SELL', price: 1_000_020n, quantity: 1499n },
      { side: 'SELL', price: 1_000_030n, quantity: 1999n },
    ],
  };
  /** The same ladder shifted by `d` price units. */
  const shifted = (d: bigint): Ladder => ({
    bids: ladder.bids.map((l) => ({ ...l, price: l.price + d })),
    asks: ladder.asks.map((l) => ({ ...l, price: l.price + d })),
  });
  it('builds the whole ladder from nothing, nearest levels first', () => {
    const plan = planRequote([], ladder, 1_000_000n, 100);
    expect(plan.cancels).toEqual([]);
    expect(plan.places.map((l) => `${l.side}@${l.price}`)).toEqual(['BUY@999990', 'SELL@1000010', 'BUY@999980', 'SELL@1000020', 'BUY@999970', 'SELL@1000030']);
  });
  it('keeps matching levels and replaces only what moved, within the budget', () => {
    const open = [
      { orderId: '1', side: 'BUY' as const, price: 999_990n },
      { orderId: '2', side: 'BUY' as const, price: 999_980n },
      { orderId: '3', side: 'BUY' as const, price: 999_960n }, // stale (outer)
      { orderId: '4', side: 'SELL' as const, price: 1_000_010n },
      { orderId: '5', side: 'SELL' as const, price: 1_000_020n },
      { orderId: '9', side: 'SELL' as const, price: 1_000_020n }, // duplicate level
    ];
    expect(planRequote(open, ladder, 1_000_000n, 10)).toEqual({
      cancels: ['9', '3'],
      places: [
        { side: 'BUY', price: 999_970n, quantity: 2000n },
        { side: 'SELL', price: 1_000_030n, quantity: 1999n },
      ],
    });
    // budget 2: the nearest two actions (the duplicate is as near as its level, then the outer bid level)
    expect(planRequote(open, ladder, 1_000_000n, 2)).toEqual({ cancels: ['9'], places: [{ side: 'BUY', price: 999_970n, quantity: 2000n }] });
  });
  it('always cancels orders that would cross the new ladder and never places against own resting orders', () => {
    // the reference jumped from 1000000 up to 1000100: old asks 1000010/1000020 are now below the new best bid
    const up = shifted(100n); // bids 1000090.., asks 1000110..
    const open = [
      { orderId: 'a1', side: 'SELL' as const, price: 1_000_010n },
      { orderId: 'a2', side: 'SELL' as const, price: 1_000_020n },
      { orderId: 'a3', side: 'SELL' as const, price: 1_000_095n }, // stale, between the new best bid and ask
    ];
    // the crossing cancels come on top of the budget; the budget of 1 goes to the nearest stale order, a3
    const plan = planRequote(open, up, 1_000_100n, 1);
    expect(plan.cancels).toEqual(['a1', 'a2', 'a3']);
    expect(plan.places).toEqual([]);
    expect(planRequote(open, up, 1_000_100n, 0)).toEqual({ cancels: ['a1', 'a2'], places: [] });
    const plan2 = planRequote(open.slice(2), up, 1_000_100n, 2);
    // a3 (stale, 5 below ref) is cancelled first, then the best bid 1000090 may go in
    expect(plan2).toEqual({ cancels: ['a3'], places: [{ side: 'BUY', price: 1_000_090n, quantity: (up.bids[0] as { quantity: bigint }).quantity }] });
  });
  it('renews a level that fills left below 30% of its size', () => {
    const open = [
      { orderId: 'p', side: 'BUY' as const, price: 999_990n, remaining: 299n }, // 299 of 1000: renewed
      { orderId: 'q', side: 'BUY' as const, price: 999_980n, remaining: 450n }, // 450 of 1500 = 30%: kept
    ];
    const two: Ladder = { bids: ladder.bids.slice(0, 2), asks: ladder.asks.slice(0, 2) };
    const plan = planRequote(open, two, 1_000_000n, 3);
    expect(plan).toEqual({
      cancels: ['p'],
      places: [
        { side: 'BUY', price: 999_990n, quantity: 1000n },
        { side: 'SELL', price: 1_000_010n, quantity: 999n },
      ],
    });
  });
  it('cancels stale orders before placing once the open orders reach maxOpen', () => {
    const open = [
      { orderId: 's1', side: 'BUY' as const, price: 999_900n }, // stale, far
      { orderId: 's2', side: 'SELL' as const, price: 1_000_100n }, // stale, far
      { orderId: 'k1', side: 'BUY' as const, price: 999_990n }, // kept
    ];
    // room for 5 open orders, 3 now: two places nearest first, then a far stale order is cancelled to make room
    // for the next place; the open orders end at 3 - 1 + 3 = 5
    expect(planRequote(open, ladder, 1_000_000n, 4, 5)).toEqual({
      cancels: ['s1'],
      places: [
        { side: 'SELL', price: 1_000_010n, quantity: 999n },
        { side: 'BUY', price: 999_980n, quantity: 1500n },
        { side: 'SELL', price: 1_000_020n, quantity: 1499n },
      ],
    });
    // no room at all: every action of the budget is a cancel first, then places into the room it made
    expect(planRequote(open, ladder, 1_000_000n, 3, 3)).toEqual({ cancels: ['s1', 's2'], places: [{ side: 'SELL', price: 1_000_010n, quantity: 999n }] });
  });
  it('does not place a bid at or above an own ask that stays in the book', () => {
    const l = { bids: [{ side: 'BUY' as const, price: 100n, quantity: 1n }], asks: [{ side: 'SELL' as const, price: 110n, quantity: 1n }] };
    const open = [{ orderId: 'x', side: 'SELL' as const, price: 100n }]; // crossing -> forced cancel, so bid is safe
    expect(planRequote(open, l, 105n, 5).places.map((p) => p.price)).toEqual([100n, 110n]);
    const open2 = [{ orderId: 'y', side: 'SELL' as const, price: 104n }]; // stale but budget 1 -> cancel y first, nothing placed
    expect(planRequote(open2, l, 105n, 1)).toEqual({ cancels: ['y'], places: [] });
  });
});
