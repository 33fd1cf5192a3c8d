/**
 * Unit tests of perp/math.ts against worked examples of the Binance USDⓈ-M futures documentation (each test names
 * its source) plus properties of the exact integer versions (rounding against the user, tier continuity, the
 * liquidation price at the real trigger). Market of the examples: a BTCUSDT-like perpetual with price 10^-1 USDT
 * (tick 0.1), quantity 10^-3 BTC (step 0.001) and USDT of scale 8, so price * qty * 10^4 is quote units (1e-8 USDT).
 *
 * Sources (Binance Support FAQ, USDⓈ-M futures):
 *  [LIQ]  "How to Calculate Liquidation Price of USDⓈ-M Futures Contracts",
 *         https://www.binance.com/en/support/faq/b3c689c1f50a44cabb3a84e663b81d93
 *  [LEV]  "Leverage and Margin of USDⓈ-M Futures", https://www.binance.com/en/support/faq/360033162192 and the
 *         trading rules' "Maintenance Margin = Notional Position Value * Maintenance Margin Rate - Maintenance Amount"
 *         (https://www.binance.com/en/futures/trading-rules/perpetual/portfolio-margin/notional-limit)
 *  [MARK] "Mark Price in USDⓈ-M futures", https://www.binance.com/en/support/faq/360033525071
 *  [FUND] "Introduction to Binance Futures Funding Rates", https://www.binance.com/en/support/faq/360033525031
 *         (F = P + clamp(I - P, 0.05%, -0.05%), I = 0.01% per 8 h, P the time-weighted average premium index with
 *         weights 1..n; "if the premium index is within -0.04% and 0.06%, the funding rate equals 0.01%"; the capped
 *         rate clamp(F, +-0.75 * maintenance margin rate), 0.3% for BTCUSDT's 0.4%; funding = notional * rate).
 *  The BTCUSDT bracket table (caps, rates, maintenance amounts 0 / 50 / 1,300 / 16,300 / ...) is [LIQ]'s table, the
 *  same as the one reverse-engineered from Binance's UI in gist highfestiva/b71e76f51eed84d56c1be8ebbcc286b5.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LeverageBracket } from './types';
import {
  bracketTiers,
  closeLotsQty,
  entryPriceOf,
  fundingPayment,
  fundingRateE8,
  fundingTimeAtOrBefore,
  initialMargin,
  liquidationPrice,
  lotsToQty,
  maintMargin,
  maintMarginE6,
  markPriceOf,
  maxLeverageFor,
  maxLots,
  maxNotionalFor,
  maxRemovableMargin,
  notionalOf,
  orderCost,
  perpFee,
  perpNotionalMult,
  positionLots,
  premiumIndexE8,
  qtyToLots,
  tierOf,
  toSafeInt,
  unrealizedPnl,
  yieldRatePpm,
} from './math';

/** n USDT in quote units (scale 8); n may be a decimal string. */
function usdt(n: number | string): bigint {
  const [i, f = ''] = String(n).split('.');
  return BigInt(i as string) * 100_000_000n + BigInt((f + '00000000').slice(0, 8)) * (String(n).startsWith('-') ? -1n : 1n);
}
/** price in price units (0.1 USDT). */
const px = (p: number): bigint => BigInt(Math.round(p * 10));
/** BTC in qty units (0.001). */
const btc = (q: number): bigint => BigInt(Math.round(q * 1000));
const MULT = perpNotionalMult(8, 1, 3);

/** [LIQ]'s BTCUSDT table: cap (USDT), maintenance margin rate, max leverage. */
const BTC_BRACKETS: LeverageBracket[] = [
  [50_000, 4_000, 125],
  [250_000, 5_000, 100],
  [1_000_000, 10_000, 50],
  [10_000_000, 25_000, 20],
  [20_000_000, 50_000, 10],
  [50_000_000, 100_000, 5],
  [100_000_000, 125_000, 4],
  [200_000_000, 150_000, 3],
  [300_000_000, 250_000, 2],
  [500_000_000, 500_000, 1],
].map(([cap, mmr, lev]) => ({ notionalCap: usdt(cap as number), maintMarginPpm: mmr as number, maxLeverage: lev as number }));
const TIERS = bracketTiers(BTC_BRACKETS);

