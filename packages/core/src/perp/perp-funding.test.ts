/**
 * Funding, mark price, price band and the read views of the perpetuals, on the shared test market
 * (test/perp-fixture.ts): price in 0.1 USDT (40,000.0 USDT = 400_000), quantity in 0.001 BTC, USDT of scale 8, so one
 * price unit times one quantity unit is 10^4 quote units (mult); maker 0.02%, taker 0.05%; funding every 8 h at an
 * interest of 0.01% (10_000 E8), capped at 0.3% (300_000 E8); a 50% price band; a basis average over 5 samples; an
 * impact notional of 1 USDT (one quantity unit of any level fills it) unless a test says otherwise.
 *
 * Every figure is worked out in the comments from the published rules (Binance USDⓈ-M futures and docs/perpetuals.md):
 * - premium = (max(0, impact bid - index) - max(0, index - impact ask)) / index, the impact prices being the average
 *   fill prices of the impact notional walked through the book (a side too thin counts 0);
 * - funding rate F = P + clamp(interest - P, -0.05%, +0.05%), capped at +-cap, P the interval's premium average with
 *   weights 1, 2, ..., n;
 * - each position pays or receives size x mark x F; longs pay when F > 0; payers round up, receivers down, the dust
 *   stays in '@funding'; an isolated position's funding goes to or from its margin (a payment from the margin first,
 *   then the available balance); a cross payment from the available balance, then the cross positions' margins;
 *   funding never draws on the insurance fund: what a payer cannot pay is not paid and each receiver gets
 *   floor(amount x collected / owed);
 * - mark price = median(index x (1 + last rate x time to the next funding / interval), index + basis moving average,
 *   last trade price or the index), rounded to the tick;
 * - a limit price more than 50% (the band) from the mark is refused; the insurance fund's close is limited within it.
 *
 * While the last funding rate is 0, no trade happened and the book is empty or one-sided (no basis sample), the mark
 * is the index. After every command every asset sums to zero over all accounts.
 */
import { describe, expect, it } from 'vitest';
import type { Engine } from '../engine';
import type { Command, CommandResult } from '../types';
import type { LeverageBracket, PerpMarkState, PerpOrderView } from './types';
import { HOUR, T0, USDT, perpEngine, perpMarket, ev, order } from '../../test/perp-fixture';

const SYM = 'BTC/USDT';
const ETH = 'ETH/USDT';
const FUND = '@insurance';
const EIGHT_H = 8 * HOUR;
/** T0 is a funding time (2022-01-01T00:00:00Z, a multiple of 8 h). */
const F1 = T0 + EIGHT_H;
const F2 = T0 + 2 * EIGHT_H;
const F3 = T0 + 3 * EIGHT_H;

class World {
  ts = T0 + 1000;
  constructor(readonly e: Engine) {}
  run(c: Record<string, unknown>): CommandResult {
    const r = this.e.execute({ ts: this.ts++, ...c } as unknown as Command);
    for (const [asset, total] of this.e.assetTotals()) expect(total, `ledger total of ${asset}`).toBe(0n);
    return r;
  }
  ok(c: Record<string, unknown>): CommandResult {
    const r = this.run(c);
    expect(r.code, `${String(c.type)} ${String(c.userId ?? '')}`).toBe('ok');
    return r;
  }
  /** A mark tick at `index` (at `ts` when given); returns the published mark state. */
  tick(index: bigint, ts?: number, symbol = SYM): PerpMarkState {
    if (ts !== undefined) this.ts = ts;
    const r = this.ok({ type: 'perpMarkPrice', symbol, indexPrice: index });
    const st = ev(r, 'markPrice');
    expect(st).toHaveLength(1);
    expect(st[0]?.state).toEqual(this.e.perpMarkState(symbol));
    return st[0]?.state as PerpMarkState;
  }
  /** A tick whose mark must be the index (empty or one-sided book, no trade, no funding rate yet). */
  mark(index: bigint, symbol = SYM): void {
    expect(this.tick(index, undefined, symbol).markPrice).toBe(index);
  }
  /** perpFunding for `fundingTs`, sent at `ts`. */
  funding(fundingTs: number, ts: number, symbol = SYM): CommandResult {
    this.ts = ts;
    return this.run({ type: 'perpFunding', symbol, fundingTs });
  }
  deposit(userId: string, amount: bigint): void {
    this.ok({ type: 'deposit', userId, asset: 'USDT', account: 'CONTRACT', amount, from: '@faucet' });
  }
  isolated(userId: string, symbol = SYM): void {
    this.ok({ type: 'perpSetMarginMode', userId, symbol, marginMode: 'ISOLATED' });
  }
  leverage(userId: string, leverage: number, symbol = SYM): void {
    this.ok({ type: 'perpSetLeverage', userId, symbol, leverage });
  }
  bal(userId: string): { available: bigint; frozen: bigint } {
    return this.e.balance(userId, 'CONTRACT', 'USDT');
  }
  sys(owner: string): bigint {
    return this.e.balance(owner, 'SYSTEM', 'USDT').available;
  }
}

/** The market maker 'mm' (1,000,000 USDT, cross) and, on top, the given users' CONTRACT deposits. */
function world(users: [string, bigint][] = [], over: Parameters<typeof perpEngine>[1] = {}): World {
  const w = new World(perpEngine([['mm', 1_000_000n * USDT]], over));
  for (const [u, amount] of users) w.deposit(u, amount);
  return w;
}

describe('funding payments: every position pays or receives size x mark x rate, payers rounded up, receivers down', () => {
  /**
   * Longs a (cross, 0.006) and b (isolated, 0.004); shorts mm (cross, 0.007) and d (isolated, 0.003), all bought or
   * sold at 40,000.0 at the default 20x. The interest is set to +-0.01234% (12_345 E8): with no premium (empty book,
   * P = 0) the rate is P + clamp(I - P, +-0.05%) = I. The index is then 40,000.1 (400_001): the mark is
   * median(index, index, last 400_000) = 400_001, so size x mark x 10^4 x 12_345 / 10^8 = size x 400_001 x 12_345 /
   * 10^4 is not whole:
   *   a: 6 -> 2,962,807.407   b: 4 -> 1,975,204.938   mm: 7 -> 3,456,608.6415   d: 3 -> 1,481,403.7035
   * b's margin is 4 x 400_000 x 10^4 / 20 = 800,000,000; d's 600,000,000.
   */
  function fourPositions(interestRateE8: number) {
    const w = world(
      [
        ['a', 10_000n * USDT],
        ['b', 10_000n * USDT],
        ['d', 10_000n * USDT],
      ],
      { interestRateE8 },
    );
    w.ok({ type: 'fundInsurance', asset: 'USDT', amount: 1_000n * USDT, from: '@faucet' });
    w.isolated('b');
    w.isolated('d');
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', 400_000n, 7n));
    w.ok(order('d', 'SELL', 400_000n, 3n));
    w.ok(order('a', 'BUY', null, 6n));
    w.ok(order('b', 'BUY', null, 4n));
    expect(w.e.position('b', SYM)).toMatchObject({ side: 'LONG', size: 4n, margin: 800_000_000n, marginMode: 'ISOLATED' });
    expect(w.e.position('d', SYM)).toMatchObject({ side: 'SHORT', size: 3n, margin: 600_000_000n, marginMode: 'ISOLATED' });
    expect(w.e.positionCount(SYM)).toBe(4);
    w.ts = F1 - 10;
    expect(w.tick(400_001n).markPrice).toBe(400_001n);
    const before = {
      a: w.bal('a'),
      b: w.bal('b'),
      d: w.bal('d'),
      mm: w.bal('mm'),
      fund: w.sys(FUND),
      pool: w.sys('@funding'),
    };
    const r = w.funding(F1, F1);
    expect(r.code).toBe('ok');
    return { w, r, before };
  }

  it('a positive rate: longs pay (rounded up), shorts receive (rounded down), the dust stays in @funding', () => {
    const { w, r, before } = fourPositions(12_345);
    // payers: a 2,962,808, b 1,975,205 (paid 4,938,013); receivers: mm 3,456,608, d 1,481,403 (received 4,938,011)
    const pays = ev(r, 'fundingPayment');
    expect(pays.map((p) => [p.userId, p.amount])).toEqual([
      ['a', -2_962_808n],
      ['b', -1_975_205n],
      ['mm', 3_456_608n],
      ['d', 1_481_403n],
    ]);
    for (const p of pays) expect(p).toMatchObject({ type: 'fundingPayment', ts: F1, symbol: SYM, fundingTs: F1, rateE8: 12_345 });
    expect(ev(r, 'fundingSettled')).toEqual([
      { type: 'fundingSettled', ts: F1, symbol: SYM, fundingTs: F1, rateE8: 12_345, markPrice: 400_001n, paid: 4_938_013n, received: 4_938_011n, positions: 4 },
    ]);
    // the cross long pays from its available balance; the isolated long from its margin (its available untouched)
    expect(w.bal('a')).toEqual({ available: before.a.available - 2_962_808n, frozen: before.a.frozen });
    expect(w.bal('b')).toEqual({ available: before.b.available, frozen: before.b.frozen - 1_975_205n });
    expect(w.e.position('b', SYM)).toMatchObject({ margin: 800_000_000n - 1_975_205n, funding: -1_975_205n });
    // the cross short receives into its available balance; the isolated short into its margin
    expect(w.bal('mm')).toEqual({ available: before.mm.available + 3_456_608n, frozen: before.mm.frozen });
    expect(w.bal('d')).toEqual({ available: before.d.available, frozen: before.d.frozen + 1_481_403n });
    expect(w.e.position('d', SYM)).toMatchObject({ margin: 601_481_403n, funding: 1_481_403n });
    expect(w.e.position('a', SYM)).toMatchObject({ funding: -2_962_808n });
    expect(w.e.position('mm', SYM)).toMatchObject({ funding: 3_456_608n });
    expect(w.sys('@funding')).toBe(before.pool + 2n);
    expect(w.sys(FUND)).toBe(before.fund);
    // each touched position is published with its funding
    const changed = ev(r, 'positionChanged').map((x) => [x.position.userId, x.position.funding, x.position.updatedTs]);
    expect(changed).toEqual([
      ['a', -2_962_808n, F1],
      ['b', -1_975_205n, F1],
      ['mm', 3_456_608n, F1],
      ['d', 1_481_403n, F1],
    ]);
    // settled: the next funding is 8 h later and the rate is published as the last one
    expect(w.e.perpMarkState(SYM)).toMatchObject({ lastFundingRateE8: 12_345, nextFundingTs: F2, predictedFundingRateE8: 12_345 });
  });

  it('a negative rate: shorts pay, longs receive, with the same rounding', () => {
    const { w, r, before } = fourPositions(-12_345);
    expect(ev(r, 'fundingPayment').map((p) => [p.userId, p.amount, p.rateE8])).toEqual([
      ['mm', -3_456_609n, -12_345],
      ['d', -1_481_404n, -12_345],
      ['a', 2_962_807n, -12_345],
      ['b', 1_975_204n, -12_345],
    ]);
    expect(ev(r, 'fundingSettled')[0]).toMatchObject({ rateE8: -12_345, paid: 4_938_013n, received: 4_938_011n, positions: 4 });
    expect(w.bal('d')).toEqual({ available: before.d.available, frozen: before.d.frozen - 1_481_404n });
    expect(w.e.position('d', SYM)).toMatchObject({ margin: 600_000_000n - 1_481_404n, funding: -1_481_404n });
    expect(w.bal('b')).toEqual({ available: before.b.available, frozen: before.b.frozen + 1_975_204n });
    expect(w.e.position('b', SYM)).toMatchObject({ margin: 801_975_204n, funding: 1_975_204n });
    expect(w.bal('a').available).toBe(before.a.available + 2_962_807n);
    expect(w.bal('mm').available).toBe(before.mm.available - 3_456_609n);
    expect(w.sys('@funding')).toBe(before.pool + 2n);
    expect(w.sys(FUND)).toBe(before.fund);
  });

  it('a zero rate moves nothing: no payment, the positions are counted', () => {
    const { w, r, before } = fourPositions(0);
    expect(ev(r, 'fundingPayment')).toEqual([]);
    expect(ev(r, 'positionChanged')).toEqual([]);
    expect(ev(r, 'fundingSettled')[0]).toMatchObject({ rateE8: 0, paid: 0n, received: 0n, positions: 4 });
    expect(w.bal('a')).toEqual(before.a);
    expect(w.bal('d')).toEqual(before.d);
    expect(w.sys('@funding')).toBe(before.pool);
  });

  it("two settlements add up in the positions' funding and margins", () => {
    const { w } = fourPositions(12_345);
    // the second interval: no new tick, so no premium sample: the rate is still I; the mark is still 400_001
    const r = w.funding(F2, F2 + 5);
    expect(ev(r, 'fundingSettled')[0]).toMatchObject({ ts: F2 + 5, fundingTs: F2, rateE8: 12_345, markPrice: 400_001n, paid: 4_938_013n });
    expect(w.e.position('a', SYM)?.funding).toBe(-2n * 2_962_808n);
    expect(w.e.position('d', SYM)).toMatchObject({ funding: 2n * 1_481_403n, margin: 600_000_000n + 2n * 1_481_403n });
    expect(w.e.perpMarkState(SYM)?.nextFundingTs).toBe(F3);
  });
});

