/**
 * Liquidation, bankruptcy price, insurance fund and auto-deleveraging (ADL) of the USDT perpetuals, on the shared
 * test market (test/perp-fixture.ts): price in 0.1 USDT, quantity in 0.001 BTC (or 0.001 ETH), so one price unit
 * times one quantity unit is 10^4 quote units = 0.0001 USDT (0.010 BTC at 40,000.0 is 400000 x 10 x 10^4 = 4e10 =
 * 400 USDT); maker 0.02%, taker 0.05%; default leverage 20x; first bracket 5,000 USDT at 0.4% maintenance.
 *
 * The rules (docs/perpetuals.md "Liquidation", Binance USDⓈ-M futures):
 * - a scope is liquidated when its maintenance margin is at least its margin balance (risk level >= 100%):
 *   isolated, the position's margin + its unrealized PnL; cross, the cross wallet (wallet less isolated margins and
 *   isolated orders' holds) + the unrealized PnL of all cross positions;
 * - the user's open orders in scope are cancelled first;
 * - the fund takes over at the bankruptcy price (the user's equity in scope is exactly 0): isolated, the user
 *   realizes -margin; cross, the largest position (by notional at the mark) takes the bankruptcy price of the whole
 *   account and the others close at their mark;
 * - the fund closes in the book with an IOC limited at the bankruptcy price (it can only gain there); the rest is
 *   auto-deleveraged against opposite positions at the fund's entry, ranked by profit ratio x effective leverage
 *   (profitable) or profit ratio / effective leverage (otherwise), highest first.
 *
 * The mark is moved only while the book is empty or one-sided, so it is the index (no basis sample, last funding
 * rate 0: the median of index, index and the last price is the index). After every command the ledger's totals are
 * 0 and balance(@clearing) + sum of long costs - sum of short costs = 0.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine';
import type { Command, CommandResult } from '../types';
import type { PerpOrderView } from './types';
import { HOUR, T0, USDT, must, perpEngine, perpMarket, ev, order } from '../../test/perp-fixture';

const SYM = 'BTC/USDT';
const ETH = 'ETH/USDT';
const SOL = 'SOL/USDT';
const FUND = '@insurance';
const UNIT = USDT;

class World {
  ts = T0 + 1000;
  readonly users = new Set<string>(['mm', FUND]);
  constructor(readonly e: Engine) {}
  run(c: Record<string, unknown>): CommandResult {
    const r = this.e.execute({ ts: this.ts++, ...c } as unknown as Command);
    for (const [asset, total] of this.e.assetTotals()) expect(total, `ledger total of ${asset}`).toBe(0n);
    let books = 0n;
    for (const u of this.users) for (const p of this.e.positions(u)) books += p.side === 'LONG' ? p.cost : -p.cost;
    expect(this.e.balance('@clearing', 'SYSTEM', 'USDT').available + books, 'clearing identity').toBe(0n);
    return r;
  }
  ok(c: Record<string, unknown>): CommandResult {
    const r = this.run(c);
    expect(r.code, `${String(c.type)} ${String(c.userId ?? '')}`).toBe('ok');
    return r;
  }
  /** A mark tick at `index`; the book is empty or one-sided, so the mark is the index. */
  mark(index: bigint, symbol = SYM): CommandResult {
    const r = this.ok({ type: 'perpMarkPrice', symbol, indexPrice: index });
    expect(this.e.perpMarkState(symbol)?.markPrice).toBe(index);
    return r;
  }
  deposit(userId: string, amount: bigint): void {
    this.users.add(userId);
    this.ok({ type: 'deposit', userId, asset: 'USDT', account: 'CONTRACT', amount, from: '@faucet' });
  }
  isolated(userId: string, symbol = SYM): void {
    this.ok({ type: 'perpSetMarginMode', userId, symbol, marginMode: 'ISOLATED' });
  }
  leverage(userId: string, leverage: number, symbol = SYM): void {
    this.ok({ type: 'perpSetLeverage', userId, symbol, leverage });
  }
  market(symbol: string, base: string): void {
    this.ok({ type: 'addPerpMarket', market: perpMarket({ symbol, base }) });
  }
  wallet(userId: string): bigint {
    const b = this.e.balance(userId, 'CONTRACT', 'USDT');
    return b.available + b.frozen;
  }
  fund(): bigint {
    return this.e.balance(FUND, 'SYSTEM', 'USDT').available;
  }
}

const trades = (r: CommandResult, kind: 'BOOK' | 'TAKEOVER' | 'ADL') => ev(r, 'perpTrade').filter((t) => t.kind === kind);
const updatedOf = (r: CommandResult, userId: string) =>
  ev(r, 'perpOrderUpdated')
    .filter((x) => x.order.userId === userId)
    .map((x) => x.order);

/** The market maker 'mm' (1,000,000 USDT, cross) and, on top, the given users' CONTRACT deposits. */
function world(users: [string, bigint][] = [], over: Parameters<typeof perpEngine>[1] = {}): World {
  const w = new World(perpEngine([['mm', 1_000_000n * UNIT]], over));
  for (const [u, amount] of users) w.deposit(u, amount);
  return w;
}

describe('the trigger at the maintenance margin boundary (risk level 100%)', () => {
  /**
   * Isolated: u (20x) opens 0.010 BTC at 40,000.0 (cost 4e10, margin 4e10 / 20 = 2e9, taker fee 2e7) and adds `extra`
   * margin. At a mark of 36,000.0 a long loses 4,000.0 x 10 x 10^4 = 4e9 and the maintenance margin is 0.4% of
   * 3.6e10 = 1.44e8; a short at 44,000.0 loses 4e9 too, maintenance 0.4% of 4.4e10 = 1.76e8. The margin balance
   * 2e9 + extra - 4e9 equals the maintenance margin with extra = 2,144,000,000 (long) or 2,176,000,000 (short):
   * liquidated; one quote unit more: not. The wallet outside the isolated margin (10,000 USDT) does not count.
   */
  const ISO = [
    { side: 'LONG', mark: 360_000n, mm: 144_000_000n, extra: 2_144_000_000n },
    { side: 'SHORT', mark: 440_000n, mm: 176_000_000n, extra: 2_176_000_000n },
  ] as const;
  function isolatedAt(side: 'LONG' | 'SHORT', extra: bigint) {
    const w = world([['u', 10_000n * UNIT]]);
    w.isolated('u');
    w.mark(400_000n);
    w.ok(order('mm', side === 'LONG' ? 'SELL' : 'BUY', 400_000n, 10n));
    w.ok(order('u', side === 'LONG' ? 'BUY' : 'SELL', null, 10n));
    w.ok({ type: 'perpAdjustMargin', userId: 'u', symbol: SYM, amount: extra });
    expect(w.e.position('u', SYM)).toMatchObject({ side, size: 10n, cost: 40_000_000_000n, margin: 2_000_000_000n + extra, marginMode: 'ISOLATED' });
    return w;
  }
  for (const c of ISO) {
    it(`isolated ${c.side}: margin balance = maintenance margin is liquidated at the bankruptcy price`, () => {
      const w = isolatedAt(c.side, c.extra);
      const r = w.mark(c.mark);
      // equity 2e9 + extra - 4e9 = the maintenance margin; the user loses its whole margin 4,144,000,000 (long) or
      // 4,176,000,000 (short): takeover notional 4e10 -+ margin, bankruptcy 35,856.0 or 44,176.0
      const margin = 2_000_000_000n + c.extra;
      const takeover = c.side === 'LONG' ? 40_000_000_000n - margin : 40_000_000_000n + margin;
      expect(ev(r, 'liquidated')).toEqual([
        {
          type: 'liquidated',
          ts: w.ts - 1,
          userId: 'u',
          symbol: SYM,
          marginMode: 'ISOLATED',
          markPrice: c.mark,
          equity: c.mm,
          insuranceDelta: 0n,
          size: 10n,
          side: c.side,
        },
      ]);
      expect(trades(r, 'TAKEOVER')).toMatchObject([
        {
          symbol: SYM,
          price: takeover / 100_000n,
          quantity: 10n,
          quoteAmount: takeover,
          takerSide: c.side === 'LONG' ? 'SELL' : 'BUY',
          makerUserId: FUND,
          takerUserId: 'u',
          makerOrderId: null,
          takerRealizedPnl: -margin,
          makerFee: 0n,
          takerFee: 0n,
        },
      ]);
      // empty book: mm's opposite position is auto-deleveraged at the fund's entry; mm realizes the user's margin
      expect(trades(r, 'ADL')).toMatchObject([{ takerUserId: 'mm', makerUserId: FUND, quantity: 10n, quoteAmount: takeover, takerRealizedPnl: margin }]);
      expect(w.e.position('u', SYM)).toBeUndefined();
      expect(w.e.position('mm', SYM)).toBeUndefined();
      expect(w.e.position(FUND, SYM)).toBeUndefined();
      // the rest of the wallet is untouched: 10,000 USDT - fee - the margin lost
      expect(w.e.balance('u', 'CONTRACT', 'USDT')).toEqual({ available: 10_000n * UNIT - 20_000_000n - margin, frozen: 0n });
      expect(w.fund()).toBe(0n);
    });
    it(`isolated ${c.side}: one quote unit more margin is not liquidated`, () => {
      const w = isolatedAt(c.side, c.extra + 1n);
      const r = w.mark(c.mark);
      expect(ev(r, 'liquidated')).toEqual([]);
      expect(ev(r, 'perpTrade')).toEqual([]);
      expect(w.e.position('u', SYM)).toMatchObject({ size: 10n, margin: 2_000_000_001n + c.extra });
    });
  }

  /**
   * Cross: u (20x) opens the same 0.010 BTC; it also holds an isolated ETH position (1.000 ETH at 3,000.0: margin
   * 1.5e10, fee 1.5e8) and rests an isolated ETH bid (1.000 at 2,000.0: hold 2e11 / 20 + 0.05% = 1.01e10). Neither
   * the isolated margin nor the isolated hold is in the cross wallet, so they do not delay the cross liquidation:
   * cross wallet = deposit - 2e7 - 1.5e8 - 1.5e10 - 1.01e10 = deposit - 25,270,000,000. At the BTC mark 36,000.0
   * (44,000.0 for a short) the margin balance is that - 4e9, equal to the maintenance margin with a deposit of
   * 25,270,000,000 + 4e9 + 1.44e8 (or + 1.76e8).
   */
  const CROSS = [
    { side: 'LONG', mark: 360_000n, mm: 144_000_000n, deposit: 29_414_000_000n },
    { side: 'SHORT', mark: 440_000n, mm: 176_000_000n, deposit: 29_446_000_000n },
  ] as const;
  function crossAt(side: 'LONG' | 'SHORT', deposit: bigint) {
    const w = world([['u', deposit]]);
    w.market(ETH, 'ETH');
    w.isolated('u', ETH);
    w.mark(30_000n, ETH);
    w.ok({ ...order('mm', 'SELL', 30_000n, 1_000n), symbol: ETH });
    w.ok({ ...order('u', 'BUY', null, 1_000n), symbol: ETH });
    const bid = w.ok({ ...order('u', 'BUY', 20_000n, 1_000n), symbol: ETH }).perpOrder as PerpOrderView;
    expect(bid).toMatchObject({ hold: 10_100_000_000n, marginMode: 'ISOLATED' });
    w.mark(400_000n);
    w.ok(order('mm', side === 'LONG' ? 'SELL' : 'BUY', 400_000n, 10n));
    w.ok(order('u', side === 'LONG' ? 'BUY' : 'SELL', null, 10n));
    expect(w.e.perpAccount('u').crossWalletBalance).toBe(deposit - 25_270_000_000n);
    return { w, bid };
  }
  for (const c of CROSS) {
    it(`cross ${c.side}: margin balance = maintenance margin is liquidated; the isolated ETH scope stays`, () => {
      const { w, bid } = crossAt(c.side, c.deposit);
      const r = w.mark(c.mark);
      const lost = c.deposit - 25_270_000_000n; // the cross wallet, 4,144,000,000 or 4,176,000,000
      const takeover = c.side === 'LONG' ? 40_000_000_000n - lost : 40_000_000_000n + lost;
      expect(ev(r, 'liquidated')).toMatchObject([
        { userId: 'u', symbol: SYM, marginMode: 'CROSS', markPrice: c.mark, equity: c.mm, insuranceDelta: 0n, size: 10n, side: c.side },
      ]);
      expect(trades(r, 'TAKEOVER')).toMatchObject([{ symbol: SYM, quantity: 10n, quoteAmount: takeover, takerRealizedPnl: -lost }]);
      expect(trades(r, 'ADL')).toMatchObject([{ takerUserId: 'mm', quantity: 10n, quoteAmount: takeover, takerRealizedPnl: lost }]);
      // the isolated order is not cancelled by a cross liquidation, the isolated position is not taken over
      expect(updatedOf(r, 'u').map((o) => o.trigger)).toEqual(['LIQUIDATION']);
      expect(w.e.perpOrder(bid.orderId)).toMatchObject({ status: 'NEW', hold: 10_100_000_000n });
      expect(w.e.position('u', ETH)).toMatchObject({ size: 1_000n, margin: 15_000_000_000n, marginMode: 'ISOLATED' });
      expect(w.e.position('u', SYM)).toBeUndefined();
      // the cross wallet ends at exactly 0: what is left is the isolated margin and hold
      expect(w.e.balance('u', 'CONTRACT', 'USDT')).toEqual({ available: 0n, frozen: 25_100_000_000n });
      expect(w.e.perpAccount('u')).toMatchObject({ crossWalletBalance: 0n, crossUnrealizedPnl: 0n, crossMaintMargin: 0n, riskLevelPpm: 0 });
    });
    it(`cross ${c.side}: one quote unit more in the wallet is not liquidated`, () => {
      const { w } = crossAt(c.side, c.deposit + 1n);
      const r = w.mark(c.mark);
      expect(ev(r, 'liquidated')).toEqual([]);
      expect(w.e.position('u', SYM)).toMatchObject({ size: 10n });
      expect(w.e.perpAccount('u')).toMatchObject({ crossMarginBalance: c.mm + 1n, crossMaintMargin: c.mm });
    });
  }
});

