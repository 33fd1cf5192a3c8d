/**
 * Proves the bot's quoting rules with exact integers: levels on the tick grid, sizes on the step and at least
 * the minimum notional, bids below asks, stable sizes per level, and re-quote plans that keep matching levels,
 * always cancel crossing orders and never place a level against the bot's own resting order.
 */
import { describe, expect, it } from 'vitest';
import { quoteUnits } from '@exchange/core';
import { baseForQuote, computeLadder, planRequote, pow2Floor, qtyForNotional, referenceToTicks, ticksForBps, type LadderMarket, type LadderParams } from './ladder';
import { ladderParams } from './liquidity-bot';

/** BTC/USDT as in the catalogue: tick 0.01, step 0.00001, minNotional 5 USDT. */
const btcUsdt: LadderMarket = { priceDecimals: 2, qtyDecimals: 5, baseScale: 8, quoteScale: 8, tickSize: 1n, stepSize: 1n, minQty: 1n, minNotional: 500_000_000n };
/** DOGE/USDT: tick 0.00001, step 1 DOGE. */
const dogeUsdt: LadderMarket = { priceDecimals: 5, qtyDecimals: 0, baseScale: 8, quoteScale: 8, tickSize: 1n, stepSize: 1n, minQty: 1n, minNotional: 500_000_000n };
/** A market with coarser filters: tick 0.05, step 0.010, minQty 0.020. */
const coarse: LadderMarket = { priceDecimals: 2, qtyDecimals: 3, baseScale: 8, quoteScale: 8, tickSize: 5n, stepSize: 10n, minQty: 20n, minNotional: 500_000_000n };

const plain: LadderParams = {
  levels: 3,
  halfSpreadTicks: 5n,
  levelSpacingTicks: 10n,
  baseNotional: 10_000_000_000n, // 100 USDT
  growthPermille: 500n,
  variationPermille: 0,
  seed: 1,
};