describe('notional multiplier and lots (spec section 9: 1000 USDT per lot at the order price)', () => {
  it('mult = 10^(8 - 1 - 3); a price * qty is quote units', () => {
    expect(MULT).toBe(10_000n);
    expect(px(40_000) * btc(0.25) * MULT).toBe(usdt(10_000));
    expect(() => perpNotionalMult(8, 6, 3)).toThrow(RangeError);
  });
  it('2 lots at 40,000 = 0.05 BTC; at 30,000 = 0.066 BTC (0.0666.. rounded down to the step)', () => {
    expect(lotsToQty(2n, px(40_000), usdt(1000), 1n, MULT)).toBe(btc(0.05));
    expect(lotsToQty(2n, px(30_000), usdt(1000), 1n, MULT)).toBe(btc(0.066));
    expect(lotsToQty(2n, px(30_000), usdt(1000), 10n, MULT)).toBe(btc(0.06));
    expect(lotsToQty(0n, px(30_000), usdt(1000), 1n, MULT)).toBe(0n);
    expect(lotsToQty(3n, 0n, usdt(1000), 1n, MULT)).toBe(0n);
  });
  it('qtyToLots rounds down: 0.05 BTC at 40,000 is 2 lots, 0.066 BTC at 30,000 is 1 lot (1,980 USDT)', () => {
    expect(qtyToLots(btc(0.05), px(40_000), usdt(1000), MULT)).toBe(2n);
    expect(qtyToLots(btc(0.066), px(30_000), usdt(1000), MULT)).toBe(1n);
  });
});

describe('leverage brackets [LIQ] [LEV]', () => {
  it('maintenance amounts of BTCUSDT: 0, 50, 1,300, 16,300, 266,300, 1,266,300, 2,516,300, 5,016,300, 25,016,300, 100,016,300 USDT', () => {
    const cums = TIERS.map((t) => t.cumE6 / 1_000_000n);
    expect(cums).toEqual([0, 50, 1_300, 16_300, 266_300, 1_266_300, 2_516_300, 5_016_300, 25_016_300, 100_016_300].map((n) => usdt(n)));
    for (const t of TIERS) expect(t.cumE6 % 1_000_000n).toBe(0n);
  });
  it('[LIQ] "Maintenance Amount on Level 3 = 250,000 * (1% - 0.5%) + 50 USDT = 1,300 USDT"', () => {
    expect(TIERS[2]!.notionalFloor).toBe(usdt(250_000));
    expect(TIERS[2]!.cumE6).toBe(usdt(250_000) * (10_000n - 5_000n) + usdt(50) * 1_000_000n);
    expect(TIERS[2]!.cumE6).toBe(usdt(1_300) * 1_000_000n);
  });
  it('[LIQ] "position 264,000 USDT: maintenance margin rate 1%"; "500,000 USDT: maintenance amount 1,300 USDT"', () => {
    expect(tierOf(TIERS, usdt(264_000))?.maintMarginPpm).toBe(10_000);
    expect(tierOf(TIERS, usdt(500_000))?.cumE6).toBe(usdt(1_300) * 1_000_000n);
    // caps are inclusive; a notional above the last cap is beyond the risk limit
    expect(tierOf(TIERS, usdt(50_000))?.maintMarginPpm).toBe(4_000);
    expect(tierOf(TIERS, usdt(50_000) + 1n)?.maintMarginPpm).toBe(5_000);
    expect(tierOf(TIERS, usdt(500_000_000) + 1n)).toBeUndefined();
  });
  it('[LEV] maintenance margin = notional * MMR - maintenance amount: 500,000 USDT -> 3,700 USDT; 40,000 -> 160', () => {
    expect(maintMargin(TIERS, usdt(500_000))).toBe(usdt(3_700));
    expect(maintMargin(TIERS, usdt(40_000))).toBe(usdt(160));
    // "tax bracket": continuous at every cap (250,000 * 0.5% - 50 = 250,000 * 1% - 1,300 = 1,200)
    expect(maintMargin(TIERS, usdt(250_000))).toBe(usdt(1_200));
    for (let i = 0; i + 1 < TIERS.length; i++) {
      const cap = TIERS[i]!.notionalCap;
      const lo = BigInt(TIERS[i]!.maintMarginPpm) * cap - TIERS[i]!.cumE6;
      const hi = BigInt(TIERS[i + 1]!.maintMarginPpm) * cap - TIERS[i + 1]!.cumE6;
      expect(hi).toBe(lo);
    }
    // rounded up to the quote unit: 1 quote unit at 0.4% is 0.004 -> 1
    expect(maintMargin(TIERS, 1n)).toBe(1n);
    expect(maintMarginE6(TIERS, 1n)).toBe(4_000n);
  });
  it('[LEV] max leverage by notional and max notional by leverage (125x up to 50,000; 20x up to 10,000,000)', () => {
    expect(maxLeverageFor(TIERS, usdt(50_000))).toBe(125);
    expect(maxLeverageFor(TIERS, usdt(50_001))).toBe(100);
    expect(maxLeverageFor(TIERS, usdt(600_000_000))).toBe(0);
    expect(maxNotionalFor(TIERS, 125)).toBe(usdt(50_000));
    expect(maxNotionalFor(TIERS, 20)).toBe(usdt(10_000_000));
    expect(maxNotionalFor(TIERS, 21)).toBe(usdt(1_000_000));
    expect(maxNotionalFor(TIERS, 1)).toBe(usdt(500_000_000));
    expect(maxNotionalFor(TIERS, 126)).toBe(0n);
  });
});

