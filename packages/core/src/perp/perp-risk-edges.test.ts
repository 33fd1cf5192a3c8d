/**
 * Boundary tests of the perpetuals' risk rules on the shared test market (test/perp-fixture.ts: price in 0.1 USDT,
 * quantity in 0.001 BTC, so one price unit times one quantity unit is 10^4 quote units = 0.0001 USDT; maker 0.02%,
 * taker 0.05%; brackets 5,000 USDT at 125x / 0.4%, ...; price band 50%).
 *
 * Every figure is worked out in the comments from the published rules (Binance USDⓈ-M futures: order cost = initial
 * margin + open loss, max withdraw amount, isolated margin, the liquidation order at the bankruptcy price) and the
 * engine's docstrings (perp-engine.ts fillPayable, fundClose, leverageMarginMove, orderHoldMove; types.ts). The mark
 * price is moved only while the book is empty or one-sided, so that it equals the index (no basis sample is taken,
 * the last funding rate is 0: the median of index, index and the last price is the index).
 *
 * The fill guard ("a user's fill is executed only when the scope's equity after it, counting no unrealized profit,
 * stays >= 0") is tested at its boundary: each case is built so that the equity after the fill is exactly 0 (it
 * fills) and then with one quote unit less in the wallet (it does not: a taker expires, a maker's resting order
 * expires).
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine';
import type { Command, CommandResult } from '../types';
import type { LeverageBracket, PerpOrderView } from './types';
import { T0, USDT, perpEngine, perpMarket, ev, order } from '../../test/perp-fixture';

const SYM = 'BTC/USDT';
const ETH = 'ETH/USDT';
const FUND = '@insurance';
/** 1 USDT = 10^8 quote units; these tests write amounts in quote units. */
const UNIT = USDT;

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
  /** A mark tick at `index`; the tests only tick with an empty or one-sided book, so the mark is the index. */
  mark(index: bigint, symbol = SYM): CommandResult {
    const r = this.ok({ type: 'perpMarkPrice', symbol, indexPrice: index });
    expect(this.e.perpMarkState(symbol)?.markPrice).toBe(index);
    return r;
  }
  deposit(userId: string, amount: bigint): void {
    this.ok({ type: 'deposit', userId, asset: 'USDT', account: 'CONTRACT', amount, from: '@faucet' });
  }
  isolated(userId: string, symbol = SYM): void {
    this.ok({ type: 'perpSetMarginMode', userId, symbol, marginMode: 'ISOLATED' });
  }
  leverage(userId: string, leverage: number, symbol = SYM): CommandResult {
    return this.run({ type: 'perpSetLeverage', userId, symbol, leverage });
  }
  wallet(userId: string): bigint {
    const b = this.e.balance(userId, 'CONTRACT', 'USDT');
    return b.available + b.frozen;
  }
}

/** The market maker 'mm' (1,000,000 USDT, cross) and, on top, the given users' CONTRACT deposits. */
function world(users: [string, bigint][] = [], over: Parameters<typeof perpEngine>[1] = {}): World {
  const w = new World(perpEngine([['mm', 1_000_000n * UNIT]], over));
  for (const [u, amount] of users) w.deposit(u, amount);
  return w;
}

const opposite = (side: 'BUY' | 'SELL'): 'BUY' | 'SELL' => (side === 'BUY' ? 'SELL' : 'BUY');