describe('cross liquidation of a user with positions in two markets', () => {
  /**
   * u (cross, 20x, 200 USDT) is long 0.010 BTC at 40,000.0 (cost 4e10, margin 2e9, fee 2e7) and long 1.000 ETH at
   * 3,000.0 (cost 3e11, margin 1.5e10, fee 1.5e8); mm is short both. Wallet 2e10 - 1.7e8 = 19,830,000,000.
   * BTC goes to 41,000.0: +1e9 unrealized (maintenance 0.4% of 4.1e10 = 1.64e8). ETH then goes to 2,804.0: -1.96e10
   * (maintenance 0.4% of 2.804e11 = 1.1216e9). Margin balance 19.83e9 + 1e9 - 19.6e9 = 1.23e9 <= 1.64e8 + 1.1216e9 =
   * 1.2856e9: liquidated, in the ETH tick.
   * The largest position by notional (ETH, 2.804e11 against 4.1e10) takes the bankruptcy price of the account; the
   * BTC position closes at its mark (+1e9). ETH realizes -(wallet + the others' PnL) = -(19.83e9 + 1e9) = -2.083e10:
   * takeover notional 3e11 - 2.083e10 = 2.7917e11, a bankruptcy price of 2,791.7. The gain is paid before the loss,
   * so the user's wallet pays all of it and ends at exactly 0; the fund pays nothing.
   */
  function twoMarkets(bookEth: (w: World) => void = () => undefined) {
    const w = world([
      ['u', 20_000_000_000n],
      ['b', 10_000n * UNIT],
    ]);
    w.market(ETH, 'ETH');
    w.mark(400_000n);
    w.mark(30_000n, ETH);
    w.ok(order('mm', 'SELL', 400_000n, 10n));
    w.ok(order('u', 'BUY', null, 10n));
    w.ok({ ...order('mm', 'SELL', 30_000n, 1_000n), symbol: ETH });
    w.ok({ ...order('u', 'BUY', null, 1_000n), symbol: ETH });
    expect(w.wallet('u')).toBe(19_830_000_000n);
    bookEth(w);
    expect(ev(w.mark(410_000n), 'liquidated')).toEqual([]);
    // 2,804.6 would leave 1.29e9 > 1.64e8 + 1.12184e9: not yet (the boundary lies between 2,804.5 and 2,804.6)
    expect(ev(w.mark(28_046n, ETH), 'liquidated')).toEqual([]);
    const r = w.mark(28_040n, ETH);
    return { w, r };
  }

  it('the largest takes the bankruptcy price, the other closes at its mark, gains first: the wallet ends at 0', () => {
    const { w, r } = twoMarkets();
    expect(ev(r, 'liquidated')).toMatchObject([
      { userId: 'u', symbol: ETH, marginMode: 'CROSS', markPrice: 28_040n, equity: 1_230_000_000n, insuranceDelta: 0n, size: 1_000n, side: 'LONG' },
    ]);
    // the gain (BTC) is taken over first, then the loss (ETH)
    expect(trades(r, 'TAKEOVER')).toMatchObject([
      { symbol: SYM, price: 410_000n, quantity: 10n, quoteAmount: 41_000_000_000n, takerSide: 'SELL', takerUserId: 'u', takerRealizedPnl: 1_000_000_000n },
      { symbol: ETH, price: 27_917n, quantity: 1_000n, quoteAmount: 279_170_000_000n, takerSide: 'SELL', takerUserId: 'u', takerRealizedPnl: -20_830_000_000n },
    ]);
    // the user's records: two FORCE_CLOSE orders, filled, with the takeover notional and PnL
    expect(updatedOf(r, 'u')).toMatchObject([
      {
        symbol: SYM,
        side: 'SELL',
        orderType: 'MARKET',
        timeInForce: 'IOC',
        quantity: 10n,
        reduceOnly: true,
        trigger: 'LIQUIDATION',
        tradeType: 'FORCE_CLOSE',
        marginMode: 'CROSS',
        leverage: 20,
        status: 'FILLED',
        filledQty: 10n,
        filledQuote: 41_000_000_000n,
        realizedPnl: 1_000_000_000n,
        hold: 0n,
      },
      { symbol: ETH, side: 'SELL', quantity: 1_000n, trigger: 'LIQUIDATION', status: 'FILLED', filledQuote: 279_170_000_000n, realizedPnl: -20_830_000_000n },
    ]);
    // empty books: mm's shorts are auto-deleveraged at the fund's entries; BTC at 41,000.0 (mm loses 1e9), ETH at
    // 2,791.7 (mm gains 3e11 - 2.7917e11 = 2.083e10)
    expect(trades(r, 'ADL')).toMatchObject([
      { symbol: SYM, takerUserId: 'mm', quantity: 10n, price: 410_000n, quoteAmount: 41_000_000_000n, takerRealizedPnl: -1_000_000_000n },
      { symbol: ETH, takerUserId: 'mm', quantity: 1_000n, price: 27_917n, quoteAmount: 279_170_000_000n, takerRealizedPnl: 20_830_000_000n },
    ]);
    expect(w.e.balance('u', 'CONTRACT', 'USDT')).toEqual({ available: 0n, frozen: 0n });
    expect(w.e.positions('u')).toEqual([]);
    expect(w.e.positions(FUND)).toEqual([]);
    expect(w.e.positions('mm')).toEqual([]);
    expect(w.fund()).toBe(0n);
    // the positions' closing views keep their realized PnL
    const closing = ev(r, 'positionChanged').filter((x) => x.position.userId === 'u');
    expect(closing.map((x) => [x.position.symbol, x.position.size, x.position.realizedPnl])).toEqual([
      [SYM, 0n, 1_000_000_000n],
      [ETH, 0n, -20_830_000_000n],
    ]);
  });

  it('the fund sells part of the ETH into a bid above the bankruptcy price, keeps the gain, and ADLs the rest', () => {
    // b bids 0.400 ETH at 2,792.0 (placed while the ETH mark is 3,000.0); the fund's IOC SELL is limited at 2,791.7
    const { w, r } = twoMarkets((x) => x.ok({ ...order('b', 'BUY', 27_920n, 400n), symbol: ETH }));
    // sold 0.400 at 2,792.0 = 1.1168e11 against the takeover cost share 2.7917e11 x 400 / 1000 = 1.11668e11
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'u', symbol: ETH, insuranceDelta: 12_000_000n }]);
    const fundOrders = ev(r, 'perpOrderAccepted').filter((x) => x.order.userId === FUND);
    expect(fundOrders.map((x) => [x.order.symbol, x.order.side, x.order.price, x.order.quantity])).toEqual([[ETH, 'SELL', 27_917n, 1_000n]]);
    expect(updatedOf(r, FUND)).toMatchObject([{ symbol: ETH, status: 'EXPIRED', filledQty: 400n, filledQuote: 111_680_000_000n }]);
    expect(trades(r, 'BOOK')).toMatchObject([
      { symbol: ETH, price: 27_920n, quantity: 400n, makerUserId: 'b', takerUserId: FUND, takerRealizedPnl: 12_000_000n },
    ]);
    // the rest, 0.600 at the fund's remaining cost 2.7917e11 - 1.11668e11 = 1.67502e11, is ADL'd against mm, whose
    // released cost is 3e11 x 600 / 1000 = 1.8e11: mm realizes 1.2498e10 and stays short 0.400 (cost 1.2e11)
    expect(trades(r, 'ADL')).toMatchObject([
      { symbol: SYM, takerUserId: 'mm', quantity: 10n, quoteAmount: 41_000_000_000n },
      { symbol: ETH, takerUserId: 'mm', quantity: 600n, quoteAmount: 167_502_000_000n, takerRealizedPnl: 12_498_000_000n },
    ]);
    expect(w.e.position('mm', ETH)).toMatchObject({ side: 'SHORT', size: 400n, cost: 120_000_000_000n });
    expect(w.e.position('b', ETH)).toMatchObject({ side: 'LONG', size: 400n, cost: 111_680_000_000n });
    expect(w.fund()).toBe(12_000_000n);
    expect(w.e.positions(FUND)).toEqual([]);
    expect(w.e.balance('u', 'CONTRACT', 'USDT')).toEqual({ available: 0n, frozen: 0n });
  });

  /**
   * The liquidation is triggered in the market of the smaller position: u is long 1.000 ETH at 3,000.0 and short
   * 0.010 BTC at 40,000.0 (wallet 19,830,000,000). ETH falls to 2,820.0 (-1.8e10; maintenance 1.128e9): balance
   * 1.83e9, not at risk. BTC rises to 46,000.0: the short loses 6e9 (maintenance 0.4% of 4.6e10 = 1.84e8):
   * 19.83e9 - 1.8e10 - 6e9 = -4.17e9 <= 1.312e9. The ETH position is still the largest (2.82e11 against 4.6e10): it
   * realizes -(19.83e9 - 6e9) = -1.383e10 (takeover 2.8617e11, 2,861.7, above the mark 2,820.0), the BTC short
   * closes at its mark 46,000.0 (-6e9). The losses together are the wallet: the fund pays nothing here either.
   */
  it('triggered by the smaller position: the largest still takes the bankruptcy price, a loss closes at its mark', () => {
    const w = world([['u', 20_000_000_000n]]);
    w.market(ETH, 'ETH');
    w.mark(400_000n);
    w.mark(30_000n, ETH);
    w.ok({ ...order('mm', 'SELL', 30_000n, 1_000n), symbol: ETH });
    w.ok({ ...order('u', 'BUY', null, 1_000n), symbol: ETH });
    w.ok(order('mm', 'BUY', 400_000n, 10n));
    w.ok(order('u', 'SELL', null, 10n));
    expect(ev(w.mark(28_200n, ETH), 'liquidated')).toEqual([]);
    const r = w.mark(460_000n);
    expect(ev(r, 'liquidated')).toMatchObject([
      { userId: 'u', symbol: SYM, marginMode: 'CROSS', markPrice: 460_000n, equity: -4_170_000_000n, insuranceDelta: 0n, size: 10n, side: 'SHORT' },
    ]);
    // no gain: the takeovers in the order of the list (largest first)
    expect(trades(r, 'TAKEOVER')).toMatchObject([
      { symbol: ETH, quantity: 1_000n, price: 28_617n, quoteAmount: 286_170_000_000n, takerSide: 'SELL', takerRealizedPnl: -13_830_000_000n },
      { symbol: SYM, quantity: 10n, price: 460_000n, quoteAmount: 46_000_000_000n, takerSide: 'BUY', takerRealizedPnl: -6_000_000_000n },
    ]);
    expect(w.e.balance('u', 'CONTRACT', 'USDT')).toEqual({ available: 0n, frozen: 0n });
    expect(w.fund()).toBe(0n);
    // mm: ETH short closed at 2,861.7 (+1.383e10), BTC long closed at 46,000.0 (+6e9)
    expect(trades(r, 'ADL').map((t) => [t.symbol, t.takerUserId, t.quantity, t.takerRealizedPnl])).toEqual([
      [ETH, 'mm', 1_000n, 13_830_000_000n],
      [SYM, 'mm', 10n, 6_000_000_000n],
    ]);
  });

  /**
   * Equal notionals: long 0.010 BTC at 40,000.0 and long 0.100 ETH at 4,000.0 (4e10 each; margins 2e9 each, fees 2e7
   * each), deposit 4.2e9: wallet 4.16e9. BTC falls to 38,000.0 and ETH to 3,800.0: each loses 2e9 and has 3.8e10
   * notional (maintenance 1.52e8 each). 4.16e9 - 4e9 = 1.6e8 <= 3.04e8: liquidated. On a tie the first symbol
   * (BTC/USDT) takes the bankruptcy price: -(4.16e9 - 2e9) = -2.16e9, takeover 3.784e10 (37,840.0); ETH closes at its
   * mark (3.8e10, -2e9).
   */
  it('equal notionals: the first symbol takes the bankruptcy price', () => {
    const w = world([['u', 4_200_000_000n]]);
    w.market(ETH, 'ETH');
    w.mark(400_000n);
    w.mark(40_000n, ETH);
    w.ok(order('mm', 'SELL', 400_000n, 10n));
    w.ok(order('u', 'BUY', null, 10n));
    w.ok({ ...order('mm', 'SELL', 40_000n, 100n), symbol: ETH });
    w.ok({ ...order('u', 'BUY', null, 100n), symbol: ETH });
    expect(ev(w.mark(380_000n), 'liquidated')).toEqual([]);
    const r = w.mark(38_000n, ETH);
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'u', symbol: ETH, equity: 160_000_000n, insuranceDelta: 0n }]);
    expect(trades(r, 'TAKEOVER').map((t) => [t.symbol, t.price, t.quoteAmount, t.takerRealizedPnl])).toEqual([
      [SYM, 378_400n, 37_840_000_000n, -2_160_000_000n],
      [ETH, 38_000n, 38_000_000_000n, -2_000_000_000n],
    ]);
    expect(w.e.balance('u', 'CONTRACT', 'USDT')).toEqual({ available: 0n, frozen: 0n });
  });
});