describe('margin, fees, PnL', () => {
  it('[LEV] initial margin = notional / leverage: 10,000 USDT at 20x = 500; rounded up', () => {
    expect(initialMargin(usdt(10_000), 20)).toBe(usdt(500));
    expect(initialMargin(10n, 3)).toBe(4n);
    expect(initialMargin(-10n, 3)).toBe(4n);
  });
  it('fees: 10,000 USDT at taker 0.05% = 5 USDT; order cost = margin + taker fee; rounded up', () => {
    expect(perpFee(usdt(10_000), 500)).toBe(usdt(5));
    expect(perpFee(1n, 500)).toBe(1n);
    expect(perpFee(0n, 500)).toBe(0n);
    expect(orderCost(usdt(10_000), 20, 500)).toBe(usdt(505));
  });
  it('unrealized PnL of 0.25 BTC bought at 40,000 (cost 10,000) at 44,000: long +1,000, short -1,000', () => {
    const cost = px(40_000) * btc(0.25) * MULT;
    expect(unrealizedPnl('LONG', btc(0.25), cost, px(44_000), MULT)).toBe(usdt(1_000));
    expect(unrealizedPnl('SHORT', btc(0.25), cost, px(44_000), MULT)).toBe(usdt(-1_000));
    expect(yieldRatePpm(usdt(1_000), usdt(500))).toBe(2_000_000);
    expect(yieldRatePpm(usdt(-1), 0n)).toBe(0);
  });
  it('entry price = cost / size rounded half up (0.001 BTC at 40,000.0 + 0.002 at 40,000.1 -> 40,000.07 -> 40,000.1)', () => {
    const cost = px(40_000) * btc(0.001) * MULT + px(40_000.1) * btc(0.002) * MULT;
    expect(entryPriceOf(cost, btc(0.003), MULT)).toBe(px(40_000.1));
    expect(entryPriceOf(px(40_000) * 2n * MULT + px(40_000.1) * MULT, 3n, MULT)).toBe(px(40_000)); // .033 -> down
    expect(entryPriceOf(1n, 0n, MULT)).toBe(0n);
  });
  it('maxLots is the largest n whose cost fits (checked against a scan), capped by the leverage bracket', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: usdt(200_000) }),
        fc.integer({ min: 1000, max: 100_000 }),
        fc.integer({ min: 1, max: 125 }),
        (avail, price, lev) => {
          const p = px(price);
          const n = maxLots(avail, p, lev, 500, usdt(1000), 1n, MULT, TIERS);
          const fits = (k: bigint): boolean => {
            const q = lotsToQty(k, p, usdt(1000), 1n, MULT);
            const notional = q * p * MULT;
            return q > 0n && notional <= maxNotionalFor(TIERS, lev) && orderCost(notional, lev, 500) <= avail;
          };
          if (n > 0n) expect(fits(n)).toBe(true);
          expect(fits(n + 1n)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('max removable margin of an isolated position (the rule of perpAdjustMargin)', () => {
  it('0.25 BTC long at 10x bought at 40,000 (cost 10,000, margin 1,000): at 40,000 nothing; +200 added -> 200; a profit does not count', () => {
    const cost = px(40_000) * btc(0.25) * MULT;
    const at = (mark: number, margin: bigint) => {
      const notional = px(mark) * btc(0.25) * MULT;
      return maxRemovableMargin(margin, notional, unrealizedPnl('LONG', btc(0.25), cost, px(mark), MULT), 10);
    };
    expect(at(40_000, usdt(1_000))).toBe(0n);
    expect(at(40_000, usdt(1_200))).toBe(usdt(200));
    // +10%: the notional's initial margin grows to 1,100 and the 1,000 profit does not count -> 100 of 1,200
    expect(at(44_000, usdt(1_200))).toBe(usdt(100));
    // -4%: a 400 loss and initial margin 960 -> 1,500 - 400 - 960 = 140
    expect(at(38_400, usdt(1_500))).toBe(usdt(140));
    // under water: never negative
    expect(at(30_000, usdt(1_000))).toBe(0n);
  });
  it('is the largest amount the engine rule accepts: out <= margin and margin - out + min(upnl, 0) >= initial margin', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: usdt(10_000) }),
        fc.bigInt({ min: 1n, max: usdt(100_000) }),
        fc.bigInt({ min: -usdt(5_000), max: usdt(5_000) }),
        fc.integer({ min: 1, max: 125 }),
        (margin, notional, upnl, lev) => {
          const max = maxRemovableMargin(margin, notional, upnl, lev);
          const accepts = (out: bigint) => out <= margin && margin - out + (upnl < 0n ? upnl : 0n) >= initialMargin(notional, lev);
          expect(max >= 0n && max <= margin).toBe(true);
          if (max > 0n) expect(accepts(max)).toBe(true);
          expect(accepts(max + 1n)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('liquidation price [LIQ]: LP = (WB + cum - side * size * EP) / (size * MMR - side * size)', () => {
  it('isolated long 1 BTC at 10,000 with 1,000 USDT (10x): (1,000 - 10,000) / (0.004 - 1) = 9,036.144.. -> 9,036.2 (towards the mark)', () => {
    expect(liquidationPrice('LONG', btc(1), usdt(10_000), usdt(1_000), TIERS, MULT)).toBe(px(9_036.2));
  });
  it('isolated short 1 BTC at 10,000 with 1,000 USDT: (1,000 + 10,000) / (0.004 + 1) = 10,956.175.. -> 10,956.1', () => {
    expect(liquidationPrice('SHORT', btc(1), usdt(10_000), usdt(1_000), TIERS, MULT)).toBe(px(10_956.1));
  });
  it('[LIQ] "if the position at the liquidation price is in another level, substitute that level": long 10 BTC at 30,000 with 30,000 USDT', () => {
    // level 1: 270,000 / 9.96 = 27,108.4 -> notional 271,084 > 50,000; level 2: 269,950 / 9.95 = 27,130.7 -> 271,307 > 250,000;
    // level 3: (30,000 + 1,300 - 300,000) / (10 * 0.01 - 10) = 268,700 / 9.9 = 27,141.414.. -> notional 271,414 in (250,000, 1,000,000]
    expect(liquidationPrice('LONG', btc(10), usdt(300_000), usdt(30_000), TIERS, MULT)).toBe(px(27_141.5));
  });
  it('a long whose wallet covers the whole cost cannot be liquidated (0n); a short always has a price', () => {
    expect(liquidationPrice('LONG', btc(1), usdt(10_000), usdt(10_000), TIERS, MULT)).toBe(0n);
    expect(liquidationPrice('LONG', 0n, 0n, 0n, TIERS, MULT)).toBeNull();
    expect(liquidationPrice('SHORT', btc(1), usdt(10_000), usdt(50_000), TIERS, MULT)).toBe(px(59_751.2)); // level 1: 60,000 / 1.004 = 59,761 > 50,000; level 2: 60,050 / 1.005 = 59,751.24
  });
  it('property: the estimate is at the trigger: one tick beyond it the equity is below the maintenance margin, at it not', () => {
    // exact equity vs maintenance margin, both times 1e6, no rounding
    const equityE6 = (side: 'LONG' | 'SHORT', size: bigint, cost: bigint, wb: bigint, p: bigint): bigint =>
      (wb + unrealizedPnl(side, size, cost, p, MULT)) * 1_000_000n;
    fc.assert(
      fc.property(
        fc.constantFrom<'LONG' | 'SHORT'>('LONG', 'SHORT'),
        fc.integer({ min: 1, max: 50_000 }), // size, 0.001 BTC
        fc.integer({ min: 10_000, max: 1_000_000 }), // entry price, 0.1 USDT
        fc.integer({ min: 1, max: 125 }), // leverage of the wallet in scope
        (side, s, e, lev) => {
          const size = BigInt(s);
          const cost = BigInt(e) * size * MULT;
          if (tierOf(TIERS, cost) === undefined) return;
          const wb = initialMargin(cost, lev);
          const lp = liquidationPrice(side, size, cost, wb, TIERS, MULT);
          const mmAt = (p: bigint): bigint => maintMarginE6(TIERS, p * size * MULT);
          if (side === 'LONG') {
            expect(lp).not.toBeNull();
            if (lp === 0n) return;
            // at lp (the estimate, rounded up) the account is still at or above its maintenance margin only if the
            // rounding moved it; one tick lower it is liquidated
            expect(equityE6(side, size, cost, wb, lp! - 1n) <= mmAt(lp! - 1n)).toBe(true);
            expect(equityE6(side, size, cost, wb, lp!) >= mmAt(lp!)).toBe(true);
          } else {
            if (lp === null) return;
            expect(equityE6(side, size, cost, wb, lp + 1n) <= mmAt(lp + 1n)).toBe(true);
            expect(equityE6(side, size, cost, wb, lp) >= mmAt(lp)).toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('mark price [MARK]: median(index * (1 + last funding rate * time to funding / 8 h), index + MA basis, last price)', () => {
  const H = 3_600_000;
  // index 40,000, last funding 0.01%, 4 h to funding: price 1 = 40,000 * (1 + 0.0001 * 0.5) = 40,002
  it('price 1 = 40,002, price 2 = 40,010 (basis 10), last 40,005 -> 40,005', () => {
    expect(markPriceOf(px(40_000), 10_000, 4 * H, 8 * H, px(10) * 3n, 3, px(40_005), 1n)).toBe(px(40_005));
  });
  it('last price 39,990 -> 40,002 (price 1); last 40,100 -> 40,010 (price 2)', () => {
    expect(markPriceOf(px(40_000), 10_000, 4 * H, 8 * H, px(10) * 3n, 3, px(39_990), 1n)).toBe(px(40_002));
    expect(markPriceOf(px(40_000), 10_000, 4 * H, 8 * H, px(10) * 3n, 3, px(40_100), 1n)).toBe(px(40_010));
  });
  it('before the first trade the contract price is the index: median(40,002, 40,010, 40,000) = 40,002', () => {
    expect(markPriceOf(px(40_000), 10_000, 4 * H, 8 * H, px(10) * 3n, 3, null, 1n)).toBe(px(40_002));
  });
  it('rounded half up to the tick (tick 1 USDT: 40,002.5 -> 40,003; 40,002.4 -> 40,002); never below one tick', () => {
    expect(markPriceOf(px(40_002.5), 0, 0, 8 * H, 0n, 0, null, 10n)).toBe(px(40_003));
    expect(markPriceOf(px(40_002.4), 0, 0, 8 * H, 0n, 0, null, 10n)).toBe(px(40_002));
    expect(markPriceOf(1n, 0, 0, 8 * H, 0n, 0, null, 10n)).toBe(10n);
  });
  it('a fractional basis average is floored (basis sum 25 over 2 samples = 12.5 price units -> 12)', () => {
    expect(markPriceOf(px(40_000), 0, 0, 8 * H, 25n, 2, px(50_000), 1n)).toBe(px(40_000) + 12n);
  });
});

describe('premium index and funding [FUND]', () => {
  const NONE = { bid: true, ask: true };
  it('premium = (max(0, impact bid - index) - max(0, index - impact ask)) / index: impact bid 40,020 at 40,000 -> +0.05%', () => {
    // impact bid 40,020: 0.5 BTC sold for 20,010 USDT; impact ask 40,030 (above the index: no discount)
    expect(premiumIndexE8(px(40_000), usdt(20_010), btc(0.5), usdt(20_015), btc(0.5), MULT, NONE)).toBe(50_000n);
    // impact ask 39,990 -> -(10 / 40,000) = -0.025%; impact bid 39,980 below the index: no premium
    expect(premiumIndexE8(px(40_000), usdt(19_990), btc(0.5), usdt(19_995), btc(0.5), MULT, NONE)).toBe(-25_000n);
    // a side that cannot fill the impact notional contributes 0
    expect(premiumIndexE8(px(40_000), usdt(20_010), btc(0.5), usdt(19_995), btc(0.5), MULT, { bid: false, ask: true })).toBe(-25_000n);
    expect(premiumIndexE8(0n, 1n, 1n, 1n, 1n, MULT, NONE)).toBe(0n);
  });
  it('"premium index within -0.04% and 0.06%: the funding rate equals the interest 0.01%"', () => {
    for (const p of [-40_000n, -10_000n, 0n, 30_000n, 60_000n]) expect(fundingRateE8(p, 1n, 10_000, 300_000)).toBe(10_000);
  });
  it('outside the band F = P -+ 0.05%: P = 0.07% -> 0.02%; P = -0.05% -> 0; P = -0.1% -> -0.05%', () => {
    expect(fundingRateE8(70_000n, 1n, 10_000, 300_000)).toBe(20_000);
    expect(fundingRateE8(-50_000n, 1n, 10_000, 300_000)).toBe(0);
    expect(fundingRateE8(-100_000n, 1n, 10_000, 300_000)).toBe(-50_000);
  });
  it('capped at 0.75 * maintenance margin rate = 0.3% for BTCUSDT (P = 1% -> 0.3%; P = -1% -> -0.3%)', () => {
    expect(fundingRateE8(1_000_000n, 1n, 10_000, 300_000)).toBe(300_000);
    expect(fundingRateE8(-1_000_000n, 1n, 10_000, 300_000)).toBe(-300_000);
  });
  it('time-weighted average premium, weights 1..n: (1 * 0.01% + 2 * 0.02% + 3 * 0.1%) / 6 = 0.05666..% -> F = 0.05666% - 0.04666% clamp', () => {
    const w = 1n * 10_000n + 2n * 20_000n + 3n * 100_000n; // 350,000 / 6 = 58,333.3 -> 58,333
    // I - P = 10,000 - 58,333 = -48,333 (inside +-0.05%): F = I
    expect(fundingRateE8(w, 6n, 10_000, 300_000)).toBe(10_000);
    expect(fundingRateE8(w * 2n, 6n, 10_000, 300_000)).toBe(116_666 - 50_000);
    expect(fundingRateE8(0n, 0n, 10_000, 300_000)).toBe(10_000); // no samples: P = 0
  });
  it('funding = position notional at the mark * rate: 0.25 BTC at 40,000 (10,000 USDT) at 0.01% -> long pays 1, short receives 1', () => {
    expect(fundingPayment('LONG', btc(0.25), px(40_000), MULT, 10_000)).toBe(usdt(-1));
    expect(fundingPayment('SHORT', btc(0.25), px(40_000), MULT, 10_000)).toBe(usdt(1));
    expect(fundingPayment('LONG', btc(0.25), px(40_000), MULT, -10_000)).toBe(usdt(1));
    expect(fundingPayment('SHORT', btc(0.25), px(40_000), MULT, -10_000)).toBe(usdt(-1));
    expect(fundingPayment('LONG', btc(0.25), px(40_000), MULT, 0)).toBe(0n);
  });
  it('payers round up, receivers down (0.001 BTC at 40,000.1 at 0.0123% = 0.00492.. USDT)', () => {
    // 1 * 400,001 * 10^4 * 12,300 / 10^8 = 492,001.23 quote units
    expect(fundingPayment('LONG', 1n, 400_001n, MULT, 12_300)).toBe(-492_002n);
    expect(fundingPayment('SHORT', 1n, 400_001n, MULT, 12_300)).toBe(492_001n);
  });
  it('funding times are the multiples of 8 h since the epoch (00:00, 08:00, 16:00 UTC)', () => {
    const day = 1_640_995_200_000; // 2022-01-01T00:00:00Z
    const H = 3_600_000;
    expect(fundingTimeAtOrBefore(day + 9.5 * H, 8 * H)).toBe(day + 8 * H);
    expect(fundingTimeAtOrBefore(day + 16 * H, 8 * H)).toBe(day + 16 * H);
    expect(fundingTimeAtOrBefore(day + 16 * H - 1, 8 * H)).toBe(day + 8 * H);
  });
});

describe('boundaries: safe integers, error messages, signs', () => {
  it('toSafeInt converts exactly up to +-(2^53 - 1) and throws a RangeError beyond', () => {
    expect(toSafeInt(0n)).toBe(0);
    expect(toSafeInt(-12_345n)).toBe(-12_345);
    expect(toSafeInt(9_007_199_254_740_991n)).toBe(9_007_199_254_740_991);
    expect(toSafeInt(-9_007_199_254_740_991n)).toBe(-9_007_199_254_740_991);
    expect(() => toSafeInt(9_007_199_254_740_992n)).toThrow(new RangeError('toSafeInt: out of the safe integer range'));
    expect(() => toSafeInt(-9_007_199_254_740_992n)).toThrow(new RangeError('toSafeInt: out of the safe integer range'));
  });
  it('perpNotionalMult names its error', () => {
    expect(() => perpNotionalMult(8, 6, 3)).toThrow(new RangeError('perpNotionalMult: priceDecimals + qtyDecimals exceed the settle scale'));
  });
  it('notionalOf = price * qty * mult: 0.25 BTC at 40,000 = 10,000 USDT', () => {
    expect(notionalOf(px(40_000), btc(0.25), MULT)).toBe(usdt(10_000));
    expect(notionalOf(px(40_000.1), btc(0.003), MULT)).toBe(usdt(120.0003));
  });
  it('a negative notional (a short) counts by its absolute value: tier, maintenance margin, fee', () => {
    expect(tierOf(TIERS, -usdt(60_000))?.maintMarginPpm).toBe(5_000);
    expect(maintMarginE6(TIERS, -usdt(40_000))).toBe(usdt(40_000) * 4_000n);
    expect(maintMarginE6(TIERS, -usdt(40_000))).toBe(maintMarginE6(TIERS, usdt(40_000)));
    expect(perpFee(-usdt(10_000), 500)).toBe(usdt(5));
  });
  it('ceil division with negative operands: a rebate (negative ppm) is rounded up, i.e. towards zero', () => {
    // ceil(-0.0001) = 0, ceil(-1.5) = -1, exact -1 USDT stays
    expect(perpFee(1n, -100)).toBe(0n);
    expect(perpFee(3n, -500_000)).toBe(-1n);
    expect(perpFee(usdt(10_000), -100)).toBe(usdt(-1));
    // negative divisor: ceil(10 / -3) = ceil(-3.33..) = -3
    expect(initialMargin(10n, -3)).toBe(-3n);
    // and what may be removed is still never more than the margin itself (initial margin -3: free 103 -> 100)
    expect(maxRemovableMargin(100n, 10n, 0n, -3)).toBe(100n);
  });
  it('floor division with negative operands: price 1 depends only on time to funding / interval (-4 h / -8 h = 4 h / 8 h)', () => {
    const H = 3_600_000;
    // index 40,000.1 at 0.01% for half an interval: 400,001 * 0.00005 = 20.00005 price units -> 20
    expect(markPriceOf(400_001n, 10_000, 4 * H, 8 * H, 0n, 0, px(50_000), 1n)).toBe(400_021n);
    expect(markPriceOf(400_001n, 10_000, -4 * H, -8 * H, 0n, 0, px(50_000), 1n)).toBe(400_021n);
    // a negative rate: -20.00005 -> -21 (floor, not truncation)
    expect(markPriceOf(400_001n, -10_000, 4 * H, 8 * H, 0n, 0, px(30_000), 1n)).toBe(399_980n);
  });
});

describe('lots: non-positive inputs and exact boundaries', () => {
  it('lotsToQty and qtyToLots are 0 for a non-positive lot count, quantity or price', () => {
    expect(lotsToQty(-1n, px(30_000), usdt(1000), 1n, MULT)).toBe(0n);
    expect(qtyToLots(0n, px(40_000), usdt(1000), MULT)).toBe(0n);
    expect(qtyToLots(-btc(0.05), px(40_000), usdt(1000), MULT)).toBe(0n);
    expect(qtyToLots(btc(0.05), 0n, usdt(1000), MULT)).toBe(0n);
    expect(qtyToLots(btc(0.05), -px(40_000), usdt(1000), MULT)).toBe(0n);
  });
  it('positionLots = cost in lots rounded half up; 0 for no or a negative cost', () => {
    expect(positionLots(usdt(1_500), usdt(1000))).toBe(2n);
    expect(positionLots(usdt(1_500) - 1n, usdt(1000))).toBe(1n);
    expect(positionLots(usdt(499.99999999), usdt(1000))).toBe(0n);
    expect(positionLots(0n, usdt(1000))).toBe(0n);
    expect(positionLots(-usdt(2_000), usdt(1000))).toBe(0n);
  });
  it('closeLotsQty: the whole size from posLots lots on (even off the step), else size * lots / posLots down to the step', () => {
    expect(closeLotsQty(btc(1), 4n, 1n, 1n)).toBe(btc(0.25));
    expect(closeLotsQty(btc(1), 4n, 2n, 1n)).toBe(btc(0.5));
    expect(closeLotsQty(btc(1), 3n, 2n, 1n)).toBe(btc(0.666));
    expect(closeLotsQty(btc(1), 3n, 2n, 10n)).toBe(btc(0.66));
    expect(closeLotsQty(1005n, 4n, 4n, 10n)).toBe(1005n);
    expect(closeLotsQty(1005n, 4n, 5n, 10n)).toBe(1005n);
    expect(closeLotsQty(btc(1), 4n, 0n, 1n)).toBe(0n);
    expect(closeLotsQty(btc(1), 0n, 0n, 1n)).toBe(0n);
    expect(closeLotsQty(btc(1), 4n, -1n, 1n)).toBe(0n);
    expect(closeLotsQty(0n, 4n, 4n, 1n)).toBe(0n);
    expect(closeLotsQty(-btc(1), 4n, 1n, 1n)).toBe(0n);
  });
});

describe('maxLots: exact fits and degenerate inputs', () => {
  it('taker 1% at 100x: a lot of 1,000 USDT costs 10 + 10 = 20, so 1,000 USDT buys exactly 50 lots (cost = available)', () => {
    expect(maxLots(usdt(1000), px(40_000), 100, 10_000, usdt(1000), 1n, MULT, TIERS)).toBe(50n);
    expect(orderCost(px(40_000) * btc(1.25) * MULT, 100, 10_000)).toBe(usdt(1000));
    expect(maxLots(usdt(1000) - 1n, px(40_000), 100, 10_000, usdt(1000), 1n, MULT, TIERS)).toBe(49n);
  });
  it('a leverage of 0 (or below) buys nothing', () => {
    expect(maxLots(usdt(1000), px(40_000), 0, 500, usdt(1000), 1n, MULT, TIERS)).toBe(0n);
    expect(maxLots(usdt(1000), px(40_000), -1, 500, usdt(1000), 1n, MULT, TIERS)).toBe(0n);
    expect(maxLots(0n, px(40_000), 10, 500, usdt(1000), 1n, MULT, TIERS)).toBe(0n);
    expect(maxLots(usdt(1000), 0n, 10, 500, usdt(1000), 1n, MULT, TIERS)).toBe(0n);
  });
  it('a lot worth less than one step buys nothing: at 2,000,000 a lot is 0.0005 BTC, below the 0.001 step', () => {
    expect(lotsToQty(1n, px(2_000_000), usdt(1000), 1n, MULT)).toBe(0n);
    expect(maxLots(usdt(100), px(2_000_000), 10, 500, usdt(1000), 1n, MULT, TIERS)).toBe(0n);
  });
});

describe('liquidation price: tier boundaries, fallback, no liquidation', () => {
  it('a long whose wallet exceeds its cost cannot be liquidated (0n, not a negative price)', () => {
    expect(liquidationPrice('LONG', btc(1), usdt(10_000), usdt(20_000), TIERS, MULT)).toBe(0n);
  });
  it('a short whose wallet in scope is at or below minus its cost has no liquidation price (null)', () => {
    expect(liquidationPrice('SHORT', btc(1), usdt(10_000), -usdt(10_000), TIERS, MULT)).toBeNull();
    expect(liquidationPrice('SHORT', btc(1), usdt(10_000), -usdt(20_000), TIERS, MULT)).toBeNull();
  });
  it('a liquidation notional exactly at a cap belongs to that tier: long 5 BTC, cost 275,000, wallet 26,200 -> 50,000 (notional 250,000)', () => {
    // level 2: (275,000 - 26,200 - 50) / (5 * (1 - 0.005)) = 248,750 / 4.975 = 50,000 exactly
    expect(liquidationPrice('LONG', btc(5), usdt(275_000), usdt(26_200), TIERS, MULT)).toBe(px(50_000));
  });
  it('beyond the last tier the first estimate is returned (one-tier table capped at 1,000 USDT)', () => {
    const one = bracketTiers([{ notionalCap: usdt(1_000), maintMarginPpm: 4_000, maxLeverage: 125 }]);
    expect(liquidationPrice('LONG', btc(1), usdt(10_000), usdt(1_000), one, MULT)).toBe(px(9_036.2));
    expect(liquidationPrice('SHORT', btc(1), usdt(10_000), usdt(1_000), one, MULT)).toBe(px(10_956.1));
  });
});

describe('premium index: sides that cannot fill', () => {
  it('an incomplete ask side contributes 0 even when its fill is below the index', () => {
    expect(premiumIndexE8(px(40_000), usdt(20_010), btc(0.5), usdt(19_995), btc(0.5), MULT, { bid: true, ask: false })).toBe(50_000n);
    expect(premiumIndexE8(px(40_000), usdt(20_010), btc(0.5), usdt(19_995), btc(0.5), MULT, { bid: false, ask: false })).toBe(0n);
  });
  it('a side with no quantity contributes 0 (no division by zero) even if flagged complete', () => {
    expect(premiumIndexE8(px(40_000), 1n, 0n, usdt(19_995), btc(0.5), MULT, { bid: true, ask: true })).toBe(-25_000n);
  });
});