describe('fill guard: a resting opening order whose open loss grew since it was placed', () => {
  /**
   * u rests an opening order of 0.010 BTC at 40,000.0 (notional 400 USDT = 4e10) at the default 20x: it holds
   * initial margin ceil(4e10 / 20) = 2e9 plus the taker fee 4e10 x 0.05% = 2e7, 2,020,000,000 in all (no open loss
   * at placement: its price is the mark). The mark then moves against it and mm takes it at 40,000.0: u's fill pays
   * the maker fee 4e10 x 0.02% = 8e6 and opens with an open loss of |mark - 40,000.0| x 10 x 10^4.
   */
  function makerOpening(mode: 'ISOLATED' | 'CROSS', side: 'BUY' | 'SELL', markAfter: bigint, deposit: bigint, otherHold = false) {
    const w = world([['u', deposit]]);
    if (mode === 'ISOLATED') w.isolated('u');
    w.mark(400_000n);
    if (otherHold) {
      // another opening order far from the book, same side: 0.001 at 30,000.0 (BUY) or 50,000.0 (SELL)
      const other = w.ok(order('u', side, side === 'BUY' ? 300_000n : 500_000n, 1n)).perpOrder as PerpOrderView;
      // 3e9 (or 5e9) / 20 + 0.05%: 151,500,000 (or 252,500,000)
      expect(other.hold).toBe(side === 'BUY' ? 151_500_000n : 252_500_000n);
    }
    const o = w.ok(order('u', side, 400_000n, 10n)).perpOrder as PerpOrderView;
    expect(o.status).toBe('NEW');
    expect(o.hold).toBe(2_020_000_000n);
    w.mark(markAfter);
    const r = w.ok(order('mm', opposite(side), 400_000n, 10n, { timeInForce: 'IOC' }));
    return { w, r, resting: w.e.perpOrder(o.orderId) as PerpOrderView, pos: w.e.position('u', SYM) };
  }

  // Isolated, mark 1,000.0 against the order (loss 10,000 x 10 x 10^4 = 1e9): the fill brings the free balance + the
  // hold - the maker fee - (initial margin 2e9 + open loss 1e9) = free + 2,020,000,000 - 8,000,000 - 3,000,000,000,
  // which is 0 with a free balance of 988,000,000: deposit 2,020,000,000 + 988,000,000 = 3,008,000,000.
  for (const side of ['BUY', 'SELL'] as const) {
    const markAfter = side === 'BUY' ? 390_000n : 410_000n;
    it(`isolated ${side}: fills when it brings exactly its initial margin, open loss and fee`, () => {
      const { w, r, resting, pos } = makerOpening('ISOLATED', side, markAfter, 3_008_000_000n);
      expect(ev(r, 'perpTrade')).toHaveLength(1);
      expect(ev(r, 'perpTrade')[0]).toMatchObject({ price: 400_000n, quantity: 10n, makerUserId: 'u', makerFee: 8_000_000n });
      expect(resting).toMatchObject({ status: 'FILLED', filledQty: 10n, hold: 0n });
      // the position keeps the initial margin and the open loss (Binance's order cost)
      expect(pos).toMatchObject({ side: side === 'BUY' ? 'LONG' : 'SHORT', size: 10n, cost: 40_000_000_000n, margin: 3_000_000_000n, marginMode: 'ISOLATED' });
      expect(w.e.balance('u', 'CONTRACT', 'USDT')).toEqual({ available: 0n, frozen: 3_000_000_000n });
    });
    it(`isolated ${side}: one quote unit short, the resting order expires unfilled`, () => {
      const { w, r, resting, pos } = makerOpening('ISOLATED', side, markAfter, 3_007_999_999n);
      expect(ev(r, 'perpTrade')).toEqual([]);
      expect(resting).toMatchObject({ status: 'EXPIRED', filledQty: 0n, hold: 0n });
      expect(pos).toBeUndefined();
      expect(w.e.balance('u', 'CONTRACT', 'USDT')).toEqual({ available: 3_007_999_999n, frozen: 0n });
      expect(w.e.position('mm', SYM)).toBeUndefined();
    });
  }

  // Cross, mark 3,000.0 against the order (open loss 3e9): wallet - others' holds - maker fee + min(0, upnl after)
  // = deposit - 0 - 8,000,000 - 3,000,000,000, which is 0 with a deposit of 3,008,000,000. The order's own hold is
  // in the wallet and pays (it is not "another order's hold").
  for (const side of ['BUY', 'SELL'] as const) {
    const markAfter = side === 'BUY' ? 370_000n : 430_000n;
    it(`cross ${side}: fills at margin balance exactly 0, and the account view shows the cap risk level`, () => {
      const { w, r, resting, pos } = makerOpening('CROSS', side, markAfter, 3_008_000_000n);
      expect(ev(r, 'perpTrade')).toHaveLength(1);
      expect(resting).toMatchObject({ status: 'FILLED', filledQty: 10n });
      expect(pos).toMatchObject({ size: 10n, cost: 40_000_000_000n, margin: 2_000_000_000n, marginMode: 'CROSS' });
      // wallet 3,008,000,000 - 8,000,000 = 3e9; unrealized -3e9: margin balance 0 with a position -> the cap
      expect(w.e.perpAccount('u')).toEqual({
        walletBalance: 3_000_000_000n,
        crossWalletBalance: 3_000_000_000n,
        crossUnrealizedPnl: -3_000_000_000n,
        crossMarginBalance: 0n,
        // 0.4% of the notional at the mark (3.7e10 or 4.3e10), rounded up
        crossMaintMargin: side === 'BUY' ? 148_000_000n : 172_000_000n,
        // available 1e9 (wallet less the margin 2e9) + the loss -3e9, floored at 0
        availableBalance: 0n,
        maxWithdrawAmount: 0n,
        riskLevelPpm: 1_000_000_000,
      });
    });
    it(`cross ${side}: one quote unit short, the resting order expires`, () => {
      const { r, resting, pos } = makerOpening('CROSS', side, markAfter, 3_007_999_999n);
      expect(ev(r, 'perpTrade')).toEqual([]);
      expect(resting).toMatchObject({ status: 'EXPIRED', filledQty: 0n, hold: 0n });
      expect(pos).toBeUndefined();
    });
    it(`cross ${side}: one quote unit over, the margin balance is 1 unit and the risk level stays at the cap`, () => {
      const { w, pos } = makerOpening('CROSS', side, markAfter, 3_008_000_001n);
      expect(pos?.size).toBe(10n);
      const a = w.e.perpAccount('u');
      expect(a.crossMarginBalance).toBe(1n);
      // maintenance 148,000,000 (or 172,000,000) x 1e6 / 1 is far above 1000x: capped at 1,000,000,000 ppm
      expect(a.riskLevelPpm).toBe(1_000_000_000);
    });
    it(`cross ${side}: the holds of the user's other open orders do not pay the fill`, () => {
      const extra = side === 'BUY' ? 151_500_000n : 252_500_000n;
      const paid = makerOpening('CROSS', side, markAfter, 3_008_000_000n + extra, true);
      expect(paid.resting.status).toBe('FILLED');
      expect(paid.w.e.perpOpenOrders('u')).toHaveLength(1);
      const short = makerOpening('CROSS', side, markAfter, 3_008_000_000n + extra - 1n, true);
      expect(short.resting.status).toBe('EXPIRED');
      expect(short.pos).toBeUndefined();
      // the other order still rests with its hold
      expect(short.w.e.perpOpenOrders('u').map((o) => o.hold)).toEqual([extra]);
    });
  }
});