describe("the liquidated user's open orders in scope are cancelled first", () => {
  /**
   * Cross: u (5,000,000,000 units = 50 USDT) is long 0.010 BTC at 40,000.0 (margin 2e9, fee 2e7) and rests three
   * bids: BTC 0.005 at 35,600.0 (cross: 1.78e10 / 20 + 0.05% = 898,900,000), ETH 0.100 at 2,000.0 (cross:
   * 1,010,000,000) and SOL 1.000 at 100.0 (isolated: 1e10 / 20 + 0.05% = 505,000,000). The cross wallet counts the
   * cross holds, not the isolated one: 5e9 - 2e7 - 505,000,000 = 4,475,000,000. At 35,500.0 the long loses 4.5e9:
   * balance -2.5e7 <= 1.42e8. Both cross orders are cancelled (their holds come back, the cross wallet is the same),
   * the SOL order stays. Takeover: -4,475,000,000, notional 3.5525e10 (35,525.0). Had u's own BTC bid at 35,600.0
   * stayed, the fund's SELL limited at 35,525.0 would have filled it.
   */
  it('cross: every cross order (all markets) is cancelled with its hold released; the isolated order stays', () => {
    const w = world([['u', 5_000_000_000n]]);
    w.market(ETH, 'ETH');
    w.market(SOL, 'SOL');
    w.isolated('u', SOL);
    w.mark(400_000n);
    w.mark(30_000n, ETH);
    w.mark(1_000n, SOL);
    w.ok(order('mm', 'SELL', 400_000n, 10n));
    w.ok(order('u', 'BUY', null, 10n));
    const btc = w.ok(order('u', 'BUY', 356_000n, 5n)).perpOrder as PerpOrderView;
    const eth = w.ok({ ...order('u', 'BUY', 20_000n, 100n), symbol: ETH }).perpOrder as PerpOrderView;
    const sol = w.ok({ ...order('u', 'BUY', 1_000n, 1_000n), symbol: SOL }).perpOrder as PerpOrderView;
    expect([btc.hold, eth.hold, sol.hold]).toEqual([898_900_000n, 1_010_000_000n, 505_000_000n]);
    expect(w.e.perpAccount('u').crossWalletBalance).toBe(4_475_000_000n);
    const r = w.mark(355_000n);
    const mine = updatedOf(r, 'u');
    expect(mine.map((o) => [o.orderId, o.status, o.hold, o.trigger])).toEqual([
      [btc.orderId, 'CANCELED', 0n, null],
      [eth.orderId, 'CANCELED', 0n, null],
      [expect.any(String), 'FILLED', 0n, 'LIQUIDATION'],
    ]);
    expect(w.e.perpOrder(btc.orderId)?.status).toBe('CANCELED');
    expect(w.e.perpOrder(eth.orderId)?.status).toBe('CANCELED');
    expect(w.e.perpOpenOrders('u')).toMatchObject([{ orderId: sol.orderId, status: 'NEW', hold: 505_000_000n }]);
    expect(w.e.perpDepth(SYM, 5)).toEqual({ bids: [], asks: [] });
    expect(w.e.perpDepth(ETH, 5)).toEqual({ bids: [], asks: [] });
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'u', marginMode: 'CROSS', equity: -25_000_000n, insuranceDelta: 0n }]);
    expect(trades(r, 'TAKEOVER')).toMatchObject([{ quantity: 10n, quoteAmount: 35_525_000_000n, takerRealizedPnl: -4_475_000_000n }]);
    // the book is empty after the cancel: no fund order, mm's short is ADL'd at 35,525.0 (+4,475,000,000)
    expect(trades(r, 'BOOK')).toEqual([]);
    expect(trades(r, 'ADL')).toMatchObject([{ takerUserId: 'mm', quantity: 10n, quoteAmount: 35_525_000_000n, takerRealizedPnl: 4_475_000_000n }]);
    // what is left is the isolated SOL hold
    expect(w.e.balance('u', 'CONTRACT', 'USDT')).toEqual({ available: 0n, frozen: 505_000_000n });
    expect(w.fund()).toBe(0n);
  });

  /**
   * Isolated: u (10,000 USDT, isolated BTC at 20x) is long 0.010 at 40,000.0 (margin 2e9, fee 2e7), rests an
   * isolated BTC bid of 0.005 at 38,050.0 (1.9025e10 / 20 + 0.05% = 951,250,000 + 9,512,500 = 960,762,500) and a
   * cross ETH bid of 0.100 at 2,000.0 (1,010,000,000). At 38,100.0 the margin balance is 2e9 - 1.9e9 = 1e8 <= 0.4% of
   * 3.81e10 = 1.524e8: only the BTC order is cancelled (the market's orders), the ETH order stays. The takeover
   * is at 38,000.0 (-2e9); u's cancelled bid at 38,050.0 would have been above it.
   */
  it("isolated: the market's orders are cancelled, the orders of other markets stay; the wallet is exact", () => {
    const w = world([['u', 10_000n * UNIT]]);
    w.market(ETH, 'ETH');
    w.isolated('u');
    w.mark(400_000n);
    w.mark(30_000n, ETH);
    w.ok(order('mm', 'SELL', 400_000n, 10n));
    w.ok(order('u', 'BUY', null, 10n));
    const btc = w.ok(order('u', 'BUY', 380_500n, 5n)).perpOrder as PerpOrderView;
    const eth = w.ok({ ...order('u', 'BUY', 20_000n, 100n), symbol: ETH }).perpOrder as PerpOrderView;
    expect([btc.hold, btc.marginMode, eth.hold, eth.marginMode]).toEqual([960_762_500n, 'ISOLATED', 1_010_000_000n, 'CROSS']);
    expect(ev(w.mark(382_000n), 'liquidated')).toEqual([]); // 2e8 > 1.528e8
    const r = w.mark(381_000n);
    expect(updatedOf(r, 'u').map((o) => [o.orderId, o.status, o.hold, o.trigger, o.marginMode])).toEqual([
      [btc.orderId, 'CANCELED', 0n, null, 'ISOLATED'],
      [expect.any(String), 'FILLED', 0n, 'LIQUIDATION', 'ISOLATED'],
    ]);
    expect(w.e.perpOpenOrders('u').map((o) => [o.orderId, o.status, o.hold])).toEqual([[eth.orderId, 'NEW', 1_010_000_000n]]);
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'u', marginMode: 'ISOLATED', equity: 100_000_000n, insuranceDelta: 0n, markPrice: 381_000n }]);
    expect(trades(r, 'BOOK')).toEqual([]);
    expect(trades(r, 'TAKEOVER')).toMatchObject([{ price: 380_000n, quoteAmount: 38_000_000_000n, takerRealizedPnl: -2_000_000_000n }]);
    expect(trades(r, 'ADL')).toMatchObject([{ takerUserId: 'mm', quantity: 10n, quoteAmount: 38_000_000_000n, takerRealizedPnl: 2_000_000_000n }]);
    // 1e12 - 2e7 fee - 2e9 margin lost; the ETH hold is still frozen
    expect(w.e.balance('u', 'CONTRACT', 'USDT')).toEqual({ available: 996_970_000_000n, frozen: 1_010_000_000n });
  });
});