describe('funding when a payer cannot pay it all: the receivers share what was collected, the fund pays nothing', () => {
  /**
   * The cap is raised to 3% (3_000_000 E8). The interval's first tick (before any order) sampled a premium of 0
   * (weight 1). mm then bids 0.001 at 42,000.0 against an index of 40,000.0: the impact bid (the 1 USDT impact
   * notional is inside that one unit) is 42,000.0, a premium of 2,000.0 / 40,000.0 = 5% (5_000_000 E8, weight 2):
   * P = 10_000_000 / 3 = 3_333_333, F = P - 0.05% = 3_283_333, capped at 3%. The bid alone is one-sided: no basis,
   * the mark stays the index.
   * u is long 0.010 at 40,000.0 at 125x: margin 4e10 / 125 = 320,000,000, taker fee 4e10 x 0.05% = 20,000,000.
   * u owes 4e10 x 3% = 1,200,000,000.
   */
  function highRate(mode: 'ISOLATED' | 'CROSS', free: bigint, shorts: [string, bigint][], extra?: (w: World) => void) {
    const w = world(
      [
        ['u', 340_000_000n + free],
        ['v', 1_000n * USDT],
      ],
      { fundingCapE8: 3_000_000 },
    );
    w.ok({ type: 'fundInsurance', asset: 'USDT', amount: 1_000n * USDT, from: '@faucet' });
    if (mode === 'ISOLATED') w.isolated('u');
    w.leverage('u', 125);
    w.isolated('v');
    w.mark(400_000n);
    for (const [id, q] of shorts) w.ok(order(id, 'SELL', 400_000n, q));
    w.ok(order('u', 'BUY', null, 10n));
    expect(w.e.position('u', SYM)).toMatchObject({ side: 'LONG', size: 10n, margin: 320_000_000n, marginMode: mode, leverage: 125 });
    expect(w.bal('u')).toEqual({ available: free, frozen: 320_000_000n });
    extra?.(w);
    w.ok(order('mm', 'BUY', 420_000n, 1n));
    const st = w.tick(400_000n, F1 - 1000);
    expect(st).toMatchObject({ markPrice: 400_000n, predictedFundingRateE8: 3_000_000 });
    // not at risk: margin 3.2e8 > maintenance 0.4% x 4e10 = 1.6e8
    expect(w.e.position('u', SYM)?.size).toBe(10n);
    const fund = w.sys(FUND);
    const pool = w.sys('@funding');
    const r = w.funding(F1, F1);
    expect(r.code).toBe('ok');
    return { w, r, fund, pool };
  }

  it('isolated payer with 1 unit free: pays its margin, then that unit; mm (0.007) and v (isolated 0.003) share it', () => {
    // collected 320,000,000 + 1 = 320,000,001 of 1,200,000,000 owed; mm was owed 7 x 4e9 x 3% = 840,000,000, v
    // 360,000,000: mm gets floor(840,000,000 x 320,000,001 / 1.2e9) = floor(224,000,000.7) = 224,000,000, v
    // floor(96,000,000.3) = 96,000,000; 1 unit of dust stays in @funding
    const { w, r, fund, pool } = highRate('ISOLATED', 1n, [
      ['mm', 7n],
      ['v', 3n],
    ]);
    expect(ev(r, 'fundingPayment').map((p) => [p.userId, p.amount])).toEqual([
      ['u', -320_000_001n],
      ['mm', 224_000_000n],
      ['v', 96_000_000n],
    ]);
    expect(ev(r, 'fundingSettled')).toEqual([
      {
        type: 'fundingSettled',
        ts: F1,
        symbol: SYM,
        fundingTs: F1,
        rateE8: 3_000_000,
        markPrice: 400_000n,
        paid: 320_000_001n,
        received: 320_000_000n,
        positions: 3,
      },
    ]);
    expect(w.bal('u')).toEqual({ available: 0n, frozen: 0n });
    expect(w.e.position('u', SYM)).toMatchObject({ size: 10n, margin: 0n, funding: -320_000_001n });
    // v's isolated margin 3 x 4e9 / 20 = 600,000,000 receives its share
    expect(w.e.position('v', SYM)).toMatchObject({ margin: 696_000_000n, funding: 96_000_000n });
    expect(w.e.position('mm', SYM)?.funding).toBe(224_000_000n);
    expect(w.sys('@funding')).toBe(pool + 1n);
    expect(w.sys(FUND)).toBe(fund);
  });

  it('a payer with nothing left pays 0 at the next settlement and the receivers get nothing', () => {
    const { w, fund } = highRate('ISOLATED', 0n, [['mm', 10n]]);
    expect(w.e.position('mm', SYM)?.funding).toBe(320_000_000n);
    // second interval, no tick: rate 0.01% (no premium sample); u owes 4e10 x 0.01% = 4,000,000 and has nothing
    const r = w.funding(F2, F2);
    expect(ev(r, 'fundingPayment').map((p) => [p.userId, p.amount])).toEqual([['u', 0n]]);
    expect(ev(r, 'fundingSettled')[0]).toMatchObject({ rateE8: 10_000, paid: 0n, received: 0n, positions: 2 });
    expect(w.e.position('mm', SYM)?.funding).toBe(320_000_000n);
    expect(w.e.position('u', SYM)).toMatchObject({ margin: 0n, funding: -320_000_000n });
    expect(w.sys(FUND)).toBe(fund);
  });

  it('isolated payer: the margin first, then the available balance covers the rest in full', () => {
    // free 1e9: margin 320,000,000 + 880,000,000 from the available balance; mm gets all 1.2e9
    const { w, r } = highRate('ISOLATED', 1_000_000_000n, [['mm', 10n]]);
    expect(ev(r, 'fundingPayment').map((p) => [p.userId, p.amount])).toEqual([
      ['u', -1_200_000_000n],
      ['mm', 1_200_000_000n],
    ]);
    expect(ev(r, 'fundingSettled')[0]).toMatchObject({ paid: 1_200_000_000n, received: 1_200_000_000n });
    expect(w.bal('u')).toEqual({ available: 120_000_000n, frozen: 0n });
    expect(w.e.position('u', SYM)?.margin).toBe(0n);
  });

  it('isolated payer with more margin than the payment: only the margin pays', () => {
    // u tops its margin up by 1e9 (to 1,320,000,000) and keeps 5e8 free: 1.2e9 comes out of the margin
    const { w, r } = highRate('ISOLATED', 1_500_000_000n, [['mm', 10n]], (x) =>
      x.ok({ type: 'perpAdjustMargin', userId: 'u', symbol: SYM, amount: 1_000_000_000n }),
    );
    expect(ev(r, 'fundingPayment').map((p) => p.amount)).toEqual([-1_200_000_000n, 1_200_000_000n]);
    expect(w.bal('u')).toEqual({ available: 500_000_000n, frozen: 120_000_000n });
    expect(w.e.position('u', SYM)?.margin).toBe(120_000_000n);
  });

  it("cross payer: the available balance, then the position's margin; an open order's hold is not touched", () => {
    // u also rests a BUY of 0.001 at 39,000.0: hold 3.9e9 / 125 + 0.05% = 31,200,000 + 1,950,000 = 33,150,000, its
    // deposit covers it exactly (available 0 after). u pays its cross margin 320,000,000 and nothing more.
    let hold = 0n;
    const { w, r, fund } = highRate('CROSS', 33_150_000n, [['mm', 10n]], (x) => {
      const o = x.ok(order('u', 'BUY', 390_000n, 1n)).perpOrder as PerpOrderView;
      hold = o.hold;
    });
    expect(hold).toBe(33_150_000n);
    expect(ev(r, 'fundingPayment').map((p) => [p.userId, p.amount])).toEqual([
      ['u', -320_000_000n],
      ['mm', 320_000_000n],
    ]);
    expect(ev(r, 'fundingSettled')[0]).toMatchObject({ paid: 320_000_000n, received: 320_000_000n, positions: 2 });
    expect(w.e.position('u', SYM)).toMatchObject({ marginMode: 'CROSS', margin: 0n, funding: -320_000_000n });
    expect(w.bal('u')).toEqual({ available: 0n, frozen: 33_150_000n });
    expect(w.e.perpOpenOrders('u').map((o) => o.hold)).toEqual([33_150_000n]);
    expect(w.sys(FUND)).toBe(fund);
  });

  it('cross payer: its isolated position in another market is not drawn on', () => {
    // u also holds an isolated short of 0.100 ETH at 3,000.0 (3e10 of notional at 20x: margin 1.5e9, taker fee
    // 1.5e7), paid with all its free money. The BTC funding takes the cross margin 320,000,000 and stops there.
    const { w, r } = highRate('CROSS', 1_515_000_000n, [['mm', 10n]], (x) => {
      x.ok({ type: 'addPerpMarket', market: perpMarket({ symbol: ETH, base: 'ETH' }) });
      x.mark(30_000n, ETH);
      x.isolated('u', ETH);
      x.ok({ ...order('mm', 'BUY', 30_000n, 100n), symbol: ETH });
      x.ok({ ...order('u', 'SELL', null, 100n), symbol: ETH });
      expect(x.e.position('u', ETH)).toMatchObject({ side: 'SHORT', margin: 1_500_000_000n, marginMode: 'ISOLATED' });
      expect(x.bal('u')).toEqual({ available: 0n, frozen: 1_820_000_000n });
    });
    expect(ev(r, 'fundingPayment').map((p) => [p.userId, p.amount])).toEqual([
      ['u', -320_000_000n],
      ['mm', 320_000_000n],
    ]);
    expect(w.e.position('u', SYM)?.margin).toBe(0n);
    expect(w.e.position('u', ETH)?.margin).toBe(1_500_000_000n);
    expect(w.bal('u')).toEqual({ available: 0n, frozen: 1_500_000_000n });
  });

  it('cross payer: the available balance pays first and the margin stays when it suffices', () => {
    const { w, r } = highRate('CROSS', 1_200_000_000n, [['mm', 10n]]);
    expect(ev(r, 'fundingPayment').map((p) => p.amount)).toEqual([-1_200_000_000n, 1_200_000_000n]);
    expect(w.bal('u')).toEqual({ available: 0n, frozen: 320_000_000n });
    expect(w.e.position('u', SYM)?.margin).toBe(320_000_000n);
  });
});