describe('computeLadder', () => {
  it('puts levels on the spacing grid around 10000.00 with sizes floored to the step', () => {
    expect(computeLadder(1_000_000n, btcUsdt, plain)).toEqual({
      bids: [
        { side: 'BUY', price: 999_990n, quantity: 1000n }, // 100 USDT / 9999.90 = 0.0100001 -> 0.01000
        { side: 'BUY', price: 999_980n, quantity: 1500n },
        { side: 'BUY', price: 999_970n, quantity: 2000n },
      ],
      asks: [
        { side: 'SELL', price: 1_000_010n, quantity: 999n }, // 100 USDT / 10000.10 = 0.0099999 -> 0.00999
        { side: 'SELL', price: 1_000_020n, quantity: 1499n },
        { side: 'SELL', price: 1_000_030n, quantity: 1999n },
      ],
    });
  });

  it('keeps the same levels for a small move of the reference (fixed grid)', () => {
    const a = computeLadder(1_000_000n, btcUsdt, plain);
    const b = computeLadder(1_000_004n, btcUsdt, plain);
    expect(b).toEqual(a);
    const c = computeLadder(1_000_006n, btcUsdt, plain); // crosses one grid point on each side
    expect(c.bids.map((l) => l.price)).toEqual([1_000_000n, 999_990n, 999_980n]);
    expect(c.asks.map((l) => l.price)).toEqual([1_000_020n, 1_000_030n, 1_000_040n]);
  });

  it('raises a level to the minimum notional', () => {
    const tiny = computeLadder(1_000_000n, btcUsdt, { ...plain, baseNotional: 100_000_000n, levels: 1 });
    // 5 USDT / 9999.90 = 0.000500005 -> 0.00051 (0.00050 is 4.99995 USDT)
    expect(tiny.bids[0]).toEqual({ side: 'BUY', price: 999_990n, quantity: 51n });
    expect(quoteUnits(999_990n, 51n, btcUsdt)).toBe(509_994_900n);
    expect(quoteUnits(999_990n, 50n, btcUsdt) < 500_000_000n).toBe(true);
  });

  it('respects tick, step, minQty and minNotional with seeded size variation, never crossed', () => {
    for (const [m, ref] of [
      [dogeUsdt, 12_536n],
      [coarse, 11_835n],
      [btcUsdt, 9_858_210n],
    ] as const) {
      const p = ladderParams(ref, { ...m, symbol: 'X/USDT' });
      const l = computeLadder(ref - (ref % m.tickSize), m, p);
      expect(l.bids).toHaveLength(12);
      expect(l.asks).toHaveLength(12);
      expect((l.bids[0] as { price: bigint }).price < (l.asks[0] as { price: bigint }).price).toBe(true);
      for (const lv of [...l.bids, ...l.asks]) {
        expect(lv.price % m.tickSize).toBe(0n);
        expect(lv.quantity % m.stepSize).toBe(0n);
        expect(lv.quantity >= m.minQty).toBe(true);
        expect(quoteUnits(lv.price, lv.quantity, m) >= m.minNotional).toBe(true);
      }
      for (let i = 1; i < 12; i++) {
        expect((l.bids[i] as { price: bigint }).price < (l.bids[i - 1] as { price: bigint }).price).toBe(true);
        expect((l.asks[i] as { price: bigint }).price > (l.asks[i - 1] as { price: bigint }).price).toBe(true);
      }
      // deterministic: same inputs, same sizes
      expect(computeLadder(ref - (ref % m.tickSize), m, p)).toEqual(l);
    }
  });

  it('varies sizes by the seed within +-30% of the target', () => {
    const p = ladderParams(9_858_210n, { ...btcUsdt, symbol: 'BTC/USDT' });
    expect(p).toMatchObject({ halfSpreadTicks: 2516n, levelSpacingTicks: 4194n, baseNotional: 80_000_000_000n }); // 2^23 = 8388608 ticks anchor
    const l = computeLadder(9_858_210n, btcUsdt, p);
    const sizes = new Set(l.bids.map((x) => x.quantity));
    expect(sizes.size).toBe(12);
    const q0 = (l.bids[0] as { quantity: bigint }).quantity; // about 800 USDT at ~98575
    expect(q0 >= 568n && q0 <= 1056n).toBe(true);
  });

  it('refuses a non-positive reference and a zero spacing', () => {
    expect(() => computeLadder(0n, btcUsdt, plain)).toThrow(RangeError);
    expect(() => computeLadder(1n, btcUsdt, { ...plain, levelSpacingTicks: 0n })).toThrow(RangeError);
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
  const ladder = computeLadder(1_000_000n, btcUsdt, plain); // bids 999990..999970, asks 1000010..1000030
  it('builds the whole ladder from nothing, nearest levels first', () => {
    const plan = planRequote([], ladder, 1_000_000n, 100);
    expect(plan.cancels).toEqual([]);
    expect(plan.places.map((l) => `${l.side}@${l.price}`)).toEqual([
      'BUY@999990', 'SELL@1000010', 'BUY@999980', 'SELL@1000020', 'BUY@999970', 'SELL@1000030',
    ]);
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
    const up = computeLadder(1_000_100n, btcUsdt, plain); // bids 1000090.., asks 1000110..
    const open = [
      { orderId: 'a1', side: 'SELL' as const, price: 1_000_010n },
      { orderId: 'a2', side: 'SELL' as const, price: 1_000_020n },
      { orderId: 'a3', side: 'SELL' as const, price: 1_000_095n }, // stale, between the new best bid and ask
    ];
    const plan = planRequote(open, up, 1_000_100n, 1);
    expect(plan.cancels).toEqual(['a1', 'a2']);
    expect(plan.places).toEqual([]); // budget spent by the forced cancels
    const plan2 = planRequote(open.slice(2), up, 1_000_100n, 2);
    // a3 (stale, 5 below ref) is cancelled first, then the best bid 1000090 may go in
    expect(plan2).toEqual({ cancels: ['a3'], places: [{ side: 'BUY', price: 1_000_090n, quantity: (up.bids[0] as { quantity: bigint }).quantity }] });
  });
  it('renews a level that fills left below 30% of its size', () => {
    const open = [
      { orderId: 'p', side: 'BUY' as const, price: 999_990n, remaining: 299n }, // 299 of 1000: renewed
      { orderId: 'q', side: 'BUY' as const, price: 999_980n, remaining: 450n }, // 450 of 1500 = 30%: kept
    ];
    const plan = planRequote(open, computeLadder(1_000_000n, btcUsdt, { ...plain, levels: 2 }), 1_000_000n, 3);
    expect(plan).toEqual({
      cancels: ['p'],
      places: [
        { side: 'BUY', price: 999_990n, quantity: 1000n },
        { side: 'SELL', price: 1_000_010n, quantity: 999n },
      ],
    });
  });
  it('does not place a bid at or above an own ask that stays in the book', () => {
    const l = { bids: [{ side: 'BUY' as const, price: 100n, quantity: 1n }], asks: [{ side: 'SELL' as const, price: 110n, quantity: 1n }] };
    const open = [{ orderId: 'x', side: 'SELL' as const, price: 100n }]; // crossing -> forced cancel, so bid is safe
    expect(planRequote(open, l, 105n, 5).places.map((p) => p.price)).toEqual([100n, 110n]);
    const open2 = [{ orderId: 'y', side: 'SELL' as const, price: 104n }]; // stale but budget 1 -> cancel y first, nothing placed
    expect(planRequote(open2, l, 105n, 1)).toEqual({ cancels: ['y'], places: [] });
  });
});