describe('fill guard: an isolated order in another market', () => {
  /**
   * The cross wallet is the wallet less isolated margins and isolated orders' holds; those holds are not "other cross
   * orders' holds" as well. u rests an isolated ETH bid of 1.000 ETH at 3,000.0 (3e11 / 20 + 0.05% = 15,150,000,000)
   * and the cross BTC bid of the cross BUY case above (mark 37,000.0: needs 3,008,000,000 of cross wallet).
   */
  function withIsolatedEthOrder(deposit: bigint) {
    const w = world([['u', deposit]]);
    w.ok({ type: 'addPerpMarket', market: perpMarket({ symbol: ETH, base: 'ETH' }) });
    w.isolated('u', ETH);
    w.mark(30_000n, ETH);
    w.mark(400_000n);
    const eth = w.ok({ ...order('u', 'BUY', 30_000n, 1_000n), symbol: ETH }).perpOrder as PerpOrderView;
    expect(eth).toMatchObject({ hold: 15_150_000_000n, marginMode: 'ISOLATED' });
    const o = w.ok(order('u', 'BUY', 400_000n, 10n)).perpOrder as PerpOrderView;
    expect(o).toMatchObject({ hold: 2_020_000_000n, marginMode: 'CROSS' });
    w.mark(370_000n);
    w.ok(order('mm', 'SELL', 400_000n, 10n, { timeInForce: 'IOC' }));
    return { w, resting: w.e.perpOrder(o.orderId) as PerpOrderView };
  }
  it('fills with exactly the cross need on top of the isolated hold', () => {
    const { w, resting } = withIsolatedEthOrder(15_150_000_000n + 3_008_000_000n);
    expect(resting.status).toBe('FILLED');
    expect(w.e.perpAccount('u')).toMatchObject({ crossWalletBalance: 3_000_000_000n, crossMarginBalance: 0n });
  });
  it('one quote unit short: expires', () => {
    const { resting } = withIsolatedEthOrder(15_150_000_000n + 3_007_999_999n);
    expect(resting).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
  });
});

describe("fill guard: a taker's partial close of 0.002 of a 0.004 BTC position bought at 40,000.0", () => {
  /**
   * u (10x) buys 0.004 at 40,000.0: cost 1.6e10, margin 1.6e9, taker fee 8e6. The mark moves to `markAfter`; mm bids
   * `bid` for 0.002 and u closes 0.002 at market (reduce-only, a taker holding nothing). The closed half realizes
   * (bid - 40,000.0) x 2 x 10^4 and pays the taker fee bid x 2 x 10^4 x 0.05%; the other half keeps its PnL at the
   * mark, counted only if it is a loss.
   */
  function partialClose(mode: 'ISOLATED' | 'CROSS', side: 'LONG' | 'SHORT', markAfter: bigint, bid: bigint, deposit: bigint) {
    const w = world([['u', deposit]]);
    if (mode === 'ISOLATED') w.isolated('u');
    expect(w.leverage('u', 10).code).toBe('ok');
    w.mark(400_000n);
    const open: 'BUY' | 'SELL' = side === 'LONG' ? 'BUY' : 'SELL';
    w.ok(order('mm', opposite(open), 400_000n, 4n));
    w.ok(order('u', open, null, 4n));
    expect(w.e.position('u', SYM)).toMatchObject({ side, size: 4n, cost: 16_000_000_000n, margin: 1_600_000_000n });
    expect(w.wallet('u')).toBe(deposit - 8_000_000n);
    w.mark(markAfter);
    w.ok(order('mm', open, bid, 2n));
    const r = w.ok(order('u', opposite(open), null, 2n, { reduceOnly: true }));
    return { w, r, pos: w.e.position('u', SYM) };
  }

  const cases = [
    // long, mark 39,000.0 (the rest loses 1,000.0 x 2 x 10^4 = 2e8), sold at 30,000.0: pnl -2e9, fee 3e6.
    // cross: wallet + pnl - fee + min(0, rest) = wallet - 2,203,000,000 -> deposit 2,203,000,000 + 8,000,000.
    // isolated: margin 1.6e9 + pnl - 2e8 + (free - fee) = free - 603,000,000 -> deposit 603e6 + 1.6e9 + 8e6.
    { side: 'LONG', markAfter: 390_000n, bid: 300_000n, deposit: 2_211_000_000n, restLoss: true },
    // long, mark 41,000.0: the rest gains 2e8, which does not count: cross wallet - 2,003,000,000; isolated free -
    // 403,000,000 -> deposit 2,011,000,000 either way
    { side: 'LONG', markAfter: 410_000n, bid: 300_000n, deposit: 2_011_000_000n, restLoss: false },
    // short, mark 41,000.0 (the rest loses 2e8), bought back at 50,000.0: pnl -2e9, fee 5e6 -> wallet 2,205,000,000
    { side: 'SHORT', markAfter: 410_000n, bid: 500_000n, deposit: 2_213_000_000n, restLoss: true },
    // short, mark 39,000.0 (the rest gains): wallet 2,005,000,000
    { side: 'SHORT', markAfter: 390_000n, bid: 500_000n, deposit: 2_013_000_000n, restLoss: false },
  ] as const;

  for (const mode of ['CROSS', 'ISOLATED'] as const) {
    for (const c of cases) {
      const label = `${mode} ${c.side}, the rest ${c.restLoss ? 'at a loss' : 'in profit'}`;
      it(`${label}: the close that leaves exactly 0 fills`, () => {
        const { w, r, pos } = partialClose(mode, c.side, c.markAfter, c.bid, c.deposit);
        const t = ev(r, 'perpTrade');
        expect(t).toHaveLength(1);
        expect(t[0]).toMatchObject({ price: c.bid, quantity: 2n, takerUserId: 'u', takerRealizedPnl: -2_000_000_000n });
        expect(r.perpOrder).toMatchObject({ status: 'FILLED', filledQty: 2n });
        expect(pos).toMatchObject({ side: c.side, size: 2n, cost: 8_000_000_000n });
        if (mode === 'CROSS' && c.restLoss) {
          // wallet left 2e8, the rest's loss -2e8: margin balance exactly 0 with a position: risk level at the cap
          const a = w.e.perpAccount('u');
          expect(a).toMatchObject({ walletBalance: 200_000_000n, crossUnrealizedPnl: -200_000_000n, crossMarginBalance: 0n, riskLevelPpm: 1_000_000_000 });
        }
      });
      it(`${label}: one quote unit less and the taker expires unfilled`, () => {
        const { r, pos } = partialClose(mode, c.side, c.markAfter, c.bid, c.deposit - 1n);
        expect(ev(r, 'perpTrade')).toEqual([]);
        expect(r.perpOrder).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
        expect(pos).toMatchObject({ side: c.side, size: 4n, cost: 16_000_000_000n });
      });
    }
  }
});