describe('funding times', () => {
  it('a market added between two funding times announces the next one; at a funding time, the one after', () => {
    for (const [added, next] of [
      [T0 + 5 * HOUR + 123, F1],
      [F1 - 1, F1],
      [F1, F2],
      [F1 + 1, F2],
    ] as const) {
      const e = perpEngine([], {}, added);
      expect(e.perpMarkState(SYM)).toEqual({
        symbol: SYM,
        indexPrice: null,
        markPrice: null,
        lastPrice: null,
        predictedFundingRateE8: 10_000,
        lastFundingRateE8: 0,
        nextFundingTs: next,
        markTs: 0,
        indexStale: false,
        indexStaleSince: null,
      });
    }
    // a 1 h interval: the next hour
    expect(perpEngine([], { fundingIntervalMs: HOUR }, T0 + 5 * HOUR + 123).perpMarkState(SYM)?.nextFundingTs).toBe(T0 + 6 * HOUR);
  });

  it('settles at its funding time exactly, not one ms before; the state is unchanged by a refusal', () => {
    const w = world([['u', 1_000n * USDT]]);
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', 400_000n, 10n));
    w.ok(order('u', 'BUY', null, 10n));
    const h = w.e.stateHash();
    expect(w.funding(F1, F1 - 1).code).toBe('funding_not_due');
    expect(w.e.stateHash()).toBe(h);
    const r = w.funding(F1, F1);
    expect(r.code).toBe('ok');
    // 10 x 400_000 x 10^4 x 0.01% = 4,000,000
    expect(ev(r, 'fundingSettled')).toEqual([
      { type: 'fundingSettled', ts: F1, symbol: SYM, fundingTs: F1, rateE8: 10_000, markPrice: 400_000n, paid: 4_000_000n, received: 4_000_000n, positions: 2 },
    ]);
    expect(w.e.perpMarkState(SYM)).toMatchObject({ nextFundingTs: F2, lastFundingRateE8: 10_000, predictedFundingRateE8: 10_000 });
    // the same funding time again, or an earlier one: not due
    expect(w.funding(F1, F1 + HOUR).code).toBe('funding_not_due');
    expect(w.funding(T0, F1 + HOUR).code).toBe('funding_not_due');
    expect(w.funding(F2, F2 - 1).code).toBe('funding_not_due');
    expect(w.e.perpMarkState(SYM)?.nextFundingTs).toBe(F2);
  });

  it('a missed funding time may be skipped: the next one is then 8 h after the one settled', () => {
    const w = world([['u', 1_000n * USDT]]);
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', 400_000n, 10n));
    w.ok(order('u', 'BUY', null, 10n));
    const r = w.funding(F2, F2 + 7);
    expect(ev(r, 'fundingSettled')[0]).toMatchObject({ ts: F2 + 7, fundingTs: F2, paid: 4_000_000n });
    expect(ev(r, 'fundingPayment').map((p) => [p.userId, p.fundingTs, p.ts])).toEqual([
      ['u', F2, F2 + 7],
      ['mm', F2, F2 + 7],
    ]);
    expect(w.e.perpMarkState(SYM)?.nextFundingTs).toBe(F3);
    // the skipped time is now in the past
    expect(w.funding(F1, F2 + 8).code).toBe('funding_not_due');
    expect(w.e.position('u', SYM)?.funding).toBe(-4_000_000n);
  });

  it('refuses a funding time that is not a multiple of the interval, not positive, unknown market, no mark yet', () => {
    const w = world();
    const h = w.e.stateHash();
    // checks in order: market, funding time, due, mark
    expect(w.funding(F1, F1, 'XXX/USDT').code).toBe('market_not_found');
    expect(w.funding(F1 + 1, F1 + 1).code).toBe('invalid_config');
    expect(w.funding(F1 - HOUR, F1).code).toBe('invalid_config');
    expect(w.funding(0, F1).code).toBe('invalid_config');
    expect(w.funding(-EIGHT_H, F1).code).toBe('invalid_config');
    expect(w.funding(F1 + 0.5, F1 + 1).code).toBe('invalid_config');
    expect(w.funding(F1, F1 - 1).code).toBe('funding_not_due');
    expect(w.funding(F1, F1).code).toBe('mark_price_unavailable');
    expect(w.e.stateHash()).toBe(h);
    // with a 1 h interval, an hour boundary that is not an 8 h one is a funding time
    const x = world([], { fundingIntervalMs: HOUR });
    x.mark(400_000n);
    const r = x.funding(T0 + HOUR, T0 + HOUR);
    expect(r.code).toBe('ok');
    expect(ev(r, 'fundingSettled')[0]).toMatchObject({ fundingTs: T0 + HOUR, positions: 0, paid: 0n, received: 0n });
    expect(x.e.perpMarkState(SYM)?.nextFundingTs).toBe(T0 + 2 * HOUR);
  });
});