describe('auto-deleveraging: the ranking of the opposite positions', () => {
  /**
   * L (isolated 10x, 200 USDT) buys 0.030 BTC at 40,000.0 (cost 1.2e11, margin 1.2e10, fee 6e7). The shorts, all
   * sold at 40,000.0 (maker fee 1.6e7 each): a 0.020 isolated at 2x (margin 4e10), b and c 0.020 each cross at 20x
   * (margin 4e9, 50 USDT deposited). x (cross) is long the other 0.030. At 36,100.0 L's margin balance is 1.2e10 -
   * 1.17e10 = 3e8 <= 0.4% of 1.083e11 = 4.332e8: the fund takes the long over at 1.08e11 (36,000.0). The book is
   * empty: all of it is ADL'd.
   *
   * Ranking at the mark 36,100.0 (Binance: PnL% x effective leverage, effective leverage = notional / equity). Each
   * short gains 3,900.0 x 20 x 10^4 = 7.8e9 on a cost of 8e10 (9.75%) and is worth 7.22e10:
   * - a: equity = margin + PnL = 4e10 + 7.8e9 = 4.78e10, leverage 1.51: 0.147;
   * - b, c: equity = cross wallet + PnL = 5e9 - 1.6e7 + 7.8e9 = 12,784,000,000, leverage 5.65: 0.551 (a tie: by
   *   user id, b first).
   * b is closed whole: 0.020 at 1.08e11 x 20 / 30 = 7.2e10 (b realizes 8e10 - 7.2e10 = 8e9); the fund's last 0.010
   * (cost 3.6e10) closes half of c (c releases 4e10 of cost: +4e9). a, ranked last, keeps its position.
   */
  it('profit x effective leverage, highest first, the tie by user id; the last reached is closed in part', () => {
    const w = world([
      ['L', 20_000_000_000n],
      ['a', 50_000_000_000n],
      ['b', 5_000_000_000n],
      ['c', 5_000_000_000n],
      ['x', 1_000n * UNIT],
    ]);
    w.isolated('L');
    w.leverage('L', 10);
    w.isolated('a');
    w.leverage('a', 2);
    w.mark(400_000n);
    for (const s of ['a', 'b', 'c']) w.ok(order(s, 'SELL', 400_000n, 20n));
    w.ok(order('L', 'BUY', null, 30n));
    w.ok(order('x', 'BUY', null, 30n));
    expect(w.e.position('L', SYM)).toMatchObject({ size: 30n, cost: 120_000_000_000n, margin: 12_000_000_000n });
    expect(w.e.position('a', SYM)).toMatchObject({ side: 'SHORT', size: 20n, margin: 40_000_000_000n, marginMode: 'ISOLATED' });
    expect(ev(w.mark(362_000n), 'liquidated')).toEqual([]); // 6e8 > 4.344e8
    const r = w.mark(361_000n);
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'L', marginMode: 'ISOLATED', equity: 300_000_000n, insuranceDelta: 0n, side: 'LONG', size: 30n }]);
    expect(trades(r, 'TAKEOVER')).toMatchObject([{ takerUserId: 'L', quantity: 30n, quoteAmount: 108_000_000_000n, price: 360_000n }]);
    expect(trades(r, 'ADL').map((t) => [t.takerUserId, t.quantity, t.quoteAmount, t.price, t.takerSide, t.makerUserId, t.takerRealizedPnl])).toEqual([
      ['b', 20n, 72_000_000_000n, 360_000n, 'BUY', FUND, 8_000_000_000n],
      ['c', 10n, 36_000_000_000n, 360_000n, 'BUY', FUND, 4_000_000_000n],
    ]);
    // each ADL'd user sees a filled reduce-only FORCE_CLOSE order marked ADL
    expect(updatedOf(r, 'b')).toMatchObject([
      {
        side: 'BUY',
        orderType: 'MARKET',
        quantity: 20n,
        reduceOnly: true,
        trigger: 'ADL',
        tradeType: 'FORCE_CLOSE',
        marginMode: 'CROSS',
        leverage: 20,
        status: 'FILLED',
        filledQty: 20n,
        filledQuote: 72_000_000_000n,
        realizedPnl: 8_000_000_000n,
        hold: 0n,
      },
    ]);
    expect(updatedOf(r, 'c')).toMatchObject([{ trigger: 'ADL', quantity: 10n, filledQuote: 36_000_000_000n, realizedPnl: 4_000_000_000n }]);
    expect(updatedOf(r, 'a')).toEqual([]);
    expect(w.e.position('b', SYM)).toBeUndefined();
    expect(w.e.position('c', SYM)).toMatchObject({ side: 'SHORT', size: 10n, cost: 40_000_000_000n, margin: 2_000_000_000n, realizedPnl: 4_000_000_000n });
    expect(w.e.position('a', SYM)).toMatchObject({ side: 'SHORT', size: 20n, cost: 80_000_000_000n, margin: 40_000_000_000n });
    expect(w.e.position(FUND, SYM)).toBeUndefined();
    // b: 5e9 - 1.6e7 + 8e9, all free; c: 5e9 - 1.6e7 + 4e9 with 2e9 still margin; L lost its margin
    expect(w.e.balance('b', 'CONTRACT', 'USDT')).toEqual({ available: 12_984_000_000n, frozen: 0n });
    // without positions the whole wallet is the cross wallet
    expect(w.e.perpAccount('b')).toMatchObject({ walletBalance: 12_984_000_000n, crossWalletBalance: 12_984_000_000n, crossMaintMargin: 0n, riskLevelPpm: 0 });
    expect(w.e.balance('c', 'CONTRACT', 'USDT')).toEqual({ available: 6_984_000_000n, frozen: 2_000_000_000n });
    expect(w.e.balance('L', 'CONTRACT', 'USDT')).toEqual({ available: 7_940_000_000n, frozen: 0n });
    expect(w.fund()).toBe(0n);
  });

  /**
   * Losing positions come after the profitable ones, and among them the higher effective leverage first (PnL% /
   * leverage is closer to 0). At 45,000.0 z sells 0.010 to d and e (cross 20x, 0.005 each: cost 2.25e10, margin
   * 1.125e9, fee 1.125e7); d has 1,000 USDT, e 50. At 40,000.0 z buys 0.008 back and x bids 0.002; L (isolated 10x,
   * margin 4e9, fee 2e7) sells 0.010 into both. At 43,900.0 L is due (4e9 - 3.9e9 = 1e8 <= 1.756e8); the fund is
   * short 0.010 at 4.4e10 (44,000.0). The longs at 43,900.0:
   * - x gains 3,900.0 x 2 x 10^4 = 7.8e8: first;
   * - d and e lose 1,100.0 x 5 x 10^4 = 5.5e8 each (-2.44%) on 2.195e10 of notional; e's equity 5e9 - 1.125e7 -
   *   5.5e8 = 4,438,750,000 (leverage 4.9) is far below d's (leverage 0.22): -2.44% / 4.9 > -2.44% / 0.22, e first.
   * x closes 0.002 at 4.4e10 x 2 / 10 = 8.8e9 (+8e8), e 0.005 at 3.52e10 x 5 / 8 = 2.2e10 (-5e8), d the last 0.003
   * at 1.32e10 against its released cost 1.35e10 (-3e8).
   */
  it('losing positions after the profitable ones, and among them the higher leverage first', () => {
    const w = world([
      ['L', 10_000_000_000n],
      ['d', 1_000n * UNIT],
      ['e', 50n * UNIT],
      ['x', 100n * UNIT],
      ['z', 1_000n * UNIT],
    ]);
    w.isolated('L');
    w.leverage('L', 10);
    w.mark(450_000n);
    w.ok(order('z', 'SELL', 450_000n, 10n));
    w.ok(order('d', 'BUY', null, 5n));
    w.ok(order('e', 'BUY', null, 5n));
    w.mark(400_000n);
    w.ok(order('z', 'BUY', 400_000n, 8n));
    w.ok(order('x', 'BUY', 400_000n, 2n));
    w.ok(order('L', 'SELL', null, 10n));
    expect(w.e.position('L', SYM)).toMatchObject({ side: 'SHORT', size: 10n, margin: 4_000_000_000n });
    expect(w.e.position('z', SYM)).toMatchObject({ side: 'SHORT', size: 2n });
    expect(ev(w.mark(438_000n), 'liquidated')).toEqual([]); // 2e8 > 1.752e8
    const r = w.mark(439_000n);
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'L', side: 'SHORT', equity: 100_000_000n, insuranceDelta: 0n }]);
    expect(trades(r, 'TAKEOVER')).toMatchObject([{ quantity: 10n, quoteAmount: 44_000_000_000n, takerSide: 'BUY' }]);
    expect(trades(r, 'ADL').map((t) => [t.takerUserId, t.quantity, t.quoteAmount, t.takerSide, t.takerRealizedPnl])).toEqual([
      ['x', 2n, 8_800_000_000n, 'SELL', 800_000_000n],
      ['e', 5n, 22_000_000_000n, 'SELL', -500_000_000n],
      ['d', 3n, 13_200_000_000n, 'SELL', -300_000_000n],
    ]);
    expect(w.e.position('x', SYM)).toBeUndefined();
    expect(w.e.position('e', SYM)).toBeUndefined();
    // d keeps 0.002 with 2/5 of its cost and margin
    expect(w.e.position('d', SYM)).toMatchObject({ side: 'LONG', size: 2n, cost: 9_000_000_000n, margin: 450_000_000n, realizedPnl: -300_000_000n });
    expect(w.e.position('z', SYM)).toMatchObject({ side: 'SHORT', size: 2n, cost: 9_000_000_000n });
    // e: 5e9 - 1.125e7 - 5e8; x: 1e10 - maker fee 1.6e6 + 8e8
    expect(w.e.balance('e', 'CONTRACT', 'USDT')).toEqual({ available: 4_488_750_000n, frozen: 0n });
    expect(w.e.balance('x', 'CONTRACT', 'USDT')).toEqual({ available: 10_798_400_000n, frozen: 0n });
    expect(w.e.balance('L', 'CONTRACT', 'USDT')).toEqual({ available: 5_980_000_000n, frozen: 0n });
    expect(w.fund()).toBe(0n);
  });
});