describe('fill guard: an isolated resting flip (closes 0.004, opens 0.006) after the mark moved against the new side', () => {
  /**
   * u (isolated 20x) is long 0.004 at 40,000.0 (margin 8e8, fee 8e6) and rests a SELL of 0.010 at 40,000.0 (not
   * reduce-only: hold ceil(4e10 / 20) + 2e7 = 2,020,000,000). The mark rises to 44,000.0 and mm buys 0.010 at
   * 40,000.0. The close part realizes 0 and keeps the margin 8e8; the opened short of 0.006 costs its initial margin
   * 2.4e10 / 20 = 1.2e9 plus its open loss 4,000.0 x 6 x 10^4 = 2.4e9; the fee is 8e6:
   * 8e8 + free + 2,020,000,000 - 8,000,000 - 3,600,000,000 = free - 788,000,000.
   * Deposit = 788,000,000 free + 8e8 margin + 8e6 fee + 2,020,000,000 hold = 3,616,000,000.
   */
  function flip(deposit: bigint) {
    const w = world([['u', deposit]]);
    w.isolated('u');
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', 400_000n, 4n));
    w.ok(order('u', 'BUY', null, 4n));
    expect(w.e.position('u', SYM)).toMatchObject({ size: 4n, margin: 800_000_000n });
    const o = w.ok(order('u', 'SELL', 400_000n, 10n)).perpOrder as PerpOrderView;
    expect(o.hold).toBe(2_020_000_000n);
    w.mark(440_000n);
    const r = w.ok(order('mm', 'BUY', 400_000n, 10n, { timeInForce: 'IOC' }));
    return { w, r, resting: w.e.perpOrder(o.orderId) as PerpOrderView };
  }
  it('fills when the equity after is exactly 0: short 0.006 with initial margin + open loss', () => {
    const { w, r, resting } = flip(3_616_000_000n);
    expect(ev(r, 'perpTrade')).toHaveLength(1);
    expect(resting).toMatchObject({ status: 'FILLED', filledQty: 10n });
    expect(w.e.position('u', SYM)).toMatchObject({ side: 'SHORT', size: 6n, cost: 24_000_000_000n, margin: 3_600_000_000n });
  });
  it('one quote unit short: the resting flip expires and the long stays', () => {
    const { w, r, resting } = flip(3_615_999_999n);
    expect(ev(r, 'perpTrade')).toEqual([]);
    expect(resting).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
    expect(w.e.position('u', SYM)).toMatchObject({ side: 'LONG', size: 4n, margin: 800_000_000n });
  });
});