describe('mark price: the funding basis index x (1 + last rate x time to the next funding / 8 h)', () => {
  /**
   * A trade at `last` sets the last price; funding at F1 settles the rate 0.01% (no premium: empty book). Then the
   * book is empty, so the basis average is absent (price 2 = the index) and the mark is the median of
   * price 1 = 400_000 + floor(400_000 x 10_000 x ms / (10^8 x 8 h)), 400_000 and the last price.
   */
  function afterFunding(last: bigint) {
    const w = world([['u', 1_000n * USDT]]);
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', last, 1n));
    w.ok(order('u', 'BUY', null, 1n));
    expect(w.e.perpMarkState(SYM)?.lastPrice).toBe(last);
    expect(w.funding(F1, F1).code).toBe('ok');
    return w;
  }

  it('with the last price above: price 1 is the median, 40 units at a full interval, falling to 0 at the funding time', () => {
    const w = afterFunding(401_000n);
    // a full interval (8 h) to F2: 400_000 x 0.01% = 40
    expect(w.tick(400_000n, F1)).toEqual({
      symbol: SYM,
      indexPrice: 400_000n,
      markPrice: 400_040n,
      lastPrice: 401_000n,
      predictedFundingRateE8: 10_000,
      lastFundingRateE8: 10_000,
      nextFundingTs: F2,
      markTs: F1,
      indexStale: false,
      indexStaleSince: null,
    });
    // 4 h: 20; 1 h: 5; 1 ms: 4e9 / 2.88e15 -> 0
    expect(w.tick(400_000n, F1 + 4 * HOUR).markPrice).toBe(400_020n);
    expect(w.tick(400_000n, F2 - HOUR).markPrice).toBe(400_005n);
    expect(w.tick(400_000n, F2 - HOUR - 1).markPrice).toBe(400_005n);
    expect(w.tick(400_000n, F2 - 1).markPrice).toBe(400_000n);
    expect(w.tick(400_000n, F2).markTs).toBe(F2);
  });

  it('overdue (the funding time passed without settlement): the time left counts 0, never negative', () => {
    // the last price below the index: a negative price 1 would be the median (400_000 - 5 an hour late)
    const w = afterFunding(399_000n);
    const st = w.tick(400_000n, F2 + HOUR);
    expect(st).toMatchObject({ markPrice: 400_000n, nextFundingTs: F2 });
  });
});

describe('mark price: the basis moving average over the last 5 samples', () => {
  /**
   * A trade at 41,000.0 sets the last price above everything, so the mark is price 2 = index + the basis average
   * whenever that lies between the index (price 1, no funding rate yet) and 41,000.0. The book is a bid at 40,100.0
   * and an ask at 40,300.0: mid 40,200.0, basis 402_000 - index at each tick (both sides quoted).
   */
  it('averages the samples, drops the oldest after 5 and wraps around its ring', () => {
    const w = world([
      ['a', 10_000n * USDT],
      ['b', 10_000n * USDT],
    ]);
    w.mark(400_000n);
    w.ok(order('a', 'SELL', 410_000n, 1n));
    w.ok(order('b', 'BUY', null, 1n));
    w.ok(order('mm', 'BUY', 401_000n, 1n));
    const ask = w.ok(order('mm', 'SELL', 403_000n, 1n)).perpOrder as PerpOrderView;
    const marks: bigint[] = [];
    for (const index of [400_000n, 401_000n, 399_000n, 400_000n, 400_000n, 402_000n, 402_000n]) marks.push(w.tick(index).markPrice as bigint);
    // samples 2000; 1000 (avg 1500); 3000 (6000 / 3 = 2000); 2000; 2000 (10000 / 5); then 0 replaces the first 2000
    // (8000 / 5 = 1600) and 0 replaces 1000 (7000 / 5 = 1400)
    expect(marks).toEqual([402_000n, 402_500n, 401_000n, 402_000n, 402_000n, 403_600n, 403_400n]);
    // one-sided book: no sample, the average stays 1400
    w.ok({ type: 'perpCancelOrder', userId: 'mm', orderId: ask.orderId });
    expect(w.tick(402_000n).markPrice).toBe(403_400n);
    w.ok(order('mm', 'SELL', 403_000n, 1n));
    // 0 replaces 3000 (4000 / 5 = 800), 0 replaces 2000 (400), 0 replaces 2000 (0); then the ring wraps: a sample
    // of 402_000 - 401_000 = 1000 replaces the first 0 (1000 / 5 = 200): 401_000 + 200
    expect(w.tick(402_000n).markPrice).toBe(402_800n);
    expect(w.tick(402_000n).markPrice).toBe(402_400n);
    expect(w.tick(402_000n).markPrice).toBe(402_000n);
    expect(w.tick(401_000n).markPrice).toBe(401_200n);
    expect(w.tick(401_000n).markPrice).toBe(401_400n);
  });

  it('the median rounds half up to a 1.0 USDT tick', () => {
    // tick 10 (1.0 USDT); last trade 41,000.0; bid 40,100.0, ask 40,290.0: mid 401_950, basis 401_950 - index. The
    // median is price 2 = index + floor(basis sum / samples), between price 1 (the index) and the last price; it is
    // then rounded half up to a multiple of 10.
    const w = world(
      [
        ['a', 10_000n * USDT],
        ['b', 10_000n * USDT],
      ],
      { tickSize: 10n },
    );
    w.mark(400_000n);
    w.ok(order('a', 'SELL', 410_000n, 1n));
    w.ok(order('b', 'BUY', null, 1n));
    w.ok(order('mm', 'BUY', 401_000n, 1n));
    w.ok(order('mm', 'SELL', 402_900n, 1n));
    // samples: 401_950 - 400_000 = 1_950 -> 401_950
    expect(w.tick(400_000n).markPrice).toBe(401_950n);
    // 1_950 and 401_950 - 400_004 = 1_946: average 1_948 -> 401_952 rounds down to 401_950
    expect(w.tick(400_004n).markPrice).toBe(401_950n);
    // + 401_950 - 399_999 = 1_951: (1_950 + 1_946 + 1_951) / 3 = 1_949 -> 401_948 rounds up to 401_950
    expect(w.tick(399_999n).markPrice).toBe(401_950n);
    // + 401_950 - 399_990 = 1_960: 7_807 / 4 = 1_951 -> 401_941 rounds down to 401_940
    expect(w.tick(399_990n).markPrice).toBe(401_940n);
    // + 401_950 - 399_994 = 1_956: 9_763 / 5 = 1_952 -> 401_946 rounds up to 401_950
    expect(w.tick(399_994n).markPrice).toBe(401_950n);
    // 1_945 (index 400_005) replaces the oldest, 1_950: 9_758 / 5 = 1_951 -> 401_956 rounds up to 401_960
    expect(w.tick(400_005n).markPrice).toBe(401_960n);
    // 401_950 - 399_991 = 1_959 replaces 1_946: 9_771 / 5 = 1_954 -> 401_945, exactly half a tick: up to 401_950
    expect(w.tick(399_991n).markPrice).toBe(401_950n);
  });
});