describe('perpMarkPrice: refusals, the published mark state, the basis average and the premium sample', () => {
  it('refuses an unknown market and an index that is not a positive bigint, and changes nothing', () => {
    const w = world();
    w.mark(400_000n);
    const h = w.e.stateHash();
    expect(w.run({ type: 'perpMarkPrice', symbol: 'XRP/USDT', indexPrice: 400_000n })).toMatchObject({ code: 'market_not_found', events: [] });
    for (const indexPrice of [0n, -1n, 400_000 as unknown as bigint, undefined]) {
      expect(w.run({ type: 'perpMarkPrice', symbol: SYM, indexPrice })).toMatchObject({ code: 'invalid_config', events: [] });
    }
    expect(w.e.stateHash()).toBe(h);
    expect(w.e.perpMarkState(SYM)?.markPrice).toBe(400_000n);
  });

  it('publishes one markPrice event with the state: index, mark, last price, funding rates and times', () => {
    const w = world([['b', 1_000n * UNIT]]);
    expect(w.e.perpMarkState(SYM)).toMatchObject({ indexPrice: null, markPrice: null, lastPrice: null });
    const ts = w.ts;
    const r = w.mark(400_000n);
    // no premium yet (empty book): the predicted rate is the interest rate, 0.01% = 10,000 E8; T0 is a funding time,
    // so the next one is T0 + 8 h
    expect(ev(r, 'markPrice')).toEqual([
      {
        type: 'markPrice',
        ts,
        state: {
          symbol: SYM,
          indexPrice: 400_000n,
          markPrice: 400_000n,
          lastPrice: null,
          predictedFundingRateE8: 10_000,
          lastFundingRateE8: 0,
          nextFundingTs: T0 + 8 * HOUR,
          markTs: ts,
          indexStale: false,
          indexStaleSince: null,
        },
      },
    ]);
    expect(r.events).toHaveLength(1);
    // after a trade at 40,100.0 the last price is published; with a one-sided book the mark is the median of
    // (index, index, 40,100.0) = the index
    w.ok(order('mm', 'SELL', 401_000n, 1n));
    w.ok(order('b', 'BUY', null, 1n));
    const r2 = w.mark(399_000n);
    expect(ev(r2, 'markPrice')[0]?.state).toMatchObject({ indexPrice: 399_000n, markPrice: 399_000n, lastPrice: 401_000n, markTs: ts + 3 });
  });

  /**
   * Binance's mark price: the median of (1) index x (1 + last funding rate x time to funding / 8 h) (the index here:
   * no funding yet), (2) index + the moving average of the basis (mid - index, sampled when both sides are quoted,
   * over the fixture's 5 samples) and (3) the last trade price. A trade at 40,500.0 sets (3); the book then holds a
   * bid at 40,100.0 and an ask at 40,300.0, mid 40,200.0.
   */
  it('the mark is the median of index, index + the basis average over the last 5 samples, and the last price', () => {
    const w = world([['b', 1_000n * UNIT]]);
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', 405_000n, 1n));
    w.ok(order('b', 'BUY', null, 1n));
    w.ok(order('b', 'BUY', 401_000n, 1n));
    w.ok(order('mm', 'SELL', 403_000n, 1n));
    const tick = (index: bigint): bigint | null | undefined => {
      w.ok({ type: 'perpMarkPrice', symbol: SYM, indexPrice: index });
      return w.e.perpMarkState(SYM)?.markPrice;
    };
    // basis samples 2,000 / 3,000 / 1,000 / 1,000 / 1,000, then 1,000 replacing the oldest each time
    expect(tick(400_000n)).toBe(402_000n); // median(400,000, 402,000, 405,000)
    expect(tick(399_000n)).toBe(401_500n); // average 2,500
    expect(tick(401_000n)).toBe(403_000n); // average 6,000 / 3
    expect(tick(401_000n)).toBe(402_750n); // 7,000 / 4
    expect(tick(401_000n)).toBe(402_600n); // 8,000 / 5
    expect(tick(401_000n)).toBe(402_400n); // the 2,000 replaced: 7,000 / 5
    expect(tick(401_000n)).toBe(402_000n); // the 3,000 replaced: 5,000 / 5
    expect(tick(401_000n)).toBe(402_000n);
    // the index far above the mid: the sample -8,000 replaces the fourth (1,000): average (4,000 - 8,000) / 5 = -800;
    // median(41,000.0, 40,920.0, 40,500.0) = 40,920.0
    expect(tick(410_000n)).toBe(409_200n);
    // below the mid again: the sample 402,000 - 395,000 = 7,000 replaces the fifth (1,000): average (-4,000 - 1,000
    // + 7,000) / 5 = 400; median(39,500.0, 39,540.0, 40,500.0) = 39,540.0
    expect(tick(395_000n)).toBe(395_400n);
  });

  /**
   * The premium index is sampled at every tick from the impact prices: the average fill price of the impact notional
   * (100 USDT = 1e10 here) sold into the bids; a side too thin for it counts 0. Bids 0.001 at 40,100.0 (4.01e9) and
   * 0.003 at 40,050.0: the first is too thin alone; with the second, 5.99e9 more needs ceil(5.99e9 / 4.005e9) = 2
   * units: 1.202e10 for 0.003, an impact bid of 40,066.67. Against the index 40,000.0 the premium is floor(2e7 x 1e8
   * / 1.2e10) = 166,666 E8. The predicted rate F = P + clamp(0.01% - P, -0.05%, 0.05%), P weighted 1, 2, 3 ...
   */
  it('the premium sample from the impact bid, weighted by its rank in the interval, in the predicted rate', () => {
    const w = world([['b', 1_000n * UNIT]], { impactNotional: 100n * UNIT });
    const rate = (): number | undefined => w.e.perpMarkState(SYM)?.predictedFundingRateE8;
    w.mark(400_000n); // sample 1: 0
    w.ok(order('b', 'BUY', 401_000n, 1n));
    w.mark(400_000n); // sample 2: too thin, 0
    expect(rate()).toBe(10_000);
    w.ok(order('b', 'BUY', 400_500n, 3n));
    w.mark(400_000n); // sample 3: 166,666; P = 3 x 166,666 / 6 = 83,333; F = 83,333 - 50,000
    expect(rate()).toBe(33_333);
    w.mark(400_000n); // sample 4: P = 7 x 166,666 / 10 = 116,666; F = 66,666
    expect(rate()).toBe(66_666);
    // the impact bid below the index: no premium (sample 5: P = 1,166,662 / 15 = 77,777; F = 27,777)
    w.mark(401_000n);
    expect(rate()).toBe(27_777);
  });
});