describe("the insurance fund's close of a taken-over position", () => {
  /**
   * u (isolated 10x) holds 0.010 BTC at 40,000.0: cost 4e10, margin 4e9. Taken over at the bankruptcy price: the fund
   * holds it at cost 4e10 - 4e9 = 3.6e10 for a long (36,000.0), 4e10 + 4e9 = 4.4e10 for a short (44,000.0). With the
   * fixture's 0.4% maintenance, a long is due at a mark of 36,100.0 (margin balance 4e9 - 3.9e9 = 1e8 <= 0.4% of
   * 3.61e10 = 1.444e8), a short at 43,900.0 (4e9 - 3.9e9 = 1e8 <= 1.756e8).
   */
  function takenOver(side: 'LONG' | 'SHORT', book: (w: World) => void, over: Parameters<typeof perpEngine>[1] = {}) {
    const w = world(
      [
        ['u', 10_000n * UNIT],
        ['b', 1_000_000n * UNIT],
      ],
      over,
    );
    w.ok({ type: 'fundInsurance', asset: 'USDT', amount: 100_000n * UNIT, from: '@faucet' });
    w.isolated('u');
    for (const id of ['u', 'mm', 'b']) expect(w.leverage(id, 10).code).toBe('ok');
    w.mark(400_000n);
    const open: 'BUY' | 'SELL' = side === 'LONG' ? 'BUY' : 'SELL';
    w.ok(order('mm', opposite(open), 400_000n, 10n));
    w.ok(order('u', open, null, 10n));
    expect(w.e.position('u', SYM)).toMatchObject({ side, size: 10n, cost: 40_000_000_000n, margin: 4_000_000_000n });
    book(w);
    return w;
  }
  const fundOrders = (r: CommandResult) => ({
    accepted: ev(r, 'perpOrderAccepted').filter((x) => x.order.userId === FUND),
    updated: ev(r, 'perpOrderUpdated').filter((x) => x.order.userId === FUND),
  });

  it('long: an IOC reduce-only SELL limited at the bankruptcy price 36,000.0 fills the bid there (FILLED)', () => {
    const w = takenOver('LONG', (x) => x.ok(order('b', 'BUY', 360_000n, 10n)));
    const fund0 = w.wallet(FUND) + w.e.balance(FUND, 'SYSTEM', 'USDT').available;
    const r = w.mark(361_000n);
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'u', marginMode: 'ISOLATED', size: 10n, side: 'LONG', insuranceDelta: 0n }]);
    const { accepted, updated } = fundOrders(r);
    expect(accepted).toHaveLength(1);
    expect(updated).toHaveLength(1);
    const o = updated[0]!.order;
    expect(o).toMatchObject({
      userId: FUND,
      symbol: SYM,
      side: 'SELL',
      orderType: 'LIMIT',
      timeInForce: 'IOC',
      price: 360_000n,
      quantity: 10n,
      reduceOnly: true,
      trigger: 'LIQUIDATION',
      tradeType: 'FORCE_CLOSE',
      status: 'FILLED',
      filledQty: 10n,
      filledQuote: 36_000_000_000n,
      fee: 0n,
    });
    expect(o.orderId).toMatch(/^[1-9][0-9]*$/);
    expect(accepted[0]!.order.orderId).toBe(o.orderId);
    expect(w.e.perpOrder(o.orderId)?.status).toBe('FILLED');
    const trades = ev(r, 'perpTrade').filter((t) => t.kind === 'BOOK');
    expect(trades).toMatchObject([{ price: 360_000n, quantity: 10n, takerUserId: FUND, makerUserId: 'b', takerFee: 0n, takerRealizedPnl: 0n }]);
    expect(ev(r, 'perpTrade').filter((t) => t.kind === 'ADL')).toEqual([]);
    expect(w.e.position(FUND, SYM)).toBeUndefined();
    expect(w.e.position('b', SYM)).toMatchObject({ side: 'LONG', size: 10n, cost: 36_000_000_000n });
    expect(w.e.position('mm', SYM)).toMatchObject({ side: 'SHORT', size: 10n });
    // u lost exactly its isolated margin; the fund neither gained nor lost
    expect(w.wallet('u')).toBe(10_000n * UNIT - 20_000_000n - 4_000_000_000n);
    expect(w.wallet(FUND) + w.e.balance(FUND, 'SYSTEM', 'USDT').available).toBe(fund0);
  });

  it('long: a bid for only 0.006 at the limit: the order is EXPIRED with 0.006 filled, the rest auto-deleveraged', () => {
    const w = takenOver('LONG', (x) => x.ok(order('b', 'BUY', 360_000n, 6n)));
    const r = w.mark(361_000n);
    const { updated } = fundOrders(r);
    expect(updated.map((x) => x.order)).toMatchObject([
      { side: 'SELL', price: 360_000n, quantity: 10n, status: 'EXPIRED', filledQty: 6n, trigger: 'LIQUIDATION', reduceOnly: true },
    ]);
    // the fund's 0.004 left goes to ADL against mm's short at the fund's entry (36,000.0)
    expect(ev(r, 'perpTrade').filter((t) => t.kind === 'ADL')).toMatchObject([{ takerUserId: 'mm', quantity: 4n, price: 360_000n }]);
    expect(w.e.position(FUND, SYM)).toBeUndefined();
    expect(w.e.position('mm', SYM)).toMatchObject({ side: 'SHORT', size: 6n });
  });

  it('long: only asks in the book (no bid to sell into): no order, the whole position is auto-deleveraged', () => {
    const w = takenOver('LONG', (x) => x.ok(order('b', 'SELL', 380_000n, 10n)));
    const r = w.mark(361_000n);
    expect(ev(r, 'liquidated')).toHaveLength(1);
    const { accepted, updated } = fundOrders(r);
    expect(accepted).toEqual([]);
    expect(updated).toEqual([]);
    expect(ev(r, 'perpTrade').filter((t) => t.kind === 'BOOK')).toEqual([]);
    expect(ev(r, 'perpTrade').filter((t) => t.kind === 'ADL')).toMatchObject([{ takerUserId: 'mm', quantity: 10n, price: 360_000n }]);
    expect(w.e.position(FUND, SYM)).toBeUndefined();
    expect(w.e.position('mm', SYM)).toBeUndefined();
    expect(w.e.perpOpenOrders('b')).toHaveLength(1);
  });

  it('long: an empty book: no order, the whole position is auto-deleveraged', () => {
    const w = takenOver('LONG', () => undefined);
    const r = w.mark(361_000n);
    expect(fundOrders(r)).toEqual({ accepted: [], updated: [] });
    expect(w.e.position(FUND, SYM)).toBeUndefined();
    expect(w.e.position('mm', SYM)).toBeUndefined();
  });

  it('short: an IOC reduce-only BUY limited at the bankruptcy price 44,000.0 fills the ask there', () => {
    const w = takenOver('SHORT', (x) => x.ok(order('b', 'SELL', 440_000n, 10n)));
    const r = w.mark(439_000n);
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'u', side: 'SHORT', insuranceDelta: 0n }]);
    const { accepted, updated } = fundOrders(r);
    expect(accepted).toHaveLength(1);
    expect(updated.map((x) => x.order)).toMatchObject([
      {
        symbol: SYM,
        side: 'BUY',
        orderType: 'LIMIT',
        timeInForce: 'IOC',
        price: 440_000n,
        quantity: 10n,
        reduceOnly: true,
        trigger: 'LIQUIDATION',
        status: 'FILLED',
        filledQty: 10n,
      },
    ]);
    expect(w.e.position(FUND, SYM)).toBeUndefined();
    expect(w.e.position('b', SYM)).toMatchObject({ side: 'SHORT', size: 10n, cost: 44_000_000_000n });
  });

  it('short: only bids in the book: no order, auto-deleveraged', () => {
    const w = takenOver('SHORT', (x) => x.ok(order('b', 'BUY', 420_000n, 10n)));
    const r = w.mark(439_000n);
    expect(ev(r, 'liquidated')).toHaveLength(1);
    expect(fundOrders(r)).toEqual({ accepted: [], updated: [] });
    expect(ev(r, 'perpTrade').filter((t) => t.kind === 'ADL')).toMatchObject([{ takerUserId: 'mm', quantity: 10n, price: 440_000n }]);
    expect(w.e.position(FUND, SYM)).toBeUndefined();
    expect(w.e.position('mm', SYM)).toBeUndefined();
  });

  /**
   * Rounding on a 1.0 USDT tick (tickSize 10): with 300,000 units (0.003 USDT) of margin added, the long's takeover
   * cost is 4e10 - 4,000,300,000 = 35,999,700,000, a bankruptcy price of 35,999.7, and the fund sells no lower: its
   * limit rounds up to 36,000.0. The short's is (4e10 + 4,000,300,000) / 10^5 = 44,000.3: the fund buys no higher,
   * 44,000.0. A bid one tick below (or an ask one tick above) is not taken.
   */
  for (const [side, mark, limit, worse] of [
    ['LONG', 361_000n, 360_000n, 359_990n],
    ['SHORT', 439_000n, 440_000n, 440_010n],
  ] as const) {
    const take: 'BUY' | 'SELL' = side === 'LONG' ? 'BUY' : 'SELL';
    it(`${side} on a 1.0 tick: the limit is the bankruptcy price rounded in the fund's favour`, () => {
      const at = takenOver(side, (x) => x.ok({ type: 'perpAdjustMargin', userId: 'u', symbol: SYM, amount: 300_000n }), { tickSize: 10n });
      at.ok(order('b', take, limit, 10n));
      expect(fundOrders(at.mark(mark)).updated.map((x) => x.order)).toMatchObject([{ price: limit, status: 'FILLED', filledQty: 10n }]);
      const beyond = takenOver(side, (x) => x.ok({ type: 'perpAdjustMargin', userId: 'u', symbol: SYM, amount: 300_000n }), { tickSize: 10n });
      beyond.ok(order('b', take, worse, 10n));
      const r = beyond.mark(mark);
      expect(fundOrders(r).updated.map((x) => x.order)).toMatchObject([{ price: limit, status: 'EXPIRED', filledQty: 0n }]);
      expect(ev(r, 'perpTrade').filter((t) => t.kind === 'ADL')).toMatchObject([{ takerUserId: 'mm', quantity: 10n }]);
      expect(beyond.e.position(FUND, SYM)).toBeUndefined();
    });
  }

  /**
   * The clamp to the price band: one bracket with 5% maintenance (max 10x) and a 2% band. The 10x long (bankruptcy
   * 36,000.0) is due when 4e9 + (mark - 40,000.0) x 10^5 <= 5% of mark x 10^5, i.e. at a mark <= 37,894.7; the short
   * (bankruptcy 44,000.0) at a mark >= 41,904.8. At a mark of 37,800.0 the band's low is 37,800.0 x 0.98 = 37,044.0,
   * above the bankruptcy price: the fund's SELL is limited at 37,044.0. At 42,000.0 the band's high is 42,840.0, below
   * 44,000.0: the fund's BUY is limited at 42,840.0.
   */
  const CLAMP: LeverageBracket[] = [{ notionalCap: 10_000_000n * UNIT, maintMarginPpm: 50_000, maxLeverage: 10 }];
  it("long: the limit is raised to the band's low; the fund gains what the bid pays above its entry", () => {
    const w = takenOver('LONG', () => undefined, { brackets: CLAMP, priceBandPpm: 20_000 });
    // 37,900.0 is not yet due (margin balance 1.9e9 > 1.895e9); its band [37,142.0, 38,658.0] admits a bid at 37,142.0
    w.mark(379_000n);
    expect(w.e.position('u', SYM)?.size).toBe(10n);
    w.ok(order('b', 'BUY', 371_420n, 10n));
    const r = w.mark(378_000n);
    const { updated } = fundOrders(r);
    expect(updated.map((x) => x.order)).toMatchObject([{ side: 'SELL', price: 370_440n, status: 'FILLED', filledQty: 10n }]);
    expect(ev(r, 'perpTrade').filter((t) => t.kind === 'BOOK')).toMatchObject([{ price: 371_420n, takerRealizedPnl: 1_142_000_000n }]);
    // sold 10 at 37,142.0 = 3.7142e10 against the takeover cost 3.6e10
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'u', insuranceDelta: 1_142_000_000n }]);
    expect(w.e.position(FUND, SYM)).toBeUndefined();
  });
  it("short: the limit is lowered to the band's high", () => {
    const w = takenOver('SHORT', () => undefined, { brackets: CLAMP, priceBandPpm: 20_000 });
    // 41,900.0 is not yet due (2.1e9 > 2.095e9); its band's high is 42,738.0
    w.mark(419_000n);
    expect(w.e.position('u', SYM)?.size).toBe(10n);
    w.ok(order('b', 'SELL', 427_380n, 10n));
    const r = w.mark(420_000n);
    const { updated } = fundOrders(r);
    expect(updated.map((x) => x.order)).toMatchObject([{ side: 'BUY', price: 428_400n, status: 'FILLED', filledQty: 10n }]);
    // bought 10 at 42,738.0 = 4.2738e10 against the takeover cost 4.4e10: the fund gains 1.262e9
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'u', insuranceDelta: 1_262_000_000n }]);
    expect(w.e.position(FUND, SYM)).toBeUndefined();
  });
});