describe('premium index: impact prices walked through the book, and the predicted funding rate', () => {
  /**
   * An engine with the impact notional given (quote units) and mm's resting orders [side, price, qty]. The first mark
   * tick (needed before any order) samples an empty book; a settlement at F1 (no positions, rate 0.01%) then starts a
   * new interval, so the next tick's premium is the interval's only sample (weight 1).
   */
  function book(impactNotional: bigint, orders: ['BUY' | 'SELL', bigint, bigint][]) {
    const w = world([], { impactNotional });
    w.mark(400_000n);
    for (const [side, price, q] of orders) w.ok(order('mm', side, price, q));
    expect(ev(w.funding(F1, F1), 'fundingSettled')[0]).toMatchObject({ rateE8: 10_000, positions: 0 });
    expect(w.e.perpMarkState(SYM)?.predictedFundingRateE8).toBe(10_000);
    return w;
  }

  it('impact bid over three levels for 100 USDT: the last level is taken in whole quantity units (rounded up)', () => {
    // bids 0.001 at 40,120.0 (40.12 USDT), 0.001 at 40,080.0 (40.08) and 0.005 at 40,000.0: 80.20 USDT, then
    // 19.80 USDT more is one unit at 40,000.0 (rounded up): 120.20 USDT for 0.003, an impact bid of 40,066.67.
    // premium = (120.2e8 - 400_000 x 3 x 10^4) x 1e8 / 1.2e10 = 166_666 (floored); F = 166_666 - 0.05% = 116_666
    const w = book(100n * USDT, [
      ['BUY', 400_000n, 5n],
      ['BUY', 401_200n, 1n],
      ['BUY', 400_800n, 1n],
    ]);
    // the mark: median(index x (1 + 0.01% x ~8 h / 8 h) = 400_039, index (one-sided book), index (no trade))
    const st = w.tick(400_000n);
    expect(st).toMatchObject({ markPrice: 400_000n, predictedFundingRateE8: 116_666, lastFundingRateE8: 10_000, nextFundingTs: F2 });
    const r = w.funding(F2, F2);
    expect(ev(r, 'fundingSettled')[0]).toMatchObject({ rateE8: 116_666, positions: 0 });
    // settled: the samples restart, the next prediction is the interest alone
    expect(w.e.perpMarkState(SYM)).toMatchObject({ lastFundingRateE8: 116_666, predictedFundingRateE8: 10_000, nextFundingTs: F3 });
  });

  it('impact ask over three levels: a negative premium, rounded away from zero', () => {
    // asks 0.001 at 39,880.0, 0.001 at 39,920.0, then one of 0.005 at 40,000.0: 119.80 USDT for 0.003;
    // premium = -(1.2e10 - 1.198e10) x 1e8 / 1.2e10 = -166_666.67 -> -166_667; F = -166_667 + 0.05% = -116_667
    const w = book(100n * USDT, [
      ['SELL', 400_000n, 5n],
      ['SELL', 398_800n, 1n],
      ['SELL', 399_200n, 1n],
    ]);
    expect(w.tick(400_000n).predictedFundingRateE8).toBe(-116_667);
  });

  it('a side that cannot fill the impact notional counts 0; one that fills it exactly counts', () => {
    const bids: ['BUY', bigint, bigint][] = [
      ['BUY', 401_200n, 1n],
      ['BUY', 400_800n, 1n],
    ];
    // 80.20 USDT of bids for 100 USDT: premium 0, F = the interest 0.01%
    expect(book(100n * USDT, bids).tick(400_000n).predictedFundingRateE8).toBe(10_000);
    // exactly 80.20 USDT (or 1 unit less): both levels, the second for one unit: 80.20 USDT for 0.002, an impact
    // bid of 40,100.0: premium (8.02e9 - 8e9) x 1e8 / 8e9 = 250_000 (0.25%); F = 200_000
    expect(book(8_020_000_000n, bids).tick(400_000n).predictedFundingRateE8).toBe(200_000);
    expect(book(8_019_999_999n, bids).tick(400_000n).predictedFundingRateE8).toBe(200_000);
    // 80.20 USDT + 1 unit: too thin again
    expect(book(8_020_000_001n, bids).tick(400_000n).predictedFundingRateE8).toBe(10_000);
    // the first level alone fills 40.12 USDT: premium (4.012e9 - 4e9) x 1e8 / 4e9 = 300_000; F = 250_000
    expect(book(4_012_000_000n, bids).tick(400_000n).predictedFundingRateE8).toBe(250_000);
  });

  it('both sides inside the index move nothing; a bid above or an ask below makes the premium', () => {
    // bid 39,900.0 / ask 40,100.0 around 40,000.0: premium 0, F = 0.01%
    expect(
      book(USDT, [
        ['BUY', 399_000n, 1n],
        ['SELL', 401_000n, 1n],
      ]).tick(400_000n).predictedFundingRateE8,
    ).toBe(10_000);
    // bid 40,040.0 / ask 40,080.0: the bid side 400 / 400_000 = 0.1% (100_000), the ask side 0: F = 0.1% - 0.05%
    expect(
      book(USDT, [
        ['BUY', 400_400n, 1n],
        ['SELL', 400_800n, 1n],
      ]).tick(400_000n).predictedFundingRateE8,
    ).toBe(50_000);
    // bid 39,920.0 / ask 39,960.0: the ask side -0.1%: F = -0.1% + 0.05%
    expect(
      book(USDT, [
        ['BUY', 399_200n, 1n],
        ['SELL', 399_600n, 1n],
      ]).tick(400_000n).predictedFundingRateE8,
    ).toBe(-50_000);
    // a premium within 0.05% of the interest: F is the interest (bid 40,010.0: 0.025%; bid 40,004.0: 0.01%)
    expect(book(USDT, [['BUY', 400_100n, 1n]]).tick(400_000n).predictedFundingRateE8).toBe(10_000);
    expect(book(USDT, [['BUY', 400_040n, 1n]]).tick(400_000n).predictedFundingRateE8).toBe(10_000);
    // a premium of 0.065% (bid 40,026.0): 65_000 - 50_000 = 15_000; of -0.045% (ask 39,982.0): -45_000 + 50_000
    expect(book(USDT, [['BUY', 400_260n, 1n]]).tick(400_000n).predictedFundingRateE8).toBe(15_000);
    expect(book(USDT, [['SELL', 399_820n, 1n]]).tick(400_000n).predictedFundingRateE8).toBe(5_000);
  });

  it('the rate is capped at +-0.3%', () => {
    // bid 41,400.0: 3.5% -> 3.45% -> 0.3%; ask 38,600.0: -3.5% -> -3.45% -> -0.3%
    expect(book(USDT, [['BUY', 414_000n, 1n]]).tick(400_000n).predictedFundingRateE8).toBe(300_000);
    expect(book(USDT, [['SELL', 386_000n, 1n]]).tick(400_000n).predictedFundingRateE8).toBe(-300_000);
    // exactly at the cap: a premium of 0.35% (bid 40,140.0) gives 0.3%; 0.36% gives 0.31%, capped
    expect(book(USDT, [['BUY', 401_400n, 1n]]).tick(400_000n).predictedFundingRateE8).toBe(300_000);
    expect(book(USDT, [['BUY', 401_440n, 1n]]).tick(400_000n).predictedFundingRateE8).toBe(300_000);
    expect(book(USDT, [['BUY', 401_360n, 1n]]).tick(400_000n).predictedFundingRateE8).toBe(290_000);
  });

  it('the interval average weighs the samples 1, 2, 3, ... and restarts after a settlement', () => {
    const w = book(USDT, []);
    // weight 1, bid 40,040.0: 100_000; F = 50_000
    const b1 = w.ok(order('mm', 'BUY', 400_400n, 1n)).perpOrder as PerpOrderView;
    expect(w.tick(400_000n).predictedFundingRateE8).toBe(50_000);
    // weight 2, bid 40,080.0: 200_000; P = (100_000 + 400_000) / 3 = 166_666; F = 116_666
    const b2 = w.ok(order('mm', 'BUY', 400_800n, 1n)).perpOrder as PerpOrderView;
    expect(w.tick(400_000n).predictedFundingRateE8).toBe(116_666);
    // weight 3, empty book: 0; P = 500_000 / 6 = 83_333; F = 33_333 (unweighted: 100_000 -> 50_000)
    w.ok({ type: 'perpCancelOrder', userId: 'mm', orderId: b1.orderId });
    w.ok({ type: 'perpCancelOrder', userId: 'mm', orderId: b2.orderId });
    expect(w.tick(400_000n).predictedFundingRateE8).toBe(33_333);
    expect(ev(w.funding(F2, F2), 'fundingSettled')[0]?.rateE8).toBe(33_333);
    // a new interval: the bid 40,080.0 is its first sample, weight 1: P = 200_000, F = 150_000
    w.ok(order('mm', 'BUY', 400_800n, 1n));
    const st = w.tick(400_000n, F2 + 1);
    expect(st).toMatchObject({ predictedFundingRateE8: 150_000, lastFundingRateE8: 33_333, nextFundingTs: F3 });
    expect(ev(w.funding(F3, F3), 'fundingSettled')[0]?.rateE8).toBe(150_000);
  });
});

describe('price band: a limit price at most 50% from the mark', () => {
  function codes(index: bigint, over: Parameters<typeof perpEngine>[1], prices: ['BUY' | 'SELL', bigint][]): string[] {
    const w = world([], over);
    w.mark(index);
    return prices.map(([side, p]) => {
      const h = w.e.stateHash();
      const r = w.run(order('mm', side, p, 1n));
      if (r.code !== 'ok') expect(w.e.stateHash()).toBe(h);
      return r.code;
    });
  }
  it('mark 40,000.0: 20,000.0 and 60,000.0 are inside, one tick beyond is refused', () => {
    expect(
      codes(400_000n, {}, [
        ['BUY', 200_000n],
        ['BUY', 199_999n],
        ['SELL', 600_000n],
        ['SELL', 600_001n],
        ['SELL', 199_999n],
        ['BUY', 600_001n],
      ]),
    ).toEqual(['ok', 'price_out_of_band', 'ok', 'price_out_of_band', 'price_out_of_band', 'price_out_of_band']);
  });
  it('mark 40,000.1: the band is [20,000.05, 60,000.15]', () => {
    expect(
      codes(400_001n, {}, [
        ['BUY', 200_000n],
        ['BUY', 200_001n],
        ['SELL', 600_001n],
        ['SELL', 600_002n],
      ]),
    ).toEqual(['price_out_of_band', 'ok', 'ok', 'price_out_of_band']);
  });
  it('a 2% band on a 1.0 USDT tick, mark 37,894.0: [37,136.12, 38,651.88]', () => {
    expect(
      codes(378_940n, { priceBandPpm: 20_000, tickSize: 10n }, [
        ['BUY', 371_360n],
        ['BUY', 371_370n],
        ['SELL', 386_510n],
        ['SELL', 386_520n],
      ]),
    ).toEqual(['price_out_of_band', 'ok', 'ok', 'price_out_of_band']);
  });
});