describe('two accounts due in the same tick: the first liquidation changes the second', () => {
  /**
   * S (cross 20x) is short BTC at 40,000.0 and, through a stale resting ETH ask, short 1.000 ETH at 3,000.0 opened
   * while the ETH mark was 3,300.0: the fill guard only asks that the equity after the fill be >= 0 (docs "A fill the
   * user cannot pay is not executed"), so S can hold less than its maintenance margin until the next tick. L (isolated
   * 10x) is long 0.010 BTC at 40,000.0 (margin 4e9, due at 36,100.0). L's position is older than S's, so the BTC
   * tick at 36,100.0 liquidates L first; the fund's long goes to S, the only short, at 36,000.0: S closes at 100.0
   * better than the mark.
   */
  function sameTick(shortBtc: bigint, deposit: bigint) {
    const w = world([
      ['L', 100n * UNIT],
      ['S', deposit],
      ['B', 10_000n * UNIT],
    ]);
    w.market(ETH, 'ETH');
    w.isolated('L');
    w.leverage('L', 10);
    w.mark(400_000n);
    w.mark(30_000n, ETH);
    w.ok(order('mm', 'SELL', 400_000n, 10n));
    w.ok(order('L', 'BUY', null, 10n));
    if (shortBtc > 10n) w.ok(order('mm', 'BUY', 400_000n, shortBtc - 10n));
    w.ok(order('mm', 'BUY', 400_000n, 10n));
    w.ok(order('S', 'SELL', null, shortBtc));
    w.ok({ ...order('S', 'SELL', 30_000n, 1_000n), symbol: ETH });
    w.mark(362_000n); // L: 4e9 - 3.8e9 = 2e8 > 1.448e8
    w.mark(33_000n, ETH);
    w.ok({ ...order('B', 'BUY', null, 1_000n), symbol: ETH });
    expect(w.e.position('S', ETH)).toMatchObject({ side: 'SHORT', size: 1_000n, cost: 300_000_000_000n, margin: 15_000_000_000n });
    return w;
  }

  /**
   * S is short 0.020 BTC (cost 8e10, margin 4e9, taker fee 4e7) with 23,800,000,000 deposited. The ETH fill (maker
   * fee 6e7) leaves 23.8e9 - 4e7 - 6e7 + (7.6e9 BTC - 3e10 ETH unrealized) = 1.3e9 >= 0. At 36,100.0 S's margin
   * balance is 23.7e9 + 7.8e9 - 3e10 = 1.5e9 <= 2.888e8 + 1.32e9 = 1.6088e9: due as well. L's liquidation ADLs
   * 0.010 of S's short at 3.6e10 (+4e9, 1e8 above its unrealized share): S's balance becomes 27.7e9 + 3.9e9 - 3e10 =
   * 1.6e9 > 1.444e8 + 1.32e9 = 1.4644e9. S is no longer at risk when its turn comes: the liquidation stops.
   */
  it('the second, brought back above its maintenance margin by the ADL, is not liquidated', () => {
    const w = sameTick(20n, 23_800_000_000n);
    expect(w.e.perpAccount('S')).toMatchObject({ walletBalance: 23_700_000_000n, crossUnrealizedPnl: -22_400_000_000n, crossMarginBalance: 1_300_000_000n });
    const r = w.mark(361_000n);
    expect(ev(r, 'liquidated').map((x) => x.userId)).toEqual(['L']);
    expect(trades(r, 'TAKEOVER').map((t) => t.takerUserId)).toEqual(['L']);
    expect(trades(r, 'ADL').map((t) => [t.takerUserId, t.quantity, t.quoteAmount, t.takerRealizedPnl])).toEqual([['S', 10n, 36_000_000_000n, 4_000_000_000n]]);
    expect(w.e.position('S', SYM)).toMatchObject({ side: 'SHORT', size: 10n, cost: 40_000_000_000n, margin: 2_000_000_000n });
    expect(w.e.position('S', ETH)).toMatchObject({ size: 1_000n });
    expect(w.e.perpAccount('S')).toMatchObject({
      walletBalance: 27_700_000_000n,
      crossUnrealizedPnl: -26_100_000_000n,
      crossMarginBalance: 1_600_000_000n,
      crossMaintMargin: 1_464_400_000n,
    });
    expect(w.fund()).toBe(0n);
  });

  /**
   * S is short 0.010 BTC (cost 4e10, margin 2e9, fee 2e7) with 26,380,000,000: after the ETH fill 26.38e9 - 2e7 -
   * 6e7 + 3.8e9 - 3e10 = 1e8. At 36,100.0: 26.3e9 + 3.9e9 - 3e10 = 2e8 <= 1.444e8 + 1.32e9: due. L's ADL closes all
   * of S's BTC short (+4e9): S's BTC position is gone and the BTC tick has nothing more of S to liquidate, although
   * S (30.3e9 - 3e10 = 3e8 against 1.32e9) is still at risk: the next ETH tick takes the ETH short over at the
   * bankruptcy price, 3e11 + 30.3e9 = 3.303e11 (3,303.0), ADL'd against B.
   */
  it('the second, whose position the ADL closed, is skipped; its other market liquidates it at its own tick', () => {
    const w = sameTick(10n, 26_380_000_000n);
    expect(w.e.perpAccount('S').crossMarginBalance).toBe(100_000_000n);
    const r = w.mark(361_000n);
    expect(ev(r, 'liquidated').map((x) => x.userId)).toEqual(['L']);
    expect(trades(r, 'ADL').map((t) => [t.takerUserId, t.quantity, t.takerRealizedPnl])).toEqual([['S', 10n, 4_000_000_000n]]);
    expect(w.e.position('S', SYM)).toBeUndefined();
    expect(w.e.perpAccount('S')).toMatchObject({ walletBalance: 30_300_000_000n, crossMarginBalance: 300_000_000n, crossMaintMargin: 1_320_000_000n });
    const r2 = w.mark(33_000n, ETH);
    expect(ev(r2, 'liquidated')).toMatchObject([
      { userId: 'S', symbol: ETH, marginMode: 'CROSS', equity: 300_000_000n, insuranceDelta: 0n, side: 'SHORT', size: 1_000n },
    ]);
    expect(trades(r2, 'TAKEOVER')).toMatchObject([{ price: 33_030n, quoteAmount: 330_300_000_000n, takerRealizedPnl: -30_300_000_000n }]);
    expect(trades(r2, 'ADL')).toMatchObject([{ takerUserId: 'B', quantity: 1_000n, quoteAmount: 330_300_000_000n, takerRealizedPnl: 30_300_000_000n }]);
    expect(w.e.balance('S', 'CONTRACT', 'USDT')).toEqual({ available: 0n, frozen: 0n });
  });
});