describe('leverage changes', () => {
  it('refuses an empty, system or non-string user id (invalid_order) and changes nothing', () => {
    const w = world();
    const h = w.e.stateHash();
    expect(w.leverage('', 10).code).toBe('invalid_order');
    expect(w.leverage('@insurance', 10).code).toBe('invalid_order');
    expect(w.run({ type: 'perpAdjustMargin', userId: '@insurance', symbol: SYM, amount: UNIT }).code).toBe('invalid_order');
    // not a string at all
    expect(w.leverage(7 as unknown as string, 10).code).toBe('invalid_order');
    expect(w.run({ type: 'perpAdjustMargin', userId: 7, symbol: SYM, amount: UNIT }).code).toBe('invalid_order');
    expect(w.e.stateHash()).toBe(h);
  });

  it('a decrease may hold exactly the max withdraw amount, not one unit more', () => {
    // 20x long 0.010 at 40,000.0: margin 2e9, fee 2e7; 10x needs ceil(4e10 / 10) = 4e9: 2e9 more
    for (const [deposit, code] of [
      [4_020_000_000n, 'ok'],
      [4_019_999_999n, 'insufficient_balance'],
    ] as const) {
      const w = world([['u', deposit]]);
      w.mark(400_000n);
      w.ok(order('mm', 'SELL', 400_000n, 10n));
      w.ok(order('u', 'BUY', null, 10n));
      expect(w.e.perpAccount('u').maxWithdrawAmount).toBe(deposit - 2_020_000_000n);
      expect(w.e.perpLeverageMarginMove('u', SYM, 10)).toEqual({ position: 2_000_000_000n, orders: 0n });
      expect(w.leverage('u', 10).code).toBe(code);
      expect(w.e.position('u', SYM)).toMatchObject(code === 'ok' ? { margin: 4_000_000_000n, leverage: 10 } : { margin: 2_000_000_000n, leverage: 20 });
    }
  });

  it("the bracket is judged at the mark, not at the entry: 0.125 BTC is 5,000 USDT at 40,000.0 (125x's cap)", () => {
    const w = world([['u', 10_000n * UNIT]]);
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', 400_000n, 125n));
    w.ok(order('u', 'BUY', null, 125n));
    w.mark(400_010n); // 5,000.125 USDT at the mark
    expect(w.leverage('u', 125).code).toBe('leverage_too_high');
    w.mark(399_990n);
    expect(w.leverage('u', 125).code).toBe('ok');
    expect(w.e.position('u', SYM)?.leverage).toBe(125);
  });

  it("a cross position's margin becomes ceil(cost / leverage) on an increase, whatever its unrealized loss", () => {
    const w = world([['u', 10_000n * UNIT]]);
    expect(w.leverage('u', 10).code).toBe('ok');
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', 400_000n, 10n));
    w.ok(order('u', 'BUY', null, 10n));
    w.mark(390_000n); // loss 1e9
    // target ceil(4e10 / 20) = 2e9: 2e9 released (an isolated one would release at most 4e9 - 1e9 - 3.9e10 / 20)
    expect(w.e.perpLeverageMarginMove('u', SYM, 20)).toEqual({ position: -2_000_000_000n, orders: 0n });
    expect(w.leverage('u', 20).code).toBe('ok');
    expect(w.e.position('u', SYM)).toMatchObject({ margin: 2_000_000_000n, leverage: 20 });
  });

  it('reduce-only orders and orders of other markets keep their holds and leverage; setting the same leverage moves nothing', () => {
    const w = world([['u', 100_000n * UNIT]]);
    w.ok({ type: 'addPerpMarket', market: perpMarket({ symbol: ETH, base: 'ETH' }) });
    w.mark(400_000n);
    w.mark(30_000n, ETH);
    w.ok(order('mm', 'SELL', 400_000n, 10n));
    w.ok(order('u', 'BUY', null, 10n));
    // a reduce-only close resting above the market: holds nothing
    const ro = w.ok(order('u', 'SELL', 410_000n, 10n, { reduceOnly: true })).perpOrder as PerpOrderView;
    expect(ro.hold).toBe(0n);
    // an ETH order: 1.000 ETH at 3,000.0 (3e11 / 20 + 0.05%)
    const eth = w.ok({ ...order('u', 'BUY', 30_000n, 1_000n), symbol: ETH }).perpOrder as PerpOrderView;
    expect(eth.hold).toBe(15_150_000_000n);
    // a BTC opening order: 0.001 at 39,000.0 (3.9e9 / 20 + 0.05% = 196,950,000)
    const bid = w.ok(order('u', 'BUY', 390_000n, 1n)).perpOrder as PerpOrderView;
    expect(bid.hold).toBe(195_000_000n + 1_950_000n);
    // only the BTC opening order follows: ceil(3.9e9 / 5) - ceil(3.9e9 / 20) = 780,000,000 - 195,000,000
    expect(w.e.perpLeverageMarginMove('u', SYM, 5)).toEqual({ position: 6_000_000_000n, orders: 585_000_000n });
    expect(w.e.perpLeverageMarginMove('u', ETH, 5)).toEqual({ position: 0n, orders: 45_000_000_000n });
    const same = w.leverage('u', 20);
    expect(same.code).toBe('ok');
    expect(ev(same, 'perpOrderUpdated')).toEqual([]);
    const r = w.leverage('u', 5);
    expect(r.code).toBe('ok');
    expect(ev(r, 'perpOrderUpdated').map((x) => x.order.orderId)).toEqual([bid.orderId]);
    expect(w.e.perpOrder(bid.orderId)).toMatchObject({ hold: 196_950_000n + 585_000_000n, leverage: 5 });
    expect(w.e.perpOrder(ro.orderId)).toMatchObject({ hold: 0n, leverage: 20 });
    expect(w.e.perpOrder(eth.orderId)).toMatchObject({ hold: 15_150_000_000n, leverage: 20 });
    expect(w.e.position('u', SYM)).toMatchObject({ margin: 8_000_000_000n, leverage: 5 });
  });

  it("a resting order's hold, drained by a partial fill's open loss, releases no more than it has on an increase", () => {
    // isolated 20x BUY 0.010 at 40,000.0 holds 2,020,000,000. The mark falls to 38,168.0; mm sells 0.005 into it:
    // the fill takes from the hold the maker fee 2e10 x 0.02% = 4e6, the initial margin 2e10 / 20 = 1e9 and the open
    // loss 1,832.0 x 5 x 10^4 = 9.16e8: 1e8 is left for the remaining 0.005.
    const w = world([['u', 10_000n * UNIT]]);
    w.isolated('u');
    w.mark(400_000n);
    const o = w.ok(order('u', 'BUY', 400_000n, 10n)).perpOrder as PerpOrderView;
    w.mark(381_680n);
    w.ok(order('mm', 'SELL', 400_000n, 5n, { timeInForce: 'IOC' }));
    expect(w.e.perpOrder(o.orderId)).toMatchObject({ status: 'PARTIALLY_FILLED', filledQty: 5n, hold: 100_000_000n });
    expect(w.e.position('u', SYM)).toMatchObject({ size: 5n, margin: 1_916_000_000n });
    // at 40x its remaining 2e10 needs 5e8 instead of 1e9, but only the 1e8 it holds can be released
    const move = w.e.perpLeverageMarginMove('u', SYM, 40);
    expect(move?.orders).toBe(-100_000_000n);
    expect(w.leverage('u', 40).code).toBe('ok');
    expect(w.e.perpOrder(o.orderId)).toMatchObject({ hold: 0n, leverage: 40 });
  });
});