describe("the insurance fund's close is limited at the band's edge, rounded on the tick inside the band", () => {
  /**
   * One bracket with 5% maintenance (max 10x), a 2% band, a 1.0 USDT tick (10 price units). u (isolated 10x) holds
   * 0.010 BTC at 40,000.0: margin 4e9; bankruptcy 36,000.0 for a long, 44,000.0 for a short. b rests 0.010 on the
   * fund's side of the book before u opens.
   * - Long, due when 4e9 + (mark - 400_000) x 10^5 <= 5% x mark x 10^5: at 37,894.0 (1.894e9 <= 1.8947e9), not at
   *   37,895.0 (1.895e9 > 1.89475e9). bandLow = 37,894.0 x 0.98 = 37,136.12, up to the tick: 37,137.0 (371_370),
   *   above 36,000.0: the fund's SELL is limited there.
   * - Short, due when 4e9 - (mark - 400_000) x 10^5 <= 5% x mark x 10^5: at 41,906.0, not at 41,904.0. bandHigh =
   *   41,906.0 x 1.02 = 42,744.12, down to the tick: 42,744.0 (427_440), below 44,000.0.
   */
  const CLAMP: LeverageBracket[] = [{ notionalCap: 10_000_000n * USDT, maintMarginPpm: 50_000, maxLeverage: 10 }];
  function clamped(side: 'LONG' | 'SHORT', rest: bigint, tickSize = 10n) {
    const w = world(
      [
        ['u', 10_000n * USDT],
        ['b', 1_000_000n * USDT],
      ],
      { brackets: CLAMP, priceBandPpm: 20_000, tickSize },
    );
    w.ok({ type: 'fundInsurance', asset: 'USDT', amount: 100_000n * USDT, from: '@faucet' });
    w.isolated('u');
    for (const id of ['u', 'mm', 'b']) w.leverage(id, 10);
    const long = side === 'LONG';
    w.mark(long ? 375_000n : 425_000n);
    w.ok(order('b', long ? 'BUY' : 'SELL', rest, 10n));
    w.mark(400_000n);
    w.ok(order('mm', long ? 'SELL' : 'BUY', 400_000n, 10n));
    w.ok(order('u', long ? 'BUY' : 'SELL', null, 10n));
    expect(w.e.position('u', SYM)).toMatchObject({ side, size: 10n, cost: 40_000_000_000n, margin: 4_000_000_000n });
    // one tick short of due: nothing happens
    w.mark(long ? 378_950n : 419_040n);
    expect(w.e.position('u', SYM)?.size).toBe(10n);
    const fund = w.sys(FUND);
    const r = w.run({ type: 'perpMarkPrice', symbol: SYM, indexPrice: long ? 378_940n : 419_060n });
    expect(r.code).toBe('ok');
    expect(w.e.position('u', SYM)).toBeUndefined();
    expect(w.e.position(FUND, SYM)).toBeUndefined();
    const fundOrder = ev(r, 'perpOrderUpdated')
      .map((x) => x.order)
      .filter((o) => o.userId === FUND);
    return { w, r, fund, fundOrder };
  }

  it('long: a bid at the band low 37,137.0 is taken; the fund gains (37,137.0 - 36,000.0) x 0.010', () => {
    const { w, r, fund, fundOrder } = clamped('LONG', 371_370n);
    expect(fundOrder).toMatchObject([
      { side: 'SELL', orderType: 'LIMIT', timeInForce: 'IOC', price: 371_370n, quantity: 10n, status: 'FILLED', filledQty: 10n },
    ]);
    expect(ev(r, 'perpTrade').map((t) => [t.kind, t.price, t.quantity, t.takerUserId, t.makerUserId])).toEqual([
      ['TAKEOVER', 360_000n, 10n, 'u', FUND],
      ['BOOK', 371_370n, 10n, FUND, 'b'],
    ]);
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'u', markPrice: 378_940n, insuranceDelta: 1_137_000_000n }]);
    expect(w.sys(FUND)).toBe(fund + 1_137_000_000n);
    expect(w.e.position('b', SYM)).toMatchObject({ side: 'LONG', size: 10n, cost: 37_137_000_000n });
  });

  it('long: a bid one tick below the band low (37,136.0) is not taken: the position is auto-deleveraged at 36,000.0', () => {
    const { w, r, fund, fundOrder } = clamped('LONG', 371_360n);
    expect(fundOrder).toMatchObject([{ side: 'SELL', price: 371_370n, status: 'EXPIRED', filledQty: 0n }]);
    expect(ev(r, 'perpTrade').map((t) => [t.kind, t.price, t.quantity, t.takerUserId])).toEqual([
      ['TAKEOVER', 360_000n, 10n, 'u'],
      ['ADL', 360_000n, 10n, 'mm'],
    ]);
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'u', insuranceDelta: 0n }]);
    expect(w.sys(FUND)).toBe(fund);
    expect(w.e.position('mm', SYM)).toBeUndefined();
    expect(w.e.perpOpenOrders('b').map((o) => [o.price, o.quantity, o.filledQty])).toEqual([[371_360n, 10n, 0n]]);
  });

  it('short: an ask at the band high 42,744.0 is taken; the fund gains (44,000.0 - 42,744.0) x 0.010', () => {
    const { w, r, fund, fundOrder } = clamped('SHORT', 427_440n);
    expect(fundOrder).toMatchObject([
      { side: 'BUY', orderType: 'LIMIT', timeInForce: 'IOC', price: 427_440n, quantity: 10n, status: 'FILLED', filledQty: 10n },
    ]);
    expect(ev(r, 'perpTrade').map((t) => [t.kind, t.price, t.quantity, t.takerUserId, t.makerUserId])).toEqual([
      ['TAKEOVER', 440_000n, 10n, 'u', FUND],
      ['BOOK', 427_440n, 10n, FUND, 'b'],
    ]);
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'u', markPrice: 419_060n, insuranceDelta: 1_256_000_000n }]);
    expect(w.sys(FUND)).toBe(fund + 1_256_000_000n);
  });

  it('short: an ask one tick above the band high (42,745.0) is not taken: auto-deleveraged at 44,000.0', () => {
    const { w, r, fund, fundOrder } = clamped('SHORT', 427_450n);
    expect(fundOrder).toMatchObject([{ side: 'BUY', price: 427_440n, status: 'EXPIRED', filledQty: 0n }]);
    expect(ev(r, 'perpTrade').map((t) => [t.kind, t.price, t.quantity, t.takerUserId])).toEqual([
      ['TAKEOVER', 440_000n, 10n, 'u'],
      ['ADL', 440_000n, 10n, 'mm'],
    ]);
    expect(w.sys(FUND)).toBe(fund);
    expect(w.e.position('mm', SYM)).toBeUndefined();
  });

  // On a 0.1 USDT tick (1 price unit) the edges are the exact bounds rounded inward: the band low 37,136.12 becomes
  // 37,136.2 (371_362), the band high 42,744.12 becomes 42,744.1 (427_441).
  for (const [side, at, beyond, markAt, gain] of [
    ['LONG', 371_362n, 371_361n, 378_940n, 1_136_200_000n],
    ['SHORT', 427_441n, 427_442n, 419_060n, 1_255_900_000n],
  ] as const) {
    it(`${side} on a 0.1 tick: the limit is the band edge ${at}, a resting price one unit beyond it is not taken`, () => {
      const inside = clamped(side, at, 1n);
      expect(inside.fundOrder).toMatchObject([{ price: at, status: 'FILLED', filledQty: 10n }]);
      // (37,136.2 - 36,000.0) x 0.010 = 11.362 USDT; (44,000.0 - 42,744.1) x 0.010 = 12.559 USDT
      expect(ev(inside.r, 'liquidated')).toMatchObject([{ userId: 'u', markPrice: markAt, insuranceDelta: gain }]);
      const outside = clamped(side, beyond, 1n);
      expect(outside.fundOrder).toMatchObject([{ price: at, status: 'EXPIRED', filledQty: 0n }]);
      expect(ev(outside.r, 'perpTrade').map((t) => t.kind)).toEqual(['TAKEOVER', 'ADL']);
    });
  }
});

describe('margin removal is judged at the mark price, not the last trade price', () => {
  it('an isolated long whose mark fell: at most margin + loss - initial margin at the mark can be removed', () => {
    // isolated 10x long 0.010 bought at 40,000.0 (last price 40,000.0), margin 4e9, topped up by 2e9 to 6e9. The mark
    // falls to 39,000.0 (no trade): unrealized -1e9; the initial margin at the mark 3.9e10 / 10 = 3.9e9; removable
    // 6e9 - 1e9 - 3.9e9 = 1.1e9 (at the last price it would be 6e9 - 0 - 4e9 = 2e9)
    const w = world([['u', 10_000n * USDT]]);
    w.isolated('u');
    w.leverage('u', 10);
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', 400_000n, 10n));
    w.ok(order('u', 'BUY', null, 10n));
    w.ok({ type: 'perpAdjustMargin', userId: 'u', symbol: SYM, amount: 2_000_000_000n });
    w.mark(390_000n);
    expect(w.e.perpMarkState(SYM)).toMatchObject({ markPrice: 390_000n, lastPrice: 400_000n });
    expect(w.run({ type: 'perpAdjustMargin', userId: 'u', symbol: SYM, amount: -1_100_000_001n }).code).toBe('insufficient_balance');
    w.ok({ type: 'perpAdjustMargin', userId: 'u', symbol: SYM, amount: -1_100_000_000n });
    expect(w.e.position('u', SYM)?.margin).toBe(4_900_000_000n);
  });
});