describe('auto-deleveraging: the ranking does not depend on the order the positions were opened in', () => {
  /**
   * As the ranking test above, with the shorts opened in the order c, b, a (0.020 each at 40,000.0; c and b cross 20x
   * with 50 USDT, a isolated 2x) and L (isolated 10x, 300 USDT) long all 0.060 (cost 2.4e11, margin 2.4e10, fee
   * 1.2e8). At 36,100.0 L's balance 2.4e10 - 2.34e10 = 6e8 <= 0.4% of 2.166e11 = 8.664e8: the fund takes the long over
   * at 2.4e11 - 2.4e10 = 2.16e11 (36,000.0) and ADLs all of it, 7.2e10 per 0.020 (+8e9 each). b and c tie (b first by
   * user id, although c's position is older); a, at a lower effective leverage, comes last although its id is first.
   */
  it('the tie by user id and the lower ranked last, whatever the insertion order; the records are complete', () => {
    const w = world([
      ['L', 30_000_000_000n],
      ['a', 50_000_000_000n],
      ['b', 5_000_000_000n],
      ['c', 5_000_000_000n],
    ]);
    w.isolated('L');
    w.leverage('L', 10);
    w.isolated('a');
    w.leverage('a', 2);
    w.mark(400_000n);
    for (const s of ['c', 'b', 'a']) w.ok(order(s, 'SELL', 400_000n, 20n));
    w.ok(order('L', 'BUY', null, 60n));
    expect(w.e.position('L', SYM)).toMatchObject({ size: 60n, cost: 240_000_000_000n, margin: 24_000_000_000n });
    expect(ev(w.mark(362_000n), 'liquidated')).toEqual([]); // 1.2e9 > 8.688e8
    const r = w.mark(361_000n);
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'L', marginMode: 'ISOLATED', equity: 600_000_000n, insuranceDelta: 0n }]);
    const [takeover] = trades(r, 'TAKEOVER');
    expect(takeover).toMatchObject({ takerUserId: 'L', quantity: 60n, quoteAmount: 216_000_000_000n, price: 360_000n });
    // the takeover's record is an order of its own, found by its id
    expect(w.e.perpOrder(takeover?.takerOrderId as string)).toMatchObject({ userId: 'L', trigger: 'LIQUIDATION', status: 'FILLED', filledQty: 60n });
    const adl = trades(r, 'ADL');
    expect(adl.map((t) => [t.takerUserId, t.quantity, t.quoteAmount, t.takerRealizedPnl])).toEqual([
      ['b', 20n, 72_000_000_000n, 8_000_000_000n],
      ['c', 20n, 72_000_000_000n, 8_000_000_000n],
      ['a', 20n, 72_000_000_000n, 8_000_000_000n],
    ]);
    // each ADL close is a MARKET IOC order, found by the id its trade names
    for (const t of adl) {
      const o = w.e.perpOrder(t.takerOrderId as string);
      expect(o).toMatchObject({ userId: t.takerUserId, orderType: 'MARKET', timeInForce: 'IOC', trigger: 'ADL', status: 'FILLED', filledQty: 20n });
      expect(updatedOf(r, t.takerUserId)).toEqual([o]);
    }
    // the fund's position (a cross position at 1x) is opened and closed within the tick
    expect(ev(r, 'positionChanged').filter((x) => x.position.userId === FUND)).toMatchObject([
      { position: { symbol: SYM, side: 'LONG', size: 0n, cost: 0n, margin: 0n, marginMode: 'CROSS', leverage: 1 } },
    ]);
    for (const u of ['L', 'a', 'b', 'c']) expect(w.e.positions(u)).toEqual([]);
    // no user is left with an (empty) list of markets in the state
    expect((w.e.snapshot().perp as { userMarkets: unknown[] } | undefined)?.userMarkets).toEqual([]);
    expect(w.fund()).toBe(0n);
  });

  /**
   * Equal scores at any size: a (0.001) and b (0.010) both isolated 2x short at 40,000.0 have the same PnL ratio and
   * effective leverage (everything scales with the size), so a goes first by user id; the fund's 0.001 (L, isolated
   * 10x, margin 4e8, due at 36,100.0: 1e7 <= 1.444e7; taken over at 3.6e9) closes a's whole position. The position
   * value in the score is the exact notional: at 36,100.0 a's is 3.61e9 (not rounded to a price unit x step).
   */
  it('a small position ties with a large one of the same ratios: the tie goes by user id', () => {
    const w = world([
      ['L', 1_000_000_000n],
      ['a', 10_000_000_000n],
      ['b', 100_000_000_000n],
      ['x', 1_000n * UNIT],
    ]);
    for (const u of ['L', 'a', 'b']) w.isolated(u);
    w.leverage('L', 10);
    w.leverage('a', 2);
    w.leverage('b', 2);
    w.mark(400_000n);
    w.ok(order('a', 'SELL', 400_000n, 1n));
    w.ok(order('b', 'SELL', 400_000n, 10n));
    w.ok(order('L', 'BUY', null, 1n));
    w.ok(order('x', 'BUY', null, 10n));
    expect(w.e.position('a', SYM)).toMatchObject({ size: 1n, cost: 4_000_000_000n, margin: 2_000_000_000n });
    expect(w.e.position('b', SYM)).toMatchObject({ size: 10n, cost: 40_000_000_000n, margin: 20_000_000_000n });
    expect(ev(w.mark(362_000n), 'liquidated')).toEqual([]);
    const r = w.mark(361_000n);
    expect(trades(r, 'TAKEOVER')).toMatchObject([{ takerUserId: 'L', quantity: 1n, quoteAmount: 3_600_000_000n }]);
    expect(trades(r, 'ADL').map((t) => [t.takerUserId, t.quantity, t.quoteAmount, t.takerRealizedPnl])).toEqual([['a', 1n, 3_600_000_000n, 400_000_000n]]);
    expect(w.e.position('a', SYM)).toBeUndefined();
    expect(w.e.position('b', SYM)).toMatchObject({ size: 10n, cost: 40_000_000_000n });
  });

  /**
   * Two losing positions only: z sells 0.011 at 45,000.0 to p (0.010) and q (0.001), both cross 20x with 1,000 USDT,
   * and buys it back at 40,000.0 from L (isolated 10x short 0.011: cost 4.4e10, margin 4.4e9, fee 2.2e7). At 43,900.0
   * L is due (4.4e9 - 4.29e9 = 1.1e8 <= 0.4% of 4.829e10 = 1.9316e8); the fund is short 0.011 at 4.84e10 (44,000.0).
   * p and q lose the same 2.44%; p's effective leverage (4.39e10 over an equity of 1e11 - 2.25e7 - 1.1e8) is about 9
   * times q's (4.39e9 over 1e11 - 2.25e6 - 1.1e7): PnL% / leverage puts p first. p closes 0.010 at 4.84e10 x 10 / 11
   * = 4.4e10 (-1e9), q the last 0.001 at 4.4e9 (-1e8).
   */
  it('losing positions: the higher effective leverage first, not the smaller loss', () => {
    const w = world([
      ['L', 10_000_000_000n],
      ['p', 1_000n * UNIT],
      ['q', 1_000n * UNIT],
      ['z', 1_000n * UNIT],
    ]);
    w.isolated('L');
    w.leverage('L', 10);
    w.mark(450_000n);
    w.ok(order('z', 'SELL', 450_000n, 11n));
    w.ok(order('p', 'BUY', null, 10n));
    w.ok(order('q', 'BUY', null, 1n));
    w.mark(400_000n);
    w.ok(order('z', 'BUY', 400_000n, 11n));
    w.ok(order('L', 'SELL', null, 11n));
    expect(w.e.position('z', SYM)).toBeUndefined();
    expect(w.e.position('L', SYM)).toMatchObject({ side: 'SHORT', size: 11n, cost: 44_000_000_000n, margin: 4_400_000_000n });
    expect(ev(w.mark(438_000n), 'liquidated')).toEqual([]); // 2.2e8 > 1.9272e8
    const r = w.mark(439_000n);
    expect(trades(r, 'TAKEOVER')).toMatchObject([{ takerUserId: 'L', quantity: 11n, quoteAmount: 48_400_000_000n, price: 440_000n }]);
    expect(trades(r, 'ADL').map((t) => [t.takerUserId, t.quantity, t.quoteAmount, t.takerRealizedPnl])).toEqual([
      ['p', 10n, 44_000_000_000n, -1_000_000_000n],
      ['q', 1n, 4_400_000_000n, -100_000_000n],
    ]);
    expect(w.fund()).toBe(0n);
  });
});