describe('max withdraw amount and the account view', () => {
  it("an isolated position's unrealized loss is not taken from the cross max withdraw amount", () => {
    const w = world([['u', 1_000n * UNIT]]);
    w.isolated('u');
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', 400_000n, 10n));
    w.ok(order('u', 'BUY', null, 10n)); // margin 2e9, fee 2e7
    w.mark(390_000n); // isolated loss 1e9
    const free = 100_000_000_000n - 2_020_000_000n;
    expect(w.e.perpAccount('u')).toMatchObject({ crossUnrealizedPnl: 0n, availableBalance: free, maxWithdrawAmount: free, crossWalletBalance: free });
    expect(w.run({ type: 'transfer', userId: 'u', asset: 'USDT', from: 'CONTRACT', to: 'SPOT', amount: free + 1n }).code).toBe('insufficient_balance');
    w.ok({ type: 'transfer', userId: 'u', asset: 'USDT', from: 'CONTRACT', to: 'SPOT', amount: free });
    expect(w.e.balance('u', 'CONTRACT', 'USDT')).toEqual({ available: 0n, frozen: 2_000_000_000n });
  });

  it('a cross loss beyond the available balance leaves 0 to withdraw, never less', () => {
    // 20x long 0.010 at 40,000.0 (margin 2e9, fee 2e7) with 1e8 left available; the mark falls 1,000.0: loss 1e9
    const w = world([['u', 2_120_000_000n]]);
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', 400_000n, 10n));
    w.ok(order('u', 'BUY', null, 10n));
    expect(w.e.perpAccount('u').maxWithdrawAmount).toBe(100_000_000n);
    w.mark(390_000n);
    expect(w.e.perpAccount('u')).toMatchObject({
      walletBalance: 2_100_000_000n,
      crossUnrealizedPnl: -1_000_000_000n,
      availableBalance: 0n,
      maxWithdrawAmount: 0n,
    });
    expect(w.run({ type: 'transfer', userId: 'u', asset: 'USDT', from: 'CONTRACT', to: 'SPOT', amount: 1n }).code).toBe('insufficient_balance');
  });

  it('a user without positions has risk level 0, even with an empty wallet', () => {
    const w = world();
    expect(w.e.perpAccount('nobody')).toEqual({
      walletBalance: 0n,
      crossWalletBalance: 0n,
      crossUnrealizedPnl: 0n,
      crossMarginBalance: 0n,
      crossMaintMargin: 0n,
      availableBalance: 0n,
      maxWithdrawAmount: 0n,
      riskLevelPpm: 0,
    });
  });

  it('an engine without perpetual markets shows an all-zero account', () => {
    const e = new Engine();
    expect(e.execute({ type: 'addAsset', ts: T0, asset: { code: 'USDT', scale: 8 } }).code).toBe('ok');
    expect(e.execute({ type: 'deposit', ts: T0, userId: 'u', asset: 'USDT', account: 'CONTRACT', amount: UNIT, from: '@faucet' }).code).toBe('ok');
    expect(e.perpAccount('u')).toEqual({
      walletBalance: 0n,
      crossWalletBalance: 0n,
      crossUnrealizedPnl: 0n,
      crossMarginBalance: 0n,
      crossMaintMargin: 0n,
      availableBalance: 0n,
      maxWithdrawAmount: 0n,
      riskLevelPpm: 0,
    });
  });
});

describe('transfers', () => {
  it('refuses an amount that is not a positive bigint (amount_invalid) and changes nothing', () => {
    const w = world([['u', 10n * UNIT]]);
    const h = w.e.stateHash();
    for (const amount of [0n, -1n, 1 as unknown as bigint]) {
      expect(w.run({ type: 'transfer', userId: 'u', asset: 'USDT', from: 'CONTRACT', to: 'SPOT', amount }).code).toBe('amount_invalid');
    }
    expect(w.e.stateHash()).toBe(h);
  });
});