describe('views: open orders, depth, positions and their count', () => {
  it('perpOpenOrders: the resting orders in id order, by market, with their full view', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok({ type: 'addPerpMarket', market: perpMarket({ symbol: ETH, base: 'ETH' }) });
    w.mark(400_000n);
    w.mark(30_000n, ETH);
    const t1 = w.ts;
    // 0.002 at 39,000.0 at 20x: 7.8e9 / 20 + 0.05% = 390,000,000 + 3,900,000
    const o1 = w.ok(order('u', 'BUY', 390_000n, 2n, { clientOrderId: 'c1', takeProfit: 420_000n, stopLoss: 380_000n })).perpOrder as PerpOrderView;
    const v1: PerpOrderView = {
      orderId: o1.orderId,
      clientOrderId: 'c1',
      userId: 'u',
      symbol: SYM,
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 390_000n,
      quantity: 2n,
      lots: 0,
      reduceOnly: false,
      tradeType: 'OPEN_LONG',
      trigger: null,
      leverage: 20,
      marginMode: 'CROSS',
      filledQty: 0n,
      filledQuote: 0n,
      fee: 0n,
      realizedPnl: 0n,
      hold: 393_900_000n,
      takeProfit: 420_000n,
      stopLoss: 380_000n,
      status: 'NEW',
      createdTs: t1,
      updatedTs: t1,
    };
    expect(o1).toEqual(v1);
    const o2 = w.ok(order('u', 'SELL', 410_000n, 2n)).perpOrder as PerpOrderView;
    const o3 = w.ok({ ...order('u', 'BUY', 30_000n, 1_000n), symbol: ETH }).perpOrder as PerpOrderView;
    const o4 = w.ok(order('u', 'BUY', 395_000n, 1n)).perpOrder as PerpOrderView;
    const ids = (l: PerpOrderView[]) => l.map((o) => o.orderId);
    expect(ids(w.e.perpOpenOrders('u'))).toEqual([o1.orderId, o2.orderId, o3.orderId, o4.orderId]);
    w.ok({ type: 'perpCancelOrder', userId: 'u', orderId: o2.orderId });
    expect(ids(w.e.perpOpenOrders('u'))).toEqual([o1.orderId, o3.orderId, o4.orderId]);
    expect(ids(w.e.perpOpenOrders('u', SYM))).toEqual([o1.orderId, o4.orderId]);
    expect(ids(w.e.perpOpenOrders('u', ETH))).toEqual([o3.orderId]);
    expect(w.e.perpOpenOrders('u', 'XXX/USDT')).toEqual([]);
    expect(w.e.perpOpenOrders('nobody')).toEqual([]);
    expect(w.e.perpOpenOrders('u', SYM)[0]).toEqual(v1);
    // mm sells 0.002 at 39,000.0: o4 (the better bid, 39,500.0) fills, then 0.001 of o1
    const t2 = w.ts;
    w.ok(order('mm', 'SELL', 390_000n, 2n, { timeInForce: 'IOC' }));
    expect(ids(w.e.perpOpenOrders('u', SYM))).toEqual([o1.orderId]);
    // o1's fill: 3.9e9 of notional, maker fee 0.02% = 780,000, margin 3.9e9 / 20 = 195,000,000 from its hold
    expect(w.e.perpOpenOrders('u', SYM)).toEqual([
      {
        ...v1,
        status: 'PARTIALLY_FILLED',
        filledQty: 1n,
        filledQuote: 3_900_000_000n,
        fee: 780_000n,
        hold: 393_900_000n - 780_000n - 195_000_000n,
        updatedTs: t2,
      },
    ]);
    expect(w.e.perpOrder(o4.orderId)).toMatchObject({ status: 'FILLED', filledQty: 1n, hold: 0n });
  });

  it('perpDepth: bids high to low, asks low to high, one level per price, at most `levels`', () => {
    const w = world();
    w.mark(400_000n);
    for (const [side, p, q] of [
      ['BUY', 399_000n, 1n],
      ['BUY', 398_000n, 3n],
      ['BUY', 399_000n, 2n],
      ['BUY', 397_000n, 1n],
      ['SELL', 402_000n, 1n],
      ['SELL', 401_000n, 2n],
      ['SELL', 401_000n, 4n],
    ] as const)
      w.ok(order('mm', side, p, q));
    expect(w.e.perpDepth(SYM, 2)).toEqual({
      bids: [
        { price: 399_000n, quantity: 3n },
        { price: 398_000n, quantity: 3n },
      ],
      asks: [
        { price: 401_000n, quantity: 6n },
        { price: 402_000n, quantity: 1n },
      ],
    });
    expect(w.e.perpDepth(SYM, 10)).toEqual({
      bids: [
        { price: 399_000n, quantity: 3n },
        { price: 398_000n, quantity: 3n },
        { price: 397_000n, quantity: 1n },
      ],
      asks: [
        { price: 401_000n, quantity: 6n },
        { price: 402_000n, quantity: 1n },
      ],
    });
    expect(w.e.perpDepth('XXX/USDT', 5)).toEqual({ bids: [], asks: [] });
  });

  it('positions: one view per market in market order; positionCount counts the holders, without the fund', () => {
    const w = world([
      ['u', 10_000n * USDT],
      ['v', 10_000n * USDT],
    ]);
    w.ok({ type: 'addPerpMarket', market: perpMarket({ symbol: ETH, base: 'ETH' }) });
    w.mark(400_000n);
    w.mark(30_000n, ETH);
    expect(w.e.positions('u')).toEqual([]);
    expect([w.e.positionCount(SYM), w.e.positionCount(ETH), w.e.positionCount('XXX/USDT')]).toEqual([0, 0, 0]);
    // ETH first: isolated 10x short of 1.000 ETH at 3,000.0: cost 3e11, margin 3e10, taker fee 1.5e8
    w.isolated('u', ETH);
    w.leverage('u', 10, ETH);
    w.ok({ ...order('mm', 'BUY', 30_000n, 1_000n), symbol: ETH });
    const tEth = w.ts;
    w.ok({ ...order('u', 'SELL', null, 1_000n), symbol: ETH });
    // then BTC: cross 20x long 0.010 at 40,000.0: cost 4e10, margin 2e9, fee 2e7
    w.ok(order('mm', 'SELL', 400_000n, 10n));
    const tBtc = w.ts;
    w.ok(order('u', 'BUY', null, 10n, { takeProfit: 420_000n, stopLoss: 380_000n }));
    const btc = {
      userId: 'u',
      symbol: SYM,
      side: 'LONG',
      size: 10n,
      cost: 40_000_000_000n,
      entryPrice: 400_000n,
      margin: 2_000_000_000n,
      marginMode: 'CROSS',
      leverage: 20,
      realizedPnl: 0n,
      funding: 0n,
      fees: 20_000_000n,
      takeProfit: 420_000n,
      stopLoss: 380_000n,
      openTs: tBtc,
      updatedTs: tBtc,
    };
    const eth = {
      userId: 'u',
      symbol: ETH,
      side: 'SHORT',
      size: 1_000n,
      cost: 300_000_000_000n,
      entryPrice: 30_000n,
      margin: 30_000_000_000n,
      marginMode: 'ISOLATED',
      leverage: 10,
      realizedPnl: 0n,
      funding: 0n,
      fees: 150_000_000n,
      takeProfit: null,
      stopLoss: null,
      openTs: tEth,
      updatedTs: tEth,
    };
    // the markets' order (BTC was added first), not the positions'
    expect(w.e.positions('u')).toEqual([btc, eth]);
    expect(w.e.position('u', ETH)).toEqual(eth);
    expect([w.e.positionCount(SYM), w.e.positionCount(ETH)]).toEqual([2, 2]);
    // u closes half of BTC into v's bid at 40,100.0: realizes 1_000 x 5 x 10^4 = 5e7; still 2 holders
    w.ok(order('v', 'BUY', 401_000n, 10n));
    const tHalf = w.ts;
    const half = w.ok(order('u', 'SELL', 401_000n, 5n, { reduceOnly: true })).perpOrder as PerpOrderView;
    expect(half).toMatchObject({ status: 'FILLED', tradeType: 'CLOSE_LONG', realizedPnl: 50_000_000n, fee: 10_025_000n, filledQuote: 20_050_000_000n });
    expect(w.e.positions('u')[0]).toEqual({
      ...btc,
      size: 5n,
      cost: 20_000_000_000n,
      margin: 1_000_000_000n,
      realizedPnl: 50_000_000n,
      // + taker fee 2.005e10 x 0.05% = 10,025,000
      fees: 30_025_000n,
      updatedTs: tHalf,
    });
    expect(w.e.positionCount(SYM)).toBe(3);
    // open interest: BTC the longs u 0.005 + v 0.005 (= mm's 0.010 short); ETH mm's 1.000 long (= u's short)
    expect([w.e.openInterest(SYM), w.e.openInterest(ETH), w.e.openInterest('XXX/USDT')]).toEqual([10n, 1_000n, 0n]);
    // the rest: u is gone from BTC (v holds 0.010 long, mm 0.010 short)
    const r = w.ok(order('u', 'SELL', 401_000n, 5n, { reduceOnly: true }));
    expect(ev(r, 'positionChanged').find((x) => x.position.userId === 'u')?.position).toMatchObject({
      size: 0n,
      entryPrice: 400_000n,
      realizedPnl: 100_000_000n,
    });
    expect(w.e.positions('u')).toEqual([eth]);
    expect(w.e.position('u', SYM)).toBeUndefined();
    expect([w.e.positionCount(SYM), w.e.positionCount(ETH)]).toEqual([2, 2]);
    expect(w.e.openInterest(SYM)).toBe(10n);
    expect(w.e.positions('v')).toMatchObject([{ symbol: SYM, side: 'LONG', size: 10n, cost: 40_100_000_000n }]);
  });
});