describe('cross liquidation: which position takes the bankruptcy price, and the order of the takeovers', () => {
  const XRP = 'XRP/USDT';
  /** u long 0.010 BTC at 40,000.0 and 0.100 ETH at 4,000.0 (4e10 each), wallet 4.16e9; `ethFirst`: ETH opened first. */
  function equal(ethFirst: boolean): World {
    const w = world([['u', 4_200_000_000n]]);
    w.market(ETH, 'ETH');
    w.mark(400_000n);
    w.mark(40_000n, ETH);
    const btc = (): void => {
      w.ok(order('mm', 'SELL', 400_000n, 10n));
      w.ok(order('u', 'BUY', null, 10n));
    };
    const eth = (): void => {
      w.ok({ ...order('mm', 'SELL', 40_000n, 100n), symbol: ETH });
      w.ok({ ...order('u', 'BUY', null, 100n), symbol: ETH });
    };
    if (ethFirst) eth();
    btc();
    if (!ethFirst) eth();
    expect(w.wallet('u')).toBe(4_160_000_000n);
    expect(ev(w.mark(380_000n), 'liquidated')).toEqual([]);
    return w;
  }

  it('equal notionals with the ETH position opened first: still the first symbol (BTC/USDT) takes it', () => {
    const w = equal(true);
    const r = w.mark(38_000n, ETH);
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'u', symbol: ETH, equity: 160_000_000n, insuranceDelta: 0n }]);
    expect(trades(r, 'TAKEOVER').map((t) => [t.symbol, t.price, t.quoteAmount, t.takerRealizedPnl])).toEqual([
      [SYM, 378_400n, 37_840_000_000n, -2_160_000_000n],
      [ETH, 38_000n, 38_000_000_000n, -2_000_000_000n],
    ]);
    expect(w.e.balance('u', 'CONTRACT', 'USDT')).toEqual({ available: 0n, frozen: 0n });
  });

  /**
   * ETH at 3,800.1 is worth 3.8001e10, 1e6 quote units (0.01 USDT) more than BTC at 38,000.0: ETH takes the
   * bankruptcy price, -(4.16e9 - 2e9) = -2.16e9 (takeover 3.784e10, 3,784.0), BTC closes at its mark (-2e9). Balance
   * 4.16e9 - 2e9 - 1.999e9 = 1.61e8 <= 1.52e8 + 1.52004e8.
   */
  it('the largest notional by a hundredth of a USDT takes the bankruptcy price', () => {
    const w = equal(false);
    const r = w.mark(38_001n, ETH);
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'u', symbol: ETH, equity: 161_000_000n, insuranceDelta: 0n }]);
    expect(trades(r, 'TAKEOVER').map((t) => [t.symbol, t.price, t.quoteAmount, t.takerRealizedPnl])).toEqual([
      [ETH, 37_840n, 37_840_000_000n, -2_160_000_000n],
      [SYM, 380_000n, 38_000_000_000n, -2_000_000_000n],
    ]);
    expect(w.e.balance('u', 'CONTRACT', 'USDT')).toEqual({ available: 0n, frozen: 0n });
  });

  /**
   * Four cross positions (deposit 5e9; margins 2e9 + 1.5e9 + 5e8 + 2.5e8, fees 4.25e7: wallet 4.9575e9): BTC long 0.010
   * at 40,000.0, ETH long 0.100 at 3,000.0 (its mark stays there: PnL 0), SOL long 1.000 at 100.0 (up to 110.0: +1e9)
   * and XRP long 1.000 at 50.0 (up to 55.0: +5e8). BTC at 33,500.0 (-6.5e9): balance -4.25e7, due. BTC (3.35e10) is
   * the largest: -(4.9575e9 + 1.5e9) = -6.4575e9, takeover 3.35425e10 (33,542.5). The gains are taken over first, in
   * the list's order (SOL, then XRP), then the rest in the list's order: BTC, then ETH at PnL 0 (not a gain).
   */
  it('gains first in the order of the list, a zero PnL with the losses', () => {
    const w = world([['u', 5_000_000_000n]]);
    w.market(ETH, 'ETH');
    w.market(SOL, 'SOL');
    w.market(XRP, 'XRP');
    const open = (symbol: string, price: bigint, qty: bigint): void => {
      w.mark(price, symbol);
      w.ok({ ...order('mm', 'SELL', price, qty), symbol });
      w.ok({ ...order('u', 'BUY', null, qty), symbol });
    };
    open(SYM, 400_000n, 10n);
    open(ETH, 30_000n, 100n);
    open(SOL, 1_000n, 1_000n);
    open(XRP, 500n, 1_000n);
    expect(w.wallet('u')).toBe(4_957_500_000n);
    w.mark(1_100n, SOL);
    w.mark(550n, XRP);
    const r = w.mark(335_000n);
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'u', symbol: SYM, equity: -42_500_000n, insuranceDelta: 0n }]);
    expect(trades(r, 'TAKEOVER').map((t) => [t.symbol, t.quoteAmount, t.takerRealizedPnl])).toEqual([
      [SOL, 11_000_000_000n, 1_000_000_000n],
      [XRP, 5_500_000_000n, 500_000_000n],
      [SYM, 33_542_500_000n, -6_457_500_000n],
      [ETH, 30_000_000_000n, 0n],
    ]);
    expect(w.e.balance('u', 'CONTRACT', 'USDT')).toEqual({ available: 0n, frozen: 0n });
    expect(w.fund()).toBe(0n);
  });
});

describe('take profit and stop loss against liquidation and against an earlier trigger of the same tick', () => {
  /**
   * u (isolated 20x) is long 0.010 at 40,000.0 (margin 2e9) with a stop loss at 38,500.0; mm bids 0.010 at 38,000.0.
   * The mark falls to 38,100.0: the stop loss is crossed, but the position is at risk (2e9 - 1.9e9 = 1e8 <= 1.524e8):
   * it is liquidated (the fund sells into mm's bid at the bankruptcy price 38,000.0), the stop loss does not fire.
   */
  it('a position at risk is liquidated, its crossed stop loss does not fire', () => {
    const w = world([['u', 10_000n * UNIT]]);
    w.isolated('u');
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', 400_000n, 10n));
    w.ok(order('u', 'BUY', null, 10n));
    w.ok({ type: 'perpSetTpSl', userId: 'u', symbol: SYM, takeProfit: null, stopLoss: 385_000n });
    w.ok(order('mm', 'BUY', 380_000n, 10n));
    const r = w.mark(381_000n);
    expect(ev(r, 'liquidated')).toMatchObject([{ userId: 'u', equity: 100_000_000n, insuranceDelta: 0n }]);
    expect(updatedOf(r, 'u').map((o) => [o.trigger, o.tradeType, o.filledQuote])).toEqual([['LIQUIDATION', 'FORCE_CLOSE', 38_000_000_000n]]);
    expect(trades(r, 'BOOK')).toMatchObject([{ price: 380_000n, quantity: 10n, makerUserId: 'mm', takerUserId: FUND, takerRealizedPnl: 0n }]);
  });

  /**
   * alice is long 0.020 at 40,000.0 with a take profit at 41,000.0, bob short 0.010 with a stop loss at 41,000.0; bob
   * bids 0.020 at 40,500.0 and mm asks at 41,500.0. At the mark 41,000.0 both are crossed: alice's close sells into
   * bob's bid, which closes bob's short and opens a long 0.010 (a new position); bob's stop loss, for the short that is
   * gone, is skipped, and the position bob is told about is the new long.
   */
  it("a trigger whose position an earlier trigger's close ended is skipped", () => {
    const w = world([
      ['alice', 1_000n * UNIT],
      ['bob', 1_000n * UNIT],
    ]);
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', 400_000n, 20n));
    w.ok(order('alice', 'BUY', null, 20n));
    w.ok(order('mm', 'BUY', 400_000n, 10n));
    w.ok(order('bob', 'SELL', null, 10n));
    w.ok({ type: 'perpSetTpSl', userId: 'alice', symbol: SYM, takeProfit: 410_000n, stopLoss: null });
    w.ok({ type: 'perpSetTpSl', userId: 'bob', symbol: SYM, takeProfit: null, stopLoss: 410_000n });
    w.ok(order('bob', 'BUY', 405_000n, 20n));
    w.ok(order('mm', 'SELL', 415_000n, 10n));
    const r = w.mark(410_000n);
    expect(updatedOf(r, 'alice').map((o) => [o.trigger, o.status, o.filledQty])).toEqual([['TAKE_PROFIT', 'FILLED', 20n]]);
    expect(ev(r, 'perpOrderUpdated').filter((x) => x.order.trigger === 'STOP_LOSS')).toEqual([]);
    expect(ev(r, 'positionChanged').filter((x) => x.position.userId === 'bob')).toMatchObject([
      { position: { side: 'LONG', size: 10n, cost: 40_500_000_000n, takeProfit: null, stopLoss: null } },
    ]);
    expect(w.e.position('bob', SYM)).toMatchObject({ side: 'LONG', size: 10n });
    expect(w.e.position('alice', SYM)).toBeUndefined();
  });
});

describe("on the naive (reference) book: the best ask in the basis, the impact ask and a short's trigger", () => {
  /** The same market on an engine built with the naive order book; mm has 1,000,000 USDT, b and bob 1,000 each. */
  function naive(over: Parameters<typeof perpMarket>[0] = {}): World {
    const e = new Engine({ book: 'naive' });
    must(e, { type: 'addAsset', ts: T0, asset: { code: 'USDT', scale: 8 } });
    must(e, { type: 'addPerpMarket', ts: T0, market: perpMarket(over) });
    const w = new World(e);
    w.deposit('mm', 1_000_000n * UNIT);
    w.deposit('b', 1_000n * UNIT);
    w.deposit('bob', 1_000n * UNIT);
    return w;
  }

  it('the basis sample uses the best ask: mid 40,200.0 against the index 40,000.0', () => {
    const w = naive();
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', 405_000n, 1n));
    w.ok(order('b', 'BUY', null, 1n));
    w.ok(order('b', 'BUY', 401_000n, 1n));
    w.ok(order('mm', 'SELL', 403_000n, 1n));
    w.ok({ type: 'perpMarkPrice', symbol: SYM, indexPrice: 400_000n });
    // median(40,000.0, 40,000.0 + 2,000, 40,500.0)
    expect(w.e.perpMarkState(SYM)?.markPrice).toBe(402_000n);
  });

  /**
   * Asks of 0.003 at 39,880.0 (impact notional 100 USDT = 1e10: 3 units, 1.1964e10): the impact ask is 0.3% under
   * the index 40,000.0, a premium of -300,000 E8. The first tick (empty book) sampled 0: P = 2 x -300,000 / 3 =
   * -200,000; F = P + clamp(10,000 - P, -50,000, 50,000) = -150,000.
   */
  it('the premium sample from the impact ask', () => {
    const w = naive({ impactNotional: 100n * UNIT });
    w.mark(400_000n);
    w.ok(order('mm', 'SELL', 398_800n, 3n));
    w.mark(400_000n);
    expect(w.e.perpMarkState(SYM)?.predictedFundingRateE8).toBe(-150_000);
  });

  it("a short's take profit fires when there are asks (and no bids)", () => {
    const w = naive();
    w.mark(400_000n);
    w.ok(order('mm', 'BUY', 400_000n, 10n));
    w.ok(order('bob', 'SELL', null, 10n));
    w.ok({ type: 'perpSetTpSl', userId: 'bob', symbol: SYM, takeProfit: 390_000n, stopLoss: null });
    w.ok(order('mm', 'SELL', 391_000n, 10n));
    const r = w.mark(390_000n);
    expect(updatedOf(r, 'bob').map((o) => [o.side, o.trigger, o.status, o.filledQty, o.filledQuote])).toEqual([
      ['BUY', 'TAKE_PROFIT', 'FILLED', 10n, 39_100_000_000n],
    ]);
    expect(w.e.position('bob', SYM)).toBeUndefined();
  });
});