describe("funding from a cross payer with positions in two markets: the available balance, then the cross positions' margins in the order they were opened", () => {
  /**
   * The high-rate setting above (3% on BTC, u cross long 0.010 BTC at 125x: margin 320,000,000, owes 1,200,000,000 at
   * F1) plus, opened after BTC, u's cross long of 0.100 ETH at 3,000.0 (20x: margin 3e10 / 20 = 1,500,000,000, taker
   * fee 15,000,000) bought from mm: `free` is what u keeps available after both. The ETH market has no premium
   * sample but 0, so its rate is the interest 0.01%: u owes 100 x 30_000 x 10^4 x 0.01% = 3,000,000 on ETH.
   */
  function twoMarkets(free: bigint) {
    let ethTs = 0;
    const run = (w: World): void => {
      w.ok({ type: 'addPerpMarket', market: perpMarket({ symbol: ETH, base: 'ETH' }) });
      w.mark(30_000n, ETH);
      w.ok({ ...order('mm', 'SELL', 30_000n, 100n), symbol: ETH });
      ethTs = w.ts;
      w.ok({ ...order('u', 'BUY', null, 100n), symbol: ETH });
      expect(w.e.position('u', ETH)).toMatchObject({ side: 'LONG', size: 100n, margin: 1_500_000_000n, marginMode: 'CROSS' });
      expect(w.bal('u')).toEqual({ available: free, frozen: 1_820_000_000n });
    };
    const w = new World(perpEngine([['mm', 1_000_000n * USDT]], { fundingCapE8: 3_000_000 }));
    w.deposit('u', 340_000_000n + 1_515_000_000n + free);
    w.ok({ type: 'fundInsurance', asset: 'USDT', amount: 1_000n * USDT, from: '@faucet' });
    w.leverage('u', 125);
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', 400_000n, 10n));
    w.ok(order('u', 'BUY', null, 10n));
    expect(w.e.position('u', SYM)).toMatchObject({ side: 'LONG', size: 10n, margin: 320_000_000n, marginMode: 'CROSS', leverage: 125 });
    run(w);
    w.ok(order('mm', 'BUY', 420_000n, 1n));
    expect(w.tick(400_000n, F1 - 1000)).toMatchObject({ markPrice: 400_000n, predictedFundingRateE8: 3_000_000 });
    const fund = w.sys(FUND);
    const r = w.funding(F1, F1);
    expect(r.code).toBe('ok');
    expect(w.sys(FUND)).toBe(fund);
    return { w, r, ethTs };
  }
  const changed = (r: CommandResult) => ev(r, 'positionChanged').map((x) => [x.position.userId, x.position.symbol, x.position.margin]);

  it("nothing available: BTC's margin, then ETH's pays the rest; a position with no margin left is passed over", () => {
    // 1.2e9 = BTC's 320,000,000 + 880,000,000 of ETH's margin (1.5e9 -> 620,000,000)
    const { w, r } = twoMarkets(0n);
    expect(ev(r, 'fundingPayment').map((p) => [p.userId, p.amount])).toEqual([
      ['u', -1_200_000_000n],
      ['mm', 1_200_000_000n],
    ]);
    expect(ev(r, 'fundingSettled')[0]).toMatchObject({ paid: 1_200_000_000n, received: 1_200_000_000n, positions: 2 });
    expect(w.bal('u')).toEqual({ available: 0n, frozen: 620_000_000n });
    expect(changed(r).filter((x) => x[0] === 'u')).toEqual([
      ['u', SYM, 0n],
      ['u', ETH, 620_000_000n],
    ]);
    // ETH's funding: BTC's position (no margin left) is passed over and untouched; ETH's margin pays 3,000,000
    const e = w.funding(F1, F1 + 1, ETH);
    expect(ev(e, 'fundingPayment').map((p) => [p.userId, p.symbol, p.amount])).toEqual([
      ['u', ETH, -3_000_000n],
      ['mm', ETH, 3_000_000n],
    ]);
    expect(changed(e)).toEqual([
      ['u', ETH, 617_000_000n],
      ['mm', ETH, 1_500_000_000n],
    ]);
    expect(w.bal('u')).toEqual({ available: 0n, frozen: 617_000_000n });
    expect(w.e.position('u', SYM)).toMatchObject({ margin: 0n, updatedTs: F1 });
  });

  it('the first cross margin covers the rest: the next position is neither drawn on nor touched', () => {
    // 900,000,000 available, then 300,000,000 of BTC's margin (-> 20,000,000); ETH's margin stays 1.5e9
    const { w, r, ethTs } = twoMarkets(900_000_000n);
    expect(ev(r, 'fundingPayment').map((p) => [p.userId, p.amount])).toEqual([
      ['u', -1_200_000_000n],
      ['mm', 1_200_000_000n],
    ]);
    expect(w.bal('u')).toEqual({ available: 0n, frozen: 1_520_000_000n });
    expect(changed(r).filter((x) => x[0] === 'u')).toEqual([['u', SYM, 20_000_000n]]);
    expect(w.e.position('u', ETH)).toMatchObject({ margin: 1_500_000_000n, updatedTs: ethTs });
  });

  it('the available balance covers it: no position margin is drawn on or touched', () => {
    // BTC's 1.2e9 and then ETH's 3,000,000 come out of the available balance; the ETH funding touches only ETH
    const { w, r } = twoMarkets(1_203_000_000n);
    expect(w.bal('u')).toEqual({ available: 3_000_000n, frozen: 1_820_000_000n });
    expect(changed(r).filter((x) => x[0] === 'u')).toEqual([['u', SYM, 320_000_000n]]);
    const e = w.funding(F1, F1 + 1, ETH);
    expect(ev(e, 'fundingPayment').map((p) => [p.userId, p.amount])).toEqual([
      ['u', -3_000_000n],
      ['mm', 3_000_000n],
    ]);
    expect(changed(e)).toEqual([
      ['u', ETH, 1_500_000_000n],
      ['mm', ETH, 1_500_000_000n],
    ]);
    expect(w.bal('u')).toEqual({ available: 0n, frozen: 1_820_000_000n });
    expect(w.e.position('u', SYM)?.updatedTs).toBe(F1);
  });
});

describe("a cross close's loss beyond the available balance and the closing order's hold: the position's margin pays the rest", () => {
  it("a resting SELL whose hold was taken at a low mark closes half at a loss: available, the order's hold, then the margin", () => {
    // u (cross 20x) buys 0.010 at 40,000.0: cost 4e10, margin 2e9, taker fee 2e7. At a mark of 35,000.0 (unrealized
    // -5e9) u rests a SELL of 0.005 at 35,000.0: its hold is 1.75e10 / 20 + 0.05% = 875,000,000 + 8,750,000 =
    // 883,750,000 (no open loss at the mark), within the max withdraw amount 5.98e9 - 5e9. The mark rises to 41,000.0
    // (a profit, which does not count): u moves all its available balance (5,096,250,000) out of CONTRACT.
    const w = world([['u', 8_000_000_000n]]);
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', 400_000n, 10n));
    w.ok(order('u', 'BUY', null, 10n));
    w.mark(350_000n);
    const placed = w.ok(order('u', 'SELL', 350_000n, 5n)).perpOrder as PerpOrderView;
    expect(placed).toMatchObject({ status: 'NEW', hold: 883_750_000n, tradeType: 'CLOSE_LONG' });
    w.mark(410_000n);
    w.ok({ type: 'transfer', userId: 'u', asset: 'USDT', from: 'CONTRACT', to: 'SPOT', amount: 5_096_250_000n });
    expect(w.bal('u')).toEqual({ available: 0n, frozen: 2_883_750_000n });
    const fund = w.sys(FUND);
    // mm buys 0.005 at 35,000.0 from u's order. u realizes 1.75e10 - 2e10 = -2.5e9: the closed half's margin 1e9
    // (released to the available balance) pays 1e9, the order's hold 883,750,000, the remaining position's margin
    // 616,250,000 (1e9 -> 383,750,000); then the maker fee 1.75e10 x 0.02% = 3,500,000 from that margin too
    // (-> 380,250,000). The fill guard: wallet 2,883,750,000 - 2.5e9 - 3,500,000 >= 0 (the rest's PnL at the mark
    // is a profit).
    const r = w.ok(order('mm', 'BUY', 350_000n, 5n));
    expect(ev(r, 'perpTrade').map((t) => [t.price, t.quantity, t.makerUserId, t.makerFee, t.makerRealizedPnl])).toEqual([
      [350_000n, 5n, 'u', 3_500_000n, -2_500_000_000n],
    ]);
    expect(w.e.perpOrder(placed.orderId)).toMatchObject({ status: 'FILLED', hold: 0n, fee: 3_500_000n, realizedPnl: -2_500_000_000n });
    expect(w.e.position('u', SYM)).toMatchObject({
      side: 'LONG',
      size: 5n,
      cost: 20_000_000_000n,
      margin: 380_250_000n,
      realizedPnl: -2_500_000_000n,
      fees: 23_500_000n,
    });
    expect(w.bal('u')).toEqual({ available: 0n, frozen: 380_250_000n });
    expect(w.sys(FUND)).toBe(fund);
  });
});

describe('cross figures in the market settlement asset: a USDC-settled market beside the USDT one', () => {
  it("a cross order in a USDC market is judged on the user's USDC wallet, less its isolated margins", () => {
    // BTC/USDT is the first market. u holds USDC only: an isolated long of 0.100 ETH at 3,000.0 on ETH/USDC (margin
    // 3e10 / 20 = 1.5e9, fee 1.5e7), then a cross long of 0.010 SOL at 100.0 on SOL/USDC (notional 1e8, margin 5e6,
    // taker fee 50,000): its cross wallet is the USDC balance less the isolated margin, 105,050,000 before the fill
    const ESOL = 'SOL/USDC';
    const EUSDC = 'ETH/USDC';
    const w = world();
    w.ok({ type: 'addAsset', asset: { code: 'USDC', scale: 8 } });
    for (const [symbol, base] of [
      [EUSDC, 'ETH'],
      [ESOL, 'SOL'],
    ] as const)
      w.ok({ type: 'addPerpMarket', market: perpMarket({ symbol, base, quote: 'USDC' }) });
    for (const [u, amount] of [
      ['u', 1_515_000_000n + 5_050_000n + 100_000_000n],
      ['v', 2_000_000_000n],
    ] as const)
      w.ok({ type: 'deposit', userId: u, asset: 'USDC', account: 'CONTRACT', amount, from: '@faucet' });
    w.mark(30_000n, EUSDC);
    w.mark(1_000n, ESOL);
    for (const [u, s] of [
      ['v', EUSDC],
      ['v', ESOL],
      ['u', EUSDC],
    ] as const)
      w.isolated(u, s);
    w.ok({ ...order('v', 'SELL', 30_000n, 100n), symbol: EUSDC });
    w.ok({ ...order('u', 'BUY', null, 100n), symbol: EUSDC });
    expect(w.e.position('u', EUSDC)).toMatchObject({ side: 'LONG', size: 100n, margin: 1_500_000_000n, marginMode: 'ISOLATED' });
    w.ok({ ...order('v', 'SELL', 1_000n, 10n), symbol: ESOL });
    const o = w.ok({ ...order('u', 'BUY', null, 10n), symbol: ESOL }).perpOrder as PerpOrderView;
    expect(o).toMatchObject({ status: 'FILLED', filledQty: 10n, marginMode: 'CROSS', fee: 50_000n });
    expect(w.e.position('u', ESOL)).toMatchObject({ side: 'LONG', size: 10n, margin: 5_000_000n, marginMode: 'CROSS' });
    expect(w.e.balance('u', 'CONTRACT', 'USDC')).toEqual({ available: 100_000_000n, frozen: 1_505_000_000n });
  });
});
