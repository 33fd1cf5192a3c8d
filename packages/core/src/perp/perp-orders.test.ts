/**
 * The ORDER part of the USDT perpetuals engine (perp-engine.ts place, placeFor, walk, match, fill, settleFill, closePart,
 * releaseHold, closeResting, expireReduceOnly, cancel, pay, depthAt), tested against the published order rules of
 * Binance USDⓈ-M futures as docs/perpetuals.md adopts them: LIMIT / MARKET, GTC / IOC / FOK / POST_ONLY (GTX),
 * reduce-only, tick / step / min quantity, the 50% price band, the leverage bracket of the position after the order,
 * order cost = initial margin + taker fee + open loss, maker 0.02% / taker 0.05% rounded up, clientOrderId
 * idempotency, at most 200 open orders per market.
 *
 * Units (test/perp-fixture.ts): price in 0.1 USDT (400_000n = 40,000.0), quantity in 0.001 BTC (10n = 0.010 BTC), USDT
 * of scale 8, so one price unit times one quantity unit is 10^4 quote units: 0.010 BTC at 40,000.0 is
 * 400_000 x 10 x 10^4 = 4e10 quote units = 400 USDT. At the default 20x its initial margin is 2e9, its taker fee
 * 4e10 x 0.05% = 2e7 and its maker fee 4e10 x 0.02% = 8e6.
 *
 * The mark price is moved only while the book is empty or one-sided, so it equals the index (no basis sample).
 * After every command every asset sums to zero over the ledger and '@clearing' + Σ long cost − Σ short cost = 0.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine';
import type { Command, CommandResult } from '../types';
import type { PerpOrderView } from './types';
import { T0, USDT, perpEngine, perpMarket, ev, order } from '../../test/perp-fixture';

const SYM = 'BTC/USDT';
const ETH = 'ETH/USDT';
/** 40,000.0 USDT, the mark price of most tests. */
const P = 400_000n;

class World {
  ts = T0 + 1000;
  readonly users = new Set<string>(['mm']);
  constructor(readonly e: Engine) {}
  run(c: Record<string, unknown>): CommandResult {
    const r = this.e.execute({ ts: this.ts++, ...c } as unknown as Command);
    for (const [asset, total] of this.e.assetTotals()) expect(total, `ledger total of ${asset}`).toBe(0n);
    let books = 0n;
    for (const u of [...this.users, '@insurance']) {
      for (const p of this.e.positions(u)) books += p.side === 'LONG' ? p.cost : -p.cost;
    }
    expect(this.e.balance('@clearing', 'SYSTEM', 'USDT').available + books, 'clearing identity').toBe(0n);
    return r;
  }
  ok(c: Record<string, unknown>): CommandResult {
    const r = this.run(c);
    expect(r.code, `${String(c.type)} ${String(c.userId ?? '')}`).toBe('ok');
    return r;
  }
  /** Refused with `code`: no event, no state change. */
  refused(c: Record<string, unknown>, code: string): void {
    const h = this.e.stateHash();
    const r = this.run(c);
    expect(r.code).toBe(code);
    expect(r.events).toEqual([]);
    expect(r.perpOrder).toBeUndefined();
    expect(this.e.stateHash()).toBe(h);
  }
  /** Places and returns the order as answered. */
  place(c: Record<string, unknown>): PerpOrderView {
    return this.ok(c).perpOrder as PerpOrderView;
  }
  mark(index: bigint, symbol = SYM): void {
    this.ok({ type: 'perpMarkPrice', symbol, indexPrice: index });
    expect(this.e.perpMarkState(symbol)?.markPrice).toBe(index);
  }
  deposit(userId: string, amount: bigint): void {
    this.users.add(userId);
    if (amount > 0n) this.ok({ type: 'deposit', userId, asset: 'USDT', account: 'CONTRACT', amount, from: '@faucet' });
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
  fees(): bigint {
    return this.e.balance('@fee', 'SYSTEM', 'USDT').available;
  }
  cancel(userId: string, orderId: string): CommandResult {
    return this.run({ type: 'perpCancelOrder', userId, orderId });
  }
}

/** The depth events of a command as [side, price, total]. */
function depth(r: CommandResult): [string, bigint, bigint][] {
  return ev(r, 'perpDepthChanged').map((d) => [d.side, d.price, d.quantity]);
}

/** mm (1,000,000 USDT, cross 20x) plus the given users' CONTRACT deposits; the mark at `mark` unless null. */
function world(users: [string, bigint][] = [], over: Parameters<typeof perpEngine>[1] = {}, mark: bigint | null = P): World {
  const w = new World(perpEngine([['mm', 1_000_000n * USDT]], over));
  for (const [u, amount] of users) w.deposit(u, amount);
  if (mark !== null) w.mark(mark);
  return w;
}

/** u opens a cross 20x long of `qty` at 40,000.0 against mm's ask (taker fee qty x 4e9 x 0.05%). */
function longAt40k(w: World, u: string, qty: bigint): void {
  w.ok(order('mm', 'SELL', P, qty));
  w.ok(order(u, 'BUY', null, qty));
  expect(w.e.position(u, SYM)).toMatchObject({ side: 'LONG', size: qty, cost: qty * 4_000_000_000n });
}

describe('placeFor: each refusal at its boundary, next to an accepted order', () => {
  it("user id: empty, not a string or starting with '@' is invalid_order; '@' elsewhere is a user like any", () => {
    const w = world([['a@b', 1_000n * USDT]]);
    for (const userId of ['', '@mm', '@insurance', 7]) w.refused(order(userId as string, 'BUY', P, 1n), 'invalid_order');
    const o = w.place(order('a@b', 'BUY', P, 1n));
    expect(o).toMatchObject({ userId: 'a@b', status: 'NEW' });
  });

  it('an unknown market is market_not_found; a halted one market_halted', () => {
    const w = world([['u', 1_000n * USDT]]);
    w.refused({ ...order('u', 'BUY', P, 1n), symbol: 'ETH/USDT' }, 'market_not_found');
    const halted = world([['u', 1_000n * USDT]], { status: 'HALTED' });
    halted.refused(order('u', 'BUY', P, 1n), 'market_halted');
    halted.refused(order('u', 'BUY', null, 1n), 'market_halted');
    // halted comes before any check of the order itself
    halted.refused(order('u', 'HOLD' as 'BUY', P, 1n), 'market_halted');
  });

  it('a frozen account cannot place orders but can still cancel; unfrozen it can place again', () => {
    const w = world();
    const reg = w.ok({ type: 'registerUser', account: 'acct-frozen', uniqueKeys: [], profile: {} });
    const id = reg.userId as string;
    w.deposit(id, 1_000n * USDT);
    const resting = w.place(order(id, 'BUY', 390_000n, 1n));
    w.ok({ type: 'updateUser', userId: id, profile: { frozen: '1' } });
    w.refused(order(id, 'BUY', 390_000n, 1n), 'account_frozen');
    w.refused(order(id, 'SELL', null, 1n), 'account_frozen');
    expect(w.cancel(id, resting.orderId).code).toBe('ok');
    expect(w.bal(id)).toEqual({ available: 1_000n * USDT, frozen: 0n });
    w.ok({ type: 'updateUser', userId: id, profile: { frozen: '0' } });
    expect(w.place(order(id, 'BUY', 390_000n, 1n)).status).toBe('NEW');
  });

  it('malformed fields are invalid_order: side, type, time in force, reduce-only flag, lots, price and TP/SL types', () => {
    const w = world([['u', 1_000n * USDT]]);
    const bad: Record<string, unknown>[] = [
      { side: 'HOLD' },
      { orderType: 'STOP' },
      { timeInForce: 'GTD' },
      { reduceOnly: 'yes' },
      { lots: -1 },
      { lots: 1.5 },
      { lots: 1_000_000_001 },
      { price: 400_000 },
      { takeProfit: 410_000 },
      { stopLoss: 390_000 },
    ];
    for (const b of bad) w.refused(order('u', 'BUY', P, 1n, b), 'invalid_order');
    // lots are informational, from 0 to 1e9
    expect(w.place(order('u', 'BUY', 390_000n, 1n, { lots: 1_000_000_000 })).lots).toBe(1_000_000_000);
    expect(w.place(order('u', 'BUY', 390_000n, 1n, { lots: 0 })).lots).toBe(0);
  });

  it('a MARKET order with a price, or POST_ONLY, is invalid_order; a LIMIT without price is price_required', () => {
    const w = world([['u', 1_000n * USDT]]);
    w.ok(order('mm', 'SELL', P, 5n));
    w.refused(order('u', 'BUY', null, 1n, { price: P }), 'invalid_order');
    w.refused(order('u', 'BUY', null, 1n, { timeInForce: 'POST_ONLY' }), 'invalid_order');
    w.refused({ ...order('u', 'BUY', P, 1n), price: undefined }, 'price_required');
    // the same MARKET order without the price fills
    expect(w.place(order('u', 'BUY', null, 1n))).toMatchObject({ status: 'FILLED', price: null, filledQty: 1n });
  });

  it('reduce-only with a take profit or a stop loss is invalid_order (TP/SL belong to opening orders)', () => {
    const w = world([['u', 1_000n * USDT]]);
    longAt40k(w, 'u', 2n);
    w.refused(order('u', 'SELL', P, 1n, { reduceOnly: true, takeProfit: 390_000n }), 'invalid_order');
    w.refused(order('u', 'SELL', P, 1n, { reduceOnly: true, stopLoss: 410_000n }), 'invalid_order');
    expect(w.place(order('u', 'SELL', P, 1n, { reduceOnly: true }))).toMatchObject({ status: 'NEW', reduceOnly: true, hold: 0n });
  });

  it('price on the tick (1.0 USDT tick): 39,999.0 accepted, 40,000.5 / 0 / negative refused', () => {
    const w = world([['u', 10_000n * USDT]], { tickSize: 10n });
    w.refused(order('u', 'BUY', 400_005n, 1n), 'price_not_on_tick');
    w.refused(order('u', 'BUY', 0n, 1n), 'price_not_on_tick');
    w.refused(order('u', 'BUY', -10n, 1n), 'price_not_on_tick');
    expect(w.place(order('u', 'BUY', 399_990n, 1n)).price).toBe(399_990n);
  });

  it('quantity: step 0.005, minimum 0.010: 0.012 off step, 0.005 and 0 below minimum, 0.010 accepted', () => {
    const w = world([['u', 10_000n * USDT]], { stepSize: 5n, minQty: 10n });
    w.refused(order('u', 'BUY', P, 12n), 'quantity_not_on_step');
    w.refused(order('u', 'BUY', P, 11n), 'quantity_not_on_step');
    w.refused(order('u', 'BUY', P, 5n), 'quantity_below_minimum');
    w.refused(order('u', 'BUY', P, 0n), 'quantity_below_minimum');
    w.refused(order('u', 'BUY', P, -5n), 'quantity_below_minimum');
    w.refused(order('u', 'BUY', P, 10 as unknown as bigint), 'quantity_required');
    w.refused({ ...order('u', 'BUY', P, 1n), quantity: undefined }, 'quantity_required');
    expect(w.place(order('u', 'BUY', 390_000n, 10n)).quantity).toBe(10n);
    expect(w.place(order('u', 'BUY', 390_000n, 15n)).quantity).toBe(15n);
  });

  it('with a minimum of 0, a zero or negative quantity is still below the minimum', () => {
    const w = world([['u', 10_000n * USDT]], { minQty: 0n });
    w.refused(order('u', 'BUY', P, 0n), 'quantity_below_minimum');
    w.refused(order('u', 'BUY', P, -1n), 'quantity_below_minimum');
    expect(w.place(order('u', 'BUY', 390_000n, 1n)).status).toBe('NEW');
  });

  it('before the first mark price every order is mark_price_unavailable', () => {
    const w = world([['u', 10_000n * USDT]], {}, null);
    w.refused(order('u', 'BUY', P, 1n), 'mark_price_unavailable');
    w.refused(order('u', 'SELL', null, 1n), 'mark_price_unavailable');
    w.mark(P);
    expect(w.place(order('u', 'BUY', P, 1n)).status).toBe('NEW');
  });

  it('price band 50% around the mark 40,000.1: [20,000.1, 60,001.5] -> 20,000.1 and 60,001.0 in, one tick beyond out', () => {
    // 40,000.1 x 0.5 = 20,000.05 and 40,000.1 x 1.5 = 60,000.15 (in 0.1 USDT units: 200,000.5 and 600,001.5)
    const w = world([['u', 100_000n * USDT]], {}, 400_001n);
    w.refused(order('u', 'BUY', 600_002n, 1n), 'price_out_of_band');
    w.refused(order('u', 'SELL', 200_000n, 1n), 'price_out_of_band');
    expect(w.place(order('u', 'BUY', 600_001n, 1n)).status).toBe('NEW');
    w.ok({ type: 'perpCancelOrder', userId: 'u', orderId: w.e.perpOpenOrders('u')[0]!.orderId });
    expect(w.place(order('u', 'SELL', 200_001n, 1n)).status).toBe('NEW');
  });

  it('a narrow 2% band: 39,200.0 and 40,800.0 accepted, 39,199.9 and 40,800.1 refused; MARKET orders have no band', () => {
    const w = world([['u', 100_000n * USDT]], { priceBandPpm: 20_000 });
    w.refused(order('u', 'BUY', 408_001n, 1n), 'price_out_of_band');
    w.refused(order('u', 'BUY', 391_999n, 1n), 'price_out_of_band');
    w.refused(order('u', 'SELL', 391_999n, 1n), 'price_out_of_band');
    expect(w.place(order('u', 'BUY', 392_000n, 1n)).status).toBe('NEW');
    expect(w.place(order('u', 'SELL', 408_000n, 1n)).status).toBe('NEW');
    // an ask far above the band's high was placed before the mark moved; a MARKET BUY still takes it
    const w2 = world([['u', 100_000n * USDT]], { priceBandPpm: 20_000 }, 500_000n);
    w2.ok(order('mm', 'SELL', 500_000n, 1n));
    w2.mark(P);
    expect(w2.place(order('u', 'BUY', null, 1n))).toMatchObject({ status: 'FILLED', filledQuote: 5_000_000_000n });
  });

  it('take profit / stop loss against the mark 40,000.0: a long needs TP above and SL below, a short the reverse', () => {
    const w = world([['u', 100_000n * USDT]]);
    for (const [side, field, v, code] of [
      ['BUY', 'takeProfit', P, 'take_profit_invalid'],
      ['BUY', 'takeProfit', P - 1n, 'take_profit_invalid'],
      ['BUY', 'stopLoss', P, 'stop_loss_invalid'],
      ['BUY', 'stopLoss', P + 1n, 'stop_loss_invalid'],
      ['SELL', 'takeProfit', P, 'take_profit_invalid'],
      ['SELL', 'takeProfit', P + 1n, 'take_profit_invalid'],
      ['SELL', 'stopLoss', P, 'stop_loss_invalid'],
      ['SELL', 'stopLoss', P - 1n, 'stop_loss_invalid'],
      ['BUY', 'takeProfit', 0n, 'price_not_on_tick'],
      ['SELL', 'stopLoss', -1n, 'price_not_on_tick'],
    ] as const) {
      w.refused(order('u', side, 390_000n, 1n, { [field]: v }), code);
    }
    const long = w.place(order('u', 'BUY', 390_000n, 1n, { takeProfit: P + 1n, stopLoss: P - 1n }));
    expect(long).toMatchObject({ takeProfit: P + 1n, stopLoss: P - 1n, tradeType: 'OPEN_LONG' });
    const short = w.place(order('u', 'SELL', 410_000n, 1n, { takeProfit: P - 1n, stopLoss: P + 1n }));
    expect(short).toMatchObject({ takeProfit: P - 1n, stopLoss: P + 1n, tradeType: 'OPEN_SHORT' });
    // on a 1.0 tick a TP of 41,000.5 is off the tick
    const t = world([['u', 100_000n * USDT]], { tickSize: 10n });
    t.refused(order('u', 'BUY', 390_000n, 1n, { takeProfit: 410_005n }), 'price_not_on_tick');
    t.refused(order('u', 'BUY', 390_000n, 1n, { stopLoss: 380_005n }), 'price_not_on_tick');
    expect(t.place(order('u', 'BUY', 390_000n, 1n, { takeProfit: 410_010n, stopLoss: 380_010n })).status).toBe('NEW');
  });

  it("the order's TP/SL are set on the position at the fill", () => {
    const w = world([['u', 100_000n * USDT]]);
    w.ok(order('mm', 'SELL', P, 2n));
    w.ok(order('u', 'BUY', null, 2n, { takeProfit: 450_000n, stopLoss: 350_000n }));
    expect(w.e.position('u', SYM)).toMatchObject({ takeProfit: 450_000n, stopLoss: 350_000n });
  });

  it('reduce-only needs a position on the other side: none or same side is reduce_only_rejected', () => {
    const w = world([['u', 1_000n * USDT]]);
    w.refused(order('u', 'SELL', P, 1n, { reduceOnly: true }), 'reduce_only_rejected');
    w.refused(order('u', 'BUY', P, 1n, { reduceOnly: true }), 'reduce_only_rejected');
    longAt40k(w, 'u', 3n);
    w.refused(order('u', 'BUY', 390_000n, 1n, { reduceOnly: true }), 'reduce_only_rejected');
    const before = w.bal('u');
    const ro = w.place(order('u', 'SELL', 410_000n, 1n, { reduceOnly: true }));
    expect(ro).toMatchObject({ status: 'NEW', reduceOnly: true, hold: 0n, tradeType: 'CLOSE_LONG' });
    expect(w.bal('u')).toEqual(before);
  });

  it('too_many_open_orders: the 201st resting order of a market is refused; another market or a cancel makes room', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok({ type: 'addPerpMarket', market: perpMarket({ symbol: ETH, base: 'ETH' }) });
    w.mark(30_000n, ETH);
    longAt40k(w, 'u', 1n);
    // 199 bids of 0.001 at 30,000.0 (each holds 3e9 / 20 + 3e9 x 0.05% = 151,500,000) and one reduce-only ask
    const ids: string[] = [];
    for (let i = 0; i < 199; i++) ids.push(w.place(order('u', 'BUY', 300_000n, 1n)).orderId);
    w.place(order('u', 'SELL', 410_000n, 1n, { reduceOnly: true }));
    expect(w.e.perpOpenOrders('u', SYM)).toHaveLength(200);
    w.refused(order('u', 'BUY', 300_000n, 1n), 'too_many_open_orders');
    w.refused(order('u', 'SELL', 410_000n, 1n, { reduceOnly: true }), 'too_many_open_orders');
    // another user, another market: not counted
    expect(w.place(order('mm', 'BUY', 300_000n, 1n)).status).toBe('NEW');
    expect(w.place({ ...order('u', 'BUY', 29_000n, 1n), symbol: ETH }).status).toBe('NEW');
    expect(w.cancel('u', ids[0]!).code).toBe('ok');
    expect(w.place(order('u', 'BUY', 300_000n, 1n)).status).toBe('NEW');
    w.refused(order('u', 'BUY', 300_000n, 1n), 'too_many_open_orders');
    // the cap is checked for every order the user places in the market, a MARKET close included
    w.refused(order('u', 'SELL', null, 1n, { reduceOnly: true }), 'too_many_open_orders');
  });
});

describe('placeFor: the leverage bracket of the position after the order (fixture: 5,000 USDT at 125x, 25,000 at 100x, 1,000,000 at 20x)', () => {
  it('125x: 0.125 BTC at 40,000.0 is exactly 5,000 USDT (accepted), 0.126 is refused; 101x has the same cap', () => {
    for (const lev of [125, 101]) {
      const w = world([['u', 10_000n * USDT]]);
      w.leverage('u', lev);
      // 126 x 400,000 x 10^4 = 5.04e11 > 5e11
      w.refused(order('u', 'BUY', P, 126n), 'leverage_too_high');
      w.refused(order('u', 'SELL', P, 126n), 'leverage_too_high');
      expect(w.place(order('u', 'BUY', P, 125n))).toMatchObject({ status: 'NEW', leverage: lev });
    }
  });

  it('100x: 0.625 BTC at 40,000.0 is 25,000 USDT (accepted), 0.626 refused', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.leverage('u', 100);
    w.refused(order('u', 'BUY', P, 626n), 'leverage_too_high');
    // hold 2.5e12 / 100 + 2.5e12 x 0.05% = 2.5e10 + 1.25e9
    expect(w.place(order('u', 'BUY', P, 625n)).hold).toBe(26_250_000_000n);
  });

  it('the default 20x: 25.000 BTC at 40,000.0 is 1,000,000 USDT (accepted), 25.001 refused', () => {
    const w = world([['u', 60_000n * USDT]]);
    w.refused(order('u', 'BUY', P, 25_001n), 'leverage_too_high');
    // 1e14 / 20 + 1e14 x 0.05% = 5e12 + 5e10
    expect(w.place(order('u', 'BUY', P, 25_000n)).hold).toBe(5_050_000_000_000n);
  });

  it('a LIMIT order is judged at its own price: 0.128 at 39,000.0 is 4,992 USDT (accepted at 125x), 0.129 refused', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.leverage('u', 125);
    // 129 x 390,000 x 10^4 = 5.031e11 > 5e11; 128 -> 4.992e11
    w.refused(order('u', 'BUY', 390_000n, 129n), 'leverage_too_high');
    expect(w.place(order('u', 'BUY', 390_000n, 128n)).status).toBe('NEW');
  });

  it('a MARKET order is judged at the mark: asks at 39,000.0, 0.126 is 5,040 USDT at the mark 40,000.0 (refused)', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok(order('mm', 'SELL', 390_000n, 200n));
    w.leverage('u', 125);
    w.refused(order('u', 'BUY', null, 126n), 'leverage_too_high');
    expect(w.place(order('u', 'BUY', null, 125n))).toMatchObject({ status: 'FILLED', filledQty: 125n });
  });

  it('with a long of 0.100 at 125x: adding 0.025 is the cap, 0.026 is refused; a SELL of 0.225 flips to a short of 0.125 (accepted), 0.226 refused', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.leverage('u', 125);
    longAt40k(w, 'u', 100n);
    w.refused(order('u', 'BUY', P, 26n), 'leverage_too_high');
    w.refused(order('u', 'SELL', P, 226n), 'leverage_too_high');
    const add = w.place(order('u', 'BUY', P, 25n));
    expect(add).toMatchObject({ status: 'NEW', tradeType: 'OPEN_LONG' });
    expect(w.cancel('u', add.orderId).code).toBe('ok');
    // the flip is judged at the SELL's own price: 0.125 x 41,000.0 = 5,125 USDT is too much, at 40,000.0 it fits
    w.refused(order('u', 'SELL', 410_000n, 225n), 'leverage_too_high');
    expect(w.place(order('u', 'SELL', P, 225n))).toMatchObject({ status: 'NEW', tradeType: 'CLOSE_LONG' });
    // a SELL smaller than the position leaves a long (within the bracket at any price in the band)
    expect(w.place(order('u', 'SELL', 600_000n, 50n)).tradeType).toBe('CLOSE_LONG');
  });
});

describe('placeFor: the order cost (initial margin + taker fee + open loss) against the available balance', () => {
  /** deposit `cost` (accepted, held exactly) and `cost - 1` (insufficient_balance) for the same order */
  function atCost(cost: bigint, setup: (w: World) => void, cmd: Record<string, unknown>, over: Parameters<typeof perpEngine>[1] = {}) {
    const short = world([['u', cost - 1n]], over);
    setup(short);
    short.refused(cmd, 'insufficient_balance');
    const w = world([['u', cost]], over);
    setup(w);
    const r = w.ok(cmd);
    expect(ev(r, 'perpOrderAccepted')[0]!.order.hold).toBe(cost);
    return { w, r };
  }

  it('a BUY at the mark: 0.010 at 40,000.0 costs 2e9 + 2e7 = 2,020,000,000', () => {
    const { w } = atCost(2_020_000_000n, () => undefined, order('u', 'BUY', P, 10n));
    expect(w.bal('u')).toEqual({ available: 0n, frozen: 2_020_000_000n });
    expect(w.e.perpAccount('u').maxWithdrawAmount).toBe(0n);
  });

  it('a BUY above the mark adds its open loss: 0.010 at 41,000.0 -> 2.05e9 + 2.05e7 + 1,000.0 x 10 x 10^4 = 3,070,500,000', () => {
    const { w } = atCost(3_070_500_000n, () => undefined, order('u', 'BUY', 410_000n, 10n));
    expect(w.e.perpOpenOrders('u')).toMatchObject([{ hold: 3_070_500_000n, status: 'NEW' }]);
  });

  it('a SELL below the mark, not crossing (best bid 38,000.0): 0.010 at 39,000.0 -> 1.95e9 + 1.95e7 + open loss 1e9', () => {
    atCost(2_969_500_000n, (w) => w.ok(order('mm', 'BUY', 380_000n, 10n)), order('u', 'SELL', 390_000n, 10n));
  });

  it('a SELL crossing the best bid 40,000.0 holds at the bid: 0.010 at 39,000.0 -> 2e9 + 2e7 + open loss 1e9, then fills at 40,000.0', () => {
    const { w, r } = atCost(3_020_000_000n, (x) => x.ok(order('mm', 'BUY', P, 10n)), order('u', 'SELL', 390_000n, 10n));
    expect(ev(r, 'perpTrade')).toMatchObject([{ price: P, quantity: 10n, takerFee: 20_000_000n, makerFee: 8_000_000n }]);
    // the fill takes 2e7 fee + 2e9 margin from the hold; the rest (the open loss 1e9) is released
    expect(r.perpOrder).toMatchObject({ status: 'FILLED', hold: 0n, fee: 20_000_000n });
    expect(w.bal('u')).toEqual({ available: 1_000_000_000n, frozen: 2_000_000_000n });
  });

  it('a SELL whose limit equals the best bid holds at its limit (no open loss at the mark)', () => {
    atCost(2_020_000_000n, (w) => w.ok(order('mm', 'BUY', P, 10n)), order('u', 'SELL', P, 10n));
  });

  it('a MARKET BUY holds what the book fills: 0.005 at 40,000.0 + 0.005 at 40,100.0 = 4.005e10 -> 2,002,500,000 + 20,025,000 + open loss 5e7', () => {
    const setup = (w: World) => {
      w.ok(order('mm', 'SELL', P, 5n));
      w.ok(order('mm', 'SELL', 401_000n, 5n));
    };
    const { w, r } = atCost(2_072_525_000n, setup, order('u', 'BUY', null, 10n));
    expect(ev(r, 'perpTrade').map((t) => [t.price, t.quantity, t.takerFee])).toEqual([
      [P, 5n, 10_000_000n],
      [401_000n, 5n, 10_025_000n],
    ]);
    // margin 1e9 + 1,002,500,000; the open loss part of the hold goes back (cross)
    expect(w.e.position('u', SYM)).toMatchObject({ size: 10n, cost: 40_050_000_000n, margin: 2_002_500_000n });
    expect(w.bal('u')).toEqual({ available: 50_000_000n, frozen: 2_002_500_000n });
  });

  it('a MARKET BUY larger than the book holds for what it can fill, fills that and expires', () => {
    const setup = (w: World) => {
      w.ok(order('mm', 'SELL', P, 5n));
      w.ok(order('mm', 'SELL', 401_000n, 5n));
    };
    const { w, r } = atCost(2_072_525_000n, setup, order('u', 'BUY', null, 15n));
    expect(r.perpOrder).toMatchObject({ status: 'EXPIRED', quantity: 15n, filledQty: 10n, filledQuote: 40_050_000_000n, hold: 0n });
    expect(w.e.perpDepth(SYM, 5).asks).toEqual([]);
  });

  it('a MARKET SELL into bids below the mark: 0.010 at 39,000.0 -> 1.95e9 + 1.95e7 + open loss 1e9', () => {
    atCost(2_969_500_000n, (w) => w.ok(order('mm', 'BUY', 390_000n, 10n)), order('u', 'SELL', null, 10n));
  });

  it('the initial margin rounds up: 0.001 at 40,000.0 at 3x -> ceil(4e9 / 3) + 2e6 = 1,335,333,334', () => {
    atCost(1_335_333_334n, (w) => w.leverage('u', 3), order('u', 'BUY', P, 1n));
  });

  it('a cross unrealized loss lowers what an order may hold; a profit does not raise it', () => {
    // u: long 0.010 at 40,000.0 (margin 2e9, fee 2e7). At the mark 39,000.0 the loss is 1e9; a BUY of 0.001 at
    // 39,000.0 costs 1.95e8 + 1.95e6 = 196,950,000: deposit 2e9 + 2e7 + 1e9 + 196,950,000
    for (const [dep, code] of [
      [3_216_950_000n, 'ok'],
      [3_216_949_999n, 'insufficient_balance'],
    ] as const) {
      const w = world([['u', dep]]);
      longAt40k(w, 'u', 10n);
      w.mark(390_000n);
      expect(w.run(order('u', 'BUY', 390_000n, 1n)).code).toBe(code);
    }
    // at the mark 41,000.0 the gain of 1e9 does not count: a BUY of 0.001 at 41,000.0 (207,050,000) needs it in cash
    for (const [dep, code] of [
      [2_227_050_000n, 'ok'],
      [2_227_049_999n, 'insufficient_balance'],
    ] as const) {
      const w = world([['u', dep]]);
      longAt40k(w, 'u', 10n);
      w.mark(410_000n);
      expect(w.run(order('u', 'BUY', 410_000n, 1n)).code).toBe(code);
    }
  });

  it('a reduce-only order holds nothing and needs no free balance', () => {
    const w = world([['u', 2_020_000_000n]]);
    longAt40k(w, 'u', 10n);
    expect(w.bal('u')).toEqual({ available: 0n, frozen: 2_000_000_000n });
    const ro = w.place(order('u', 'SELL', 410_000n, 10n, { reduceOnly: true }));
    expect(ro).toMatchObject({ hold: 0n, status: 'NEW', tradeType: 'CLOSE_LONG' });
    // a non-reduce-only SELL of the same size holds margin for its whole quantity (we differ from Binance here)
    w.refused(order('u', 'SELL', 410_000n, 10n), 'insufficient_balance');
  });
});

describe('placeFor: no liquidity and post-only', () => {
  it('a MARKET order with an empty opposite side is no_liquidity, reduce-only or not', () => {
    const w = world([['u', 10_000n * USDT]]);
    longAt40k(w, 'u', 2n);
    // only bids of u's own side rest: a MARKET BUY finds no ask
    w.ok(order('mm', 'BUY', 390_000n, 5n));
    w.refused(order('u', 'BUY', null, 1n), 'no_liquidity');
    w.ok({ type: 'perpCancelOrder', userId: 'mm', orderId: w.e.perpOpenOrders('mm')[0]!.orderId });
    w.refused(order('u', 'SELL', null, 1n, { reduceOnly: true }), 'no_liquidity');
    w.refused(order('u', 'SELL', null, 1n), 'no_liquidity');
  });

  it('POST_ONLY BUY: at the best ask 40,100.0 it would take (refused); one tick below it rests as a maker', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok(order('mm', 'SELL', 401_000n, 5n));
    w.refused(order('u', 'BUY', 401_000n, 1n, { timeInForce: 'POST_ONLY' }), 'would_take_liquidity');
    w.refused(order('u', 'BUY', 402_000n, 1n, { timeInForce: 'POST_ONLY' }), 'would_take_liquidity');
    const o = w.place(order('u', 'BUY', 400_999n, 1n, { timeInForce: 'POST_ONLY' }));
    expect(o).toMatchObject({ status: 'NEW', timeInForce: 'POST_ONLY', filledQty: 0n });
    expect(w.e.perpDepth(SYM, 5)).toEqual({ bids: [{ price: 400_999n, quantity: 1n }], asks: [{ price: 401_000n, quantity: 5n }] });
  });

  it('POST_ONLY SELL: at the best bid 39,900.0 refused; one tick above rests; with no bids any price rests', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok(order('mm', 'BUY', 399_000n, 5n));
    w.refused(order('u', 'SELL', 399_000n, 1n, { timeInForce: 'POST_ONLY' }), 'would_take_liquidity');
    w.refused(order('u', 'SELL', 398_000n, 1n, { timeInForce: 'POST_ONLY' }), 'would_take_liquidity');
    expect(w.place(order('u', 'SELL', 399_001n, 1n, { timeInForce: 'POST_ONLY' })).status).toBe('NEW');
    const empty = world([['u', 10_000n * USDT]]);
    expect(empty.place(order('u', 'SELL', 390_000n, 1n, { timeInForce: 'POST_ONLY' })).status).toBe('NEW');
    const noAsk = world([['u', 10_000n * USDT]]);
    expect(noAsk.place(order('u', 'BUY', 410_000n, 1n, { timeInForce: 'POST_ONLY' })).status).toBe('NEW');
  });

  it('a POST_ONLY order filled later pays the maker fee: 0.010 at 40,000.0 -> 8e6', () => {
    const w = world([['u', 10_000n * USDT]]);
    const o = w.place(order('u', 'BUY', P, 10n, { timeInForce: 'POST_ONLY' }));
    const r = w.ok(order('mm', 'SELL', null, 10n));
    expect(ev(r, 'perpTrade')).toMatchObject([{ makerUserId: 'u', makerOrderId: o.orderId, makerFee: 8_000_000n, takerFee: 20_000_000n }]);
    expect(w.e.perpOrder(o.orderId)).toMatchObject({ status: 'FILLED', fee: 8_000_000n, hold: 0n });
  });
});

describe('place: clientOrderId idempotency', () => {
  const cid36 = 'c'.repeat(36);

  it('a clientOrderId of 36 characters is accepted; 37, empty or not a string is invalid_order', () => {
    const w = world([['u', 1_000n * USDT]]);
    w.refused(order('u', 'BUY', 390_000n, 1n, { clientOrderId: 'c'.repeat(37) }), 'invalid_order');
    w.refused(order('u', 'BUY', 390_000n, 1n, { clientOrderId: '' }), 'invalid_order');
    w.refused(order('u', 'BUY', 390_000n, 1n, { clientOrderId: 42 }), 'invalid_order');
    expect(w.place(order('u', 'BUY', 390_000n, 1n, { clientOrderId: cid36 })).clientOrderId).toBe(cid36);
    expect(w.place(order('u', 'BUY', 390_000n, 1n)).clientOrderId).toBeNull();
  });

  it('a retry with the same clientOrderId answers the original order and changes nothing, whatever its fields', () => {
    const w = world([['u', 1_000n * USDT]]);
    const first = w.ok(order('u', 'BUY', 390_000n, 2n, { clientOrderId: 'k1' }));
    const o = first.perpOrder as PerpOrderView;
    expect(o).toMatchObject({ clientOrderId: 'k1', status: 'NEW', hold: 2n * 196_950_000n });
    const h = w.e.stateHash();
    const bal = w.bal('u');
    for (const retry of [order('u', 'BUY', 390_000n, 2n, { clientOrderId: 'k1' }), order('u', 'SELL', null, 7n, { clientOrderId: 'k1' })]) {
      const r = w.run(retry);
      expect(r).toEqual({ code: 'ok', events: [], perpOrder: o, duplicateOfOrderId: o.orderId });
    }
    expect(w.e.stateHash()).toBe(h);
    expect(w.bal('u')).toEqual(bal);
    expect(w.e.perpOpenOrders('u')).toHaveLength(1);
  });

  it("the retry answers the order as it is now (cancelled); another user's same clientOrderId is a new order", () => {
    const w = world([
      ['u', 1_000n * USDT],
      ['v', 1_000n * USDT],
    ]);
    const o = w.place(order('u', 'BUY', 390_000n, 1n, { clientOrderId: 'same' }));
    expect(w.cancel('u', o.orderId).code).toBe('ok');
    const again = w.run(order('u', 'BUY', 390_000n, 1n, { clientOrderId: 'same' }));
    expect(again.perpOrder).toMatchObject({ orderId: o.orderId, status: 'CANCELED', hold: 0n });
    expect(again.duplicateOfOrderId).toBe(o.orderId);
    const v = w.ok(order('v', 'BUY', 390_000n, 1n, { clientOrderId: 'same' }));
    expect(v.duplicateOfOrderId).toBeUndefined();
    expect(v.perpOrder).toMatchObject({ userId: 'v', clientOrderId: 'same', status: 'NEW' });
    expect(v.perpOrder?.orderId).not.toBe(o.orderId);
  });

  it('a refused order does not take its clientOrderId: the retry after a deposit is placed', () => {
    const w = world([['u', 2_019_999_999n]]);
    w.refused(order('u', 'BUY', P, 10n, { clientOrderId: 'retry' }), 'insufficient_balance');
    w.deposit('u', 1n);
    const r = w.ok(order('u', 'BUY', P, 10n, { clientOrderId: 'retry' }));
    expect(r.duplicateOfOrderId).toBeUndefined();
    expect(r.perpOrder).toMatchObject({ status: 'NEW', hold: 2_020_000_000n });
  });

  it('an expired FOK keeps its clientOrderId: the retry answers EXPIRED and places nothing', () => {
    const w = world([['u', 1_000n * USDT]]);
    w.ok(order('mm', 'SELL', P, 5n));
    const o = w.place(order('u', 'BUY', P, 10n, { timeInForce: 'FOK', clientOrderId: 'fok' }));
    expect(o.status).toBe('EXPIRED');
    const r = w.run(order('u', 'BUY', P, 10n, { timeInForce: 'FOK', clientOrderId: 'fok' }));
    expect(r).toMatchObject({ code: 'ok', events: [], duplicateOfOrderId: o.orderId, perpOrder: { status: 'EXPIRED' } });
  });

  it("a frozen account's retry still answers its original order", () => {
    const w = world();
    const id = w.ok({ type: 'registerUser', account: 'acct-retry', uniqueKeys: [], profile: {} }).userId as string;
    w.deposit(id, 1_000n * USDT);
    const o = w.place(order(id, 'BUY', 390_000n, 1n, { clientOrderId: 'k' }));
    w.ok({ type: 'updateUser', userId: id, profile: { frozen: '1' } });
    expect(w.run(order(id, 'BUY', 390_000n, 1n, { clientOrderId: 'k' })).duplicateOfOrderId).toBe(o.orderId);
    w.refused(order(id, 'BUY', 390_000n, 1n, { clientOrderId: 'k2' }), 'account_frozen');
  });

  it('after 2,001 ended orders the oldest are forgotten: a live key answers the id only; an expired key places anew', () => {
    const e = new Engine({ idempotencyWindowMs: 1_000_000 });
    const w = new World(e);
    w.ok({ type: 'addAsset', asset: { code: 'USDT', scale: 8 } });
    w.ok({ type: 'addPerpMarket', market: perpMarket() });
    w.deposit('u', 1_000n * USDT);
    w.mark(P);
    // FOK orders on an empty book: each expires at once (2,001 ended orders; the engine keeps the last 1,000)
    const first = w.place(order('u', 'BUY', P, 1n, { timeInForce: 'FOK', clientOrderId: 'old' }));
    const ids: string[] = [];
    for (let i = 0; i < 2_000; i++)
      ids.push((e.execute({ ts: w.ts++, ...order('u', 'BUY', P, 1n, { timeInForce: 'FOK' }) } as unknown as Command).perpOrder as PerpOrderView).orderId);
    // at 2,001 ended orders the queue is cut to the newest 1,000: the first and the next 1,000 go
    expect(e.perpOrder(first.orderId)).toBeUndefined();
    expect(e.perpOrder(ids[999]!)).toBeUndefined();
    expect(e.perpOrder(ids[1_000]!)).toMatchObject({ status: 'EXPIRED' });
    const r = w.run(order('u', 'BUY', P, 1n, { clientOrderId: 'old' }));
    expect(r).toEqual({ code: 'ok', events: [], duplicateOfOrderId: first.orderId });
    expect(w.bal('u')).toEqual({ available: 1_000n * USDT, frozen: 0n });
    // past the key's window, the forgotten order's clientOrderId is free again
    w.ts += 1_000_000;
    const again = w.ok(order('u', 'BUY', 390_000n, 1n, { clientOrderId: 'old' }));
    expect(again.duplicateOfOrderId).toBeUndefined();
    expect(again.perpOrder).toMatchObject({ clientOrderId: 'old', status: 'NEW' });
  });

  it('past the key window an order still retained answers its clientOrderId', () => {
    const e = new Engine({ idempotencyWindowMs: 10 });
    const w = new World(e);
    w.ok({ type: 'addAsset', asset: { code: 'USDT', scale: 8 } });
    w.ok({ type: 'addPerpMarket', market: perpMarket() });
    w.deposit('u', 1_000n * USDT);
    w.mark(P);
    const o = w.place(order('u', 'BUY', 390_000n, 1n, { clientOrderId: 'k' }));
    w.ts += 100;
    const r = w.run(order('u', 'BUY', 390_000n, 1n, { clientOrderId: 'k' }));
    expect(r).toMatchObject({ code: 'ok', events: [], duplicateOfOrderId: o.orderId, perpOrder: { orderId: o.orderId, status: 'NEW' } });
    expect(w.e.perpOpenOrders('u')).toHaveLength(1);
  });
});

describe('time in force: GTC, IOC, FOK and MARKET (match, walk, fill)', () => {
  /** the command's events but the ledger's balanceChanged */
  const types = (r: CommandResult) => r.events.map((x) => x.type).filter((t) => t !== 'balanceChanged');

  it('a GTC order that does not cross rests NEW: accepted and one depth event, no update', () => {
    const w = world([['u', 1_000n * USDT]]);
    const r = w.ok(order('u', 'BUY', 390_000n, 10n));
    expect(types(r)).toEqual(['perpOrderAccepted', 'perpDepthChanged']);
    expect(depth(r)).toEqual([['BUY', 390_000n, 10n]]);
    // 3.9e10 / 20 + 3.9e10 x 0.05%
    expect(r.perpOrder).toEqual({
      orderId: r.perpOrder?.orderId,
      clientOrderId: null,
      userId: 'u',
      symbol: SYM,
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 390_000n,
      quantity: 10n,
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
      hold: 1_969_500_000n,
      takeProfit: null,
      stopLoss: null,
      status: 'NEW',
      createdTs: w.ts - 1,
      updatedTs: w.ts - 1,
    });
    expect(w.bal('u')).toEqual({ available: 1_000n * USDT - 1_969_500_000n, frozen: 1_969_500_000n });
    expect(w.e.perpOpenOrders('u')).toEqual([r.perpOrder]);
  });

  it('the order takes the user settings: isolated 7x', () => {
    const w = world([['u', 1_000n * USDT]]);
    w.isolated('u');
    w.leverage('u', 7);
    // ceil(3.9e10 / 7) = 5,571,428,572; fee 19,500,000
    expect(w.place(order('u', 'BUY', 390_000n, 10n))).toMatchObject({ leverage: 7, marginMode: 'ISOLATED', hold: 5_590_928_572n });
  });

  it('IOC partly filled: 0.005 of 0.010 at 40,000.0, the rest expires and its hold goes back', () => {
    const w = world([['u', 10_000n * USDT]]);
    const mk = w.place(order('mm', 'SELL', P, 5n));
    expect(mk.hold).toBe(1_010_000_000n);
    const r = w.ok(order('u', 'BUY', P, 10n, { timeInForce: 'IOC' }));
    expect(types(r)).toEqual([
      'perpOrderAccepted',
      'perpTrade',
      'perpOrderUpdated',
      'perpOrderUpdated',
      'perpDepthChanged',
      'positionChanged',
      'positionChanged',
    ]);
    expect(ev(r, 'perpOrderAccepted')[0]!.order).toMatchObject({ status: 'NEW', hold: 2_020_000_000n });
    // notional 2e10: taker fee 1e7, maker fee 4e6, margin 1e9 each
    expect(ev(r, 'perpTrade')[0]).toMatchObject({
      kind: 'BOOK',
      price: P,
      quantity: 5n,
      quoteAmount: 20_000_000_000n,
      takerSide: 'BUY',
      makerOrderId: mk.orderId,
      takerOrderId: r.perpOrder?.orderId,
      makerUserId: 'mm',
      takerUserId: 'u',
      makerFee: 4_000_000n,
      takerFee: 10_000_000n,
      makerRealizedPnl: 0n,
      takerRealizedPnl: 0n,
    });
    expect(ev(r, 'perpOrderUpdated').map((x) => [x.order.userId, x.order.status, x.order.filledQty, x.order.hold])).toEqual([
      ['mm', 'FILLED', 5n, 0n],
      ['u', 'EXPIRED', 5n, 0n],
    ]);
    expect(w.e.perpOrder(mk.orderId)).toMatchObject({ filledQuote: 20_000_000_000n, fee: 4_000_000n, createdTs: mk.createdTs, updatedTs: w.ts - 1 });
    expect(r.perpOrder).toMatchObject({ status: 'EXPIRED', filledQty: 5n, filledQuote: 20_000_000_000n, fee: 10_000_000n, hold: 0n });
    expect(depth(r)).toEqual([['SELL', P, 0n]]);
    expect(w.bal('u')).toEqual({ available: 10_000n * USDT - 1_010_000_000n, frozen: 1_000_000_000n });
    // mm held 1,010,000,000: 4e6 fee and 1e9 margin taken, 6e6 released
    expect(w.bal('mm')).toEqual({ available: 1_000_000n * USDT - 1_004_000_000n, frozen: 1_000_000_000n });
    expect(w.fees()).toBe(14_000_000n);
    expect(w.e.position('u', SYM)).toMatchObject({ side: 'LONG', size: 5n, cost: 20_000_000_000n, margin: 1_000_000_000n, fees: 10_000_000n });
    expect(w.e.position('mm', SYM)).toMatchObject({ side: 'SHORT', size: 5n, cost: 20_000_000_000n, margin: 1_000_000_000n, fees: 4_000_000n });
    expect(w.e.perpOpenOrders('u')).toEqual([]);
  });

  it('IOC that finds nothing at its limit expires unfilled and changes no balance', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok(order('mm', 'SELL', 400_010n, 5n));
    const r = w.ok(order('u', 'BUY', P, 10n, { timeInForce: 'IOC' }));
    expect(types(r)).toEqual(['perpOrderAccepted', 'perpOrderUpdated']);
    expect(r.perpOrder).toMatchObject({ status: 'EXPIRED', filledQty: 0n, hold: 0n });
    expect(w.bal('u')).toEqual({ available: 10_000n * USDT, frozen: 0n });
    expect(w.e.perpDepth(SYM, 5).asks).toEqual([{ price: 400_010n, quantity: 5n }]);
  });

  it('GTC partly filled at a better price rests PARTIALLY_FILLED; its hold is what is left after the fill', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok(order('mm', 'SELL', 390_000n, 5n));
    const r = w.ok(order('u', 'BUY', P, 10n));
    // fill 0.005 at 39,000.0 = 1.95e10: fee 9,750,000 and margin 975,000,000 from the hold of 2,020,000,000
    expect(ev(r, 'perpTrade')).toMatchObject([{ price: 390_000n, quantity: 5n, takerFee: 9_750_000n, makerFee: 3_900_000n }]);
    expect(r.perpOrder).toMatchObject({ status: 'PARTIALLY_FILLED', filledQty: 5n, filledQuote: 19_500_000_000n, hold: 1_035_250_000n });
    expect(depth(r)).toEqual([
      ['SELL', 390_000n, 0n],
      ['BUY', P, 5n],
    ]);
    expect(w.bal('u')).toEqual({ available: 10_000n * USDT - 2_020_000_000n, frozen: 975_000_000n + 1_035_250_000n });
    // the cancel releases exactly that hold
    const c = w.cancel('u', r.perpOrder!.orderId);
    expect(c.code).toBe('ok');
    expect(c.perpOrder).toMatchObject({ status: 'CANCELED', filledQty: 5n, hold: 0n });
    expect(depth(c)).toEqual([['BUY', P, 0n]]);
    expect(w.bal('u')).toEqual({ available: 10_000n * USDT - 984_750_000n, frozen: 975_000_000n });
  });

  it('FOK that the book cannot fill entirely expires: no trade, the maker and every balance unchanged', () => {
    const w = world([['u', 10_000n * USDT]]);
    const mk = w.place(order('mm', 'SELL', P, 5n));
    const before = { u: w.bal('u'), mm: w.bal('mm'), fee: w.fees() };
    const r = w.ok(order('u', 'BUY', P, 10n, { timeInForce: 'FOK' }));
    expect(types(r)).toEqual(['perpOrderAccepted', 'perpOrderUpdated']);
    expect(ev(r, 'perpOrderAccepted')[0]!.order.hold).toBe(2_020_000_000n);
    expect(r.perpOrder).toMatchObject({ status: 'EXPIRED', timeInForce: 'FOK', filledQty: 0n, hold: 0n });
    expect({ u: w.bal('u'), mm: w.bal('mm'), fee: w.fees() }).toEqual(before);
    expect(w.e.perpOrder(mk.orderId)).toMatchObject({ status: 'NEW', filledQty: 0n, hold: 1_010_000_000n });
    expect(w.e.position('u', SYM)).toBeUndefined();
    expect(w.e.perpOpenOrders('u')).toEqual([]);
  });

  it('FOK fills across two levels within its limit; a limit short of the second level expires it', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok(order('mm', 'SELL', P, 5n));
    w.ok(order('mm', 'SELL', 401_000n, 5n));
    expect(w.place(order('u', 'BUY', 400_999n, 10n, { timeInForce: 'FOK' })).status).toBe('EXPIRED');
    const r = w.ok(order('u', 'BUY', 401_000n, 10n, { timeInForce: 'FOK' }));
    expect(ev(r, 'perpTrade').map((t) => [t.price, t.quantity])).toEqual([
      [P, 5n],
      [401_000n, 5n],
    ]);
    expect(r.perpOrder).toMatchObject({ status: 'FILLED', filledQty: 10n, filledQuote: 40_050_000_000n, hold: 0n });
    expect(depth(r)).toEqual([
      ['SELL', P, 0n],
      ['SELL', 401_000n, 0n],
    ]);
  });

  it('SELL limits: a FOK at 39,990.1 does not reach the bid at 39,990.0 (expires), at 39,990.0 it fills; an IOC stops at its limit', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok(order('mm', 'BUY', P, 5n));
    w.ok(order('mm', 'BUY', 399_900n, 5n));
    expect(w.place(order('u', 'SELL', 399_901n, 10n, { timeInForce: 'FOK' }))).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
    const ioc = w.ok(order('u', 'SELL', 399_901n, 10n, { timeInForce: 'IOC' }));
    expect(ev(ioc, 'perpTrade').map((t) => [t.price, t.quantity])).toEqual([[P, 5n]]);
    expect(ioc.perpOrder).toMatchObject({ status: 'EXPIRED', filledQty: 5n });
    w.ok(order('mm', 'BUY', P, 5n));
    const fok = w.ok(order('u', 'SELL', 399_900n, 10n, { timeInForce: 'FOK' }));
    expect(ev(fok, 'perpTrade').map((t) => [t.price, t.quantity])).toEqual([
      [P, 5n],
      [399_900n, 5n],
    ]);
    expect(fok.perpOrder).toMatchObject({ status: 'FILLED', filledQty: 10n });
  });

  it("FOK counts no liquidity behind the user's own order (it would self-trade), another user's FOK fills", () => {
    const w = world([
      ['u', 10_000n * USDT],
      ['v', 10_000n * USDT],
    ]);
    w.ok(order('mm', 'SELL', P, 5n));
    const own = w.place(order('u', 'SELL', 400_500n, 5n));
    w.ok(order('mm', 'SELL', 400_800n, 5n));
    // 0.005 of mm before u's own ask; mm's 0.005 behind it does not count either
    expect(w.place(order('u', 'BUY', 401_000n, 10n, { timeInForce: 'FOK' }))).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
    expect(w.e.perpDepth(SYM, 5).asks).toEqual([
      { price: P, quantity: 5n },
      { price: 400_500n, quantity: 5n },
      { price: 400_800n, quantity: 5n },
    ]);
    const r = w.ok(order('v', 'BUY', 401_000n, 10n, { timeInForce: 'FOK' }));
    expect(ev(r, 'perpTrade').map((t) => [t.makerUserId, t.price, t.quantity])).toEqual([
      ['mm', P, 5n],
      ['u', 400_500n, 5n],
    ]);
    expect(w.e.perpOrder(own.orderId)?.status).toBe('FILLED');
  });

  it('FOK counts a reduce-only maker only up to what is left of its position along the walk', () => {
    // r is long 0.003 and rests two reduce-only asks of 0.002 (40,000.0 and 40,010.0): together they can sell 0.003
    const w = world([
      ['r', 10_000n * USDT],
      ['v', 10_000n * USDT],
    ]);
    longAt40k(w, 'r', 3n);
    const a = w.place(order('r', 'SELL', P, 2n, { reduceOnly: true }));
    const b = w.place(order('r', 'SELL', 400_100n, 2n, { reduceOnly: true }));
    expect(w.place(order('v', 'BUY', 400_100n, 4n, { timeInForce: 'FOK' }))).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
    expect(w.e.position('r', SYM)?.size).toBe(3n);
    const r = w.ok(order('v', 'BUY', 400_100n, 3n, { timeInForce: 'FOK' }));
    expect(ev(r, 'perpTrade').map((t) => [t.price, t.quantity])).toEqual([
      [P, 2n],
      [400_100n, 1n],
    ]);
    expect(r.perpOrder).toMatchObject({ status: 'FILLED', filledQty: 3n });
    // the position is gone: the second ask, 0.001 filled, expires (reduce-only)
    expect(w.e.position('r', SYM)).toBeUndefined();
    expect(w.e.perpOrder(a.orderId)).toMatchObject({ status: 'FILLED', filledQty: 2n });
    expect(w.e.perpOrder(b.orderId)).toMatchObject({ status: 'EXPIRED', filledQty: 1n });
    expect(depth(r)).toEqual([
      ['SELL', P, 0n],
      ['SELL', 400_100n, 0n],
    ]);
  });

  it('FOK looks past a reduce-only maker with nothing left to reduce, to the next maker', () => {
    // r is long 0.002 with reduce-only asks of 0.002 at 40,000.0 and 40,010.0: the second has no room once the first
    // fills; behind it mm asks 0.005 at 40,020.0. A FOK of 0.007 fills 0.002 + 0.005.
    const w = world([
      ['r', 10_000n * USDT],
      ['v', 10_000n * USDT],
    ]);
    longAt40k(w, 'r', 2n);
    w.place(order('r', 'SELL', P, 2n, { reduceOnly: true }));
    const dead = w.place(order('r', 'SELL', 400_100n, 2n, { reduceOnly: true }));
    w.ok(order('mm', 'SELL', 400_200n, 5n));
    expect(w.place(order('v', 'BUY', 400_200n, 8n, { timeInForce: 'FOK' })).status).toBe('EXPIRED');
    const r = w.ok(order('v', 'BUY', 400_200n, 7n, { timeInForce: 'FOK' }));
    expect(ev(r, 'perpTrade').map((t) => [t.makerUserId, t.price, t.quantity])).toEqual([
      ['r', P, 2n],
      ['mm', 400_200n, 5n],
    ]);
    expect(r.perpOrder).toMatchObject({ status: 'FILLED', filledQty: 7n });
    expect(w.e.perpOrder(dead.orderId)).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
    expect(w.e.perpDepth(SYM, 5).asks).toEqual([]);
  });

  it('a GTC taker that meets its own resting order stops there and expires (self-trade: expire the taker)', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok(order('mm', 'SELL', P, 5n));
    const own = w.place(order('u', 'SELL', 400_500n, 5n));
    const r = w.ok(order('u', 'BUY', 401_000n, 10n));
    expect(ev(r, 'perpTrade').map((t) => [t.makerUserId, t.quantity])).toEqual([['mm', 5n]]);
    expect(r.perpOrder).toMatchObject({ status: 'EXPIRED', filledQty: 5n, hold: 0n });
    expect(w.e.perpOrder(own.orderId)).toMatchObject({ status: 'NEW', filledQty: 0n });
    expect(w.e.perpOpenOrders('u').map((o) => o.orderId)).toEqual([own.orderId]);
    expect(w.e.perpDepth(SYM, 5)).toEqual({ bids: [], asks: [{ price: 400_500n, quantity: 5n }] });
  });

  it('price-time priority: the better price first, then the earlier order at the same price; fills at the maker price', () => {
    const w = world([
      ['a', 10_000n * USDT],
      ['b', 10_000n * USDT],
      ['u', 10_000n * USDT],
    ]);
    const b1 = w.place(order('b', 'SELL', 400_500n, 3n));
    const a1 = w.place(order('a', 'SELL', 400_500n, 3n));
    const mmBest = w.place(order('mm', 'SELL', 400_200n, 2n));
    const r = w.ok(order('u', 'BUY', 401_000n, 6n, { timeInForce: 'IOC' }));
    expect(ev(r, 'perpTrade').map((t) => [t.makerOrderId, t.price, t.quantity])).toEqual([
      [mmBest.orderId, 400_200n, 2n],
      [b1.orderId, 400_500n, 3n],
      [a1.orderId, 400_500n, 1n],
    ]);
    expect(depth(r)).toEqual([
      ['SELL', 400_200n, 0n],
      ['SELL', 400_500n, 2n],
    ]);
    expect(w.e.perpOrder(a1.orderId)).toMatchObject({ status: 'PARTIALLY_FILLED', filledQty: 1n });
    // the last trade price is the last fill's
    expect(w.e.perpMarkState(SYM)?.lastPrice).toBe(400_500n);
  });
});

describe('fees and holds at the fill (settleFill, releaseHold)', () => {
  it("fees round up in the payer's disfavour: 0.000001 BTC at 40,000.01 on a 0.01 / 0.000001 market (10^0 quote units per unit)", () => {
    // notional 4,000,001 quote units: taker fee ceil(2,000.0005) = 2,001, maker fee ceil(800.0002) = 801,
    // margin ceil(200,000.05) = 200,001
    const w = world(
      [
        ['u', 1_000n * USDT],
        ['m', 1_000n * USDT],
      ],
      { priceDecimals: 2, qtyDecimals: 6 },
      4_000_000n,
    );
    const mk = w.place(order('m', 'SELL', 4_000_001n, 1n));
    expect(mk.hold).toBe(200_001n + 2_001n);
    const r = w.ok(order('u', 'BUY', null, 1n));
    // the MARKET hold: margin + fee + the open loss of 1 quote unit against the mark 40,000.00
    expect(ev(r, 'perpOrderAccepted')[0]!.order.hold).toBe(200_001n + 2_001n + 1n);
    expect(ev(r, 'perpTrade')).toMatchObject([{ quoteAmount: 4_000_001n, takerFee: 2_001n, makerFee: 801n }]);
    expect(w.fees()).toBe(2_802n);
    expect(w.bal('u')).toEqual({ available: 1_000n * USDT - 200_001n - 2_001n, frozen: 200_001n });
    expect(w.bal('m')).toEqual({ available: 1_000n * USDT - 200_001n - 801n, frozen: 200_001n });
    expect(w.e.position('u', SYM)).toMatchObject({ margin: 200_001n, fees: 2_001n, cost: 4_000_001n });
    expect(w.e.perpOrder(mk.orderId)).toMatchObject({ status: 'FILLED', fee: 801n, hold: 0n });
  });

  it('a fee that divides exactly is not rounded: 0.000001 BTC at 40,000.00 pays 2,000 and 800', () => {
    const w = world([['u', 1_000n * USDT]], { priceDecimals: 2, qtyDecimals: 6 }, 4_000_000n);
    w.ok(order('mm', 'SELL', 4_000_000n, 1n));
    const r = w.ok(order('u', 'BUY', null, 1n));
    expect(ev(r, 'perpTrade')).toMatchObject([{ takerFee: 2_000n, makerFee: 800n }]);
    expect(w.fees()).toBe(2_800n);
  });

  it('margin and fee round up per fill: three fills can need one unit more than the hold, taken from the available balance', () => {
    // On the 10^0 market three asks of 0.000001 at 40,000.01 (4,000,001 each): the MARKET BUY of 3 holds
    // ceil(12,000,003 / 20) = 600,001 + ceil(6,000.0015) = 6,001 + open loss 3 = 606,005; the fills take
    // 3 x (2,001 fee + 200,001 margin) = 606,006.
    const w = world(
      [
        ['u', 1_000n * USDT],
        ['a', 1_000n * USDT],
        ['b', 1_000n * USDT],
      ],
      { priceDecimals: 2, qtyDecimals: 6 },
      4_000_000n,
    );
    for (const m of ['a', 'b', 'mm']) w.ok(order(m, 'SELL', 4_000_001n, 1n));
    const r = w.ok(order('u', 'BUY', null, 3n));
    expect(ev(r, 'perpOrderAccepted')[0]!.order.hold).toBe(606_005n);
    expect(ev(r, 'perpTrade').map((t) => t.takerFee)).toEqual([2_001n, 2_001n, 2_001n]);
    expect(r.perpOrder).toMatchObject({ status: 'FILLED', fee: 6_003n, hold: 0n });
    expect(w.e.position('u', SYM)).toMatchObject({ size: 3n, cost: 12_000_003n, margin: 600_003n });
    expect(w.bal('u')).toEqual({ available: 1_000n * USDT - 606_006n, frozen: 600_003n });
  });

  it('a realized profit of a single quote unit is paid (long 0.000001 at 40,000.00 sold at 40,000.01)', () => {
    const w = world([['u', 1_000n * USDT]], { priceDecimals: 2, qtyDecimals: 6 }, 4_000_000n);
    w.ok(order('mm', 'SELL', 4_000_000n, 1n));
    w.ok(order('u', 'BUY', null, 1n));
    w.ok(order('mm', 'BUY', 4_000_001n, 1n));
    const r = w.ok(order('u', 'SELL', null, 1n, { reduceOnly: true }));
    // fees: 2,000 to open, ceil(2,000.0005) = 2,001 to close
    expect(ev(r, 'perpTrade')).toMatchObject([{ takerRealizedPnl: 1n, makerRealizedPnl: -1n, takerFee: 2_001n }]);
    expect(w.bal('u')).toEqual({ available: 1_000n * USDT + 1n - 4_001n, frozen: 0n });
    expect(w.e.balance('@clearing', 'SYSTEM', 'USDT').available).toBe(0n);
  });

  it('a filled maker gets back what its hold did not pay: 2,020,000,000 - 8e6 fee - 2e9 margin = 1.2e7', () => {
    const w = world([
      ['m', 3_000n * USDT],
      ['u', 3_000n * USDT],
    ]);
    w.ok(order('m', 'SELL', P, 10n));
    expect(w.bal('m')).toEqual({ available: 3_000n * USDT - 2_020_000_000n, frozen: 2_020_000_000n });
    w.ok(order('u', 'BUY', null, 10n));
    expect(w.bal('m')).toEqual({ available: 3_000n * USDT - 2_008_000_000n, frozen: 2_000_000_000n });
    expect(w.bal('u')).toEqual({ available: 3_000n * USDT - 2_020_000_000n, frozen: 2_000_000_000n });
    expect(w.fees()).toBe(28_000_000n);
  });

  it("a taker BUY limited at 41,000.0 fills at the ask 40,000.0; the margin is the fill's, the rest of the hold goes back", () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok(order('mm', 'SELL', P, 10n));
    const r = w.ok(order('u', 'BUY', 410_000n, 10n));
    expect(ev(r, 'perpOrderAccepted')[0]!.order.hold).toBe(3_070_500_000n);
    expect(ev(r, 'perpTrade')).toMatchObject([{ price: P, quoteAmount: 40_000_000_000n, takerFee: 20_000_000n }]);
    expect(r.perpOrder).toMatchObject({ status: 'FILLED', filledQuote: 40_000_000_000n, hold: 0n });
    expect(w.bal('u')).toEqual({ available: 10_000n * USDT - 2_020_000_000n, frozen: 2_000_000_000n });
  });

  /**
   * u rests a BUY of 0.010 at 41,000.0 above the mark 40,000.0 (no asks): hold 2.05e9 + 2.05e7 + open loss 1e9 =
   * 3,070,500,000. mm sells into it at 41,000.0: u pays the maker fee 8.2e6. An isolated position keeps the open
   * loss as margin (3.05e9); a cross one only the initial margin (2.05e9), its loss is carried by the wallet.
   */
  for (const [mode, margin] of [
    ['CROSS', 2_050_000_000n],
    ['ISOLATED', 3_050_000_000n],
  ] as const) {
    it(`${mode}: a resting BUY above the mark filled as maker keeps margin ${margin}`, () => {
      const w = world([['u', 10_000n * USDT]]);
      if (mode === 'ISOLATED') w.isolated('u');
      const o = w.place(order('u', 'BUY', 410_000n, 10n));
      expect(o).toMatchObject({ hold: 3_070_500_000n, marginMode: mode });
      const r = w.ok(order('mm', 'SELL', 410_000n, 10n));
      expect(ev(r, 'perpTrade')).toMatchObject([{ makerUserId: 'u', makerFee: 8_200_000n, takerFee: 20_500_000n }]);
      expect(w.e.perpOrder(o.orderId)).toMatchObject({ status: 'FILLED', hold: 0n, fee: 8_200_000n });
      expect(w.e.position('u', SYM)).toMatchObject({ side: 'LONG', size: 10n, cost: 41_000_000_000n, margin, marginMode: mode });
      expect(w.bal('u')).toEqual({ available: 10_000n * USDT - 8_200_000n - margin, frozen: margin });
    });
  }
});

describe('closing part of a position (closePart, pay)', () => {
  it('a long of 0.003 bought at 40,000.0 and 40,001.0: closing 0.001 at 41,000.0 realizes 4.1e9 - floor(cost / 3)', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok(order('mm', 'SELL', P, 1n));
    w.ok(order('mm', 'SELL', 400_010n, 2n));
    const open = w.ok(order('u', 'BUY', null, 3n));
    // cost 4e9 + 8,000,200,000; hold: margin 600,010,000 + fee 6,000,100 + open loss 200,000 (vs 3 x 40,000.0)
    expect(ev(open, 'perpOrderAccepted')[0]!.order.hold).toBe(606_210_100n);
    expect(w.e.position('u', SYM)).toMatchObject({ size: 3n, cost: 12_000_200_000n, margin: 600_010_000n, fees: 6_000_100n });
    expect(w.bal('u')).toEqual({ available: 10_000n * USDT - 606_010_100n, frozen: 600_010_000n });
    w.ok(order('mm', 'BUY', 410_000n, 1n));
    const r = w.ok(order('u', 'SELL', null, 1n, { reduceOnly: true }));
    // released cost floor(12,000,200,000 / 3) = 4,000,066,666: pnl 4.1e9 - that = 99,933,334; fee 2,050,000;
    // margin released floor(600,010,000 / 3) = 200,003,333
    expect(ev(r, 'perpTrade')).toMatchObject([
      { price: 410_000n, quantity: 1n, takerFee: 2_050_000n, makerFee: 820_000n, takerRealizedPnl: 99_933_334n, makerRealizedPnl: -99_933_334n },
    ]);
    expect(r.perpOrder).toMatchObject({ status: 'FILLED', tradeType: 'CLOSE_LONG', realizedPnl: 99_933_334n, fee: 2_050_000n, hold: 0n });
    expect(w.e.position('u', SYM)).toMatchObject({
      side: 'LONG',
      size: 2n,
      cost: 8_000_133_334n,
      margin: 400_006_667n,
      realizedPnl: 99_933_334n,
      fees: 8_050_100n,
      entryPrice: 400_007n,
    });
    expect(w.e.position('mm', SYM)).toMatchObject({ side: 'SHORT', size: 2n, cost: 8_000_133_334n, realizedPnl: -99_933_334n });
    expect(w.bal('u')).toEqual({ available: 10_000n * USDT - 606_010_100n + 200_003_333n + 99_933_334n - 2_050_000n, frozen: 400_006_667n });
    // the rest: a reduce-only MARKET of 0.005 fills the 0.002 left (all the cost released) and expires
    w.ok(order('mm', 'BUY', 410_000n, 2n));
    const last = w.ok(order('u', 'SELL', null, 5n, { reduceOnly: true }));
    expect(ev(last, 'perpTrade')).toMatchObject([{ quantity: 2n, takerRealizedPnl: 199_866_666n }]);
    expect(last.perpOrder).toMatchObject({ status: 'EXPIRED', filledQty: 2n, realizedPnl: 199_866_666n });
    expect(ev(last, 'positionChanged').find((x) => x.position.userId === 'u')?.position).toMatchObject({
      size: 0n,
      cost: 0n,
      margin: 0n,
      realizedPnl: 299_800_000n,
    });
    expect(w.e.position('u', SYM)).toBeUndefined();
    // 3 x 4.1e9 - 12,000,200,000 = 299,800,000 realized; fees 6,000,100 + 2,050,000 + 4,100,000
    expect(w.bal('u')).toEqual({ available: 10_000n * USDT + 299_800_000n - 12_150_100n, frozen: 0n });
  });

  it('a short of 0.003 sold at 40,000.0 and 39,999.0: buying back 0.002 at 39,000.0 realizes floor(2 x cost / 3) - 7.8e9', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok(order('mm', 'BUY', P, 1n));
    w.ok(order('mm', 'BUY', 399_990n, 2n));
    w.ok(order('u', 'SELL', null, 3n));
    expect(w.e.position('u', SYM)).toMatchObject({ side: 'SHORT', size: 3n, cost: 11_999_800_000n });
    w.ok(order('mm', 'SELL', 390_000n, 2n));
    const r = w.ok(order('u', 'BUY', null, 2n, { reduceOnly: true }));
    // released floor(23,999,600,000 / 3) = 7,999,866,666; pnl 7,999,866,666 - 7.8e9
    expect(ev(r, 'perpTrade')).toMatchObject([{ takerRealizedPnl: 199_866_666n, makerRealizedPnl: -199_866_666n }]);
    expect(r.perpOrder).toMatchObject({ tradeType: 'CLOSE_SHORT', status: 'FILLED' });
    expect(w.e.position('u', SYM)).toMatchObject({ side: 'SHORT', size: 1n, cost: 3_999_933_334n, realizedPnl: 199_866_666n });
  });

  it('isolated 10x: closing 0.001 of 0.004 at 39,000.0 takes the loss 1e8 from the released margin 4e8', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.isolated('u');
    w.leverage('u', 10);
    longAt40k(w, 'u', 4n);
    expect(w.e.position('u', SYM)).toMatchObject({ margin: 1_600_000_000n, marginMode: 'ISOLATED' });
    w.ok(order('mm', 'BUY', 390_000n, 1n));
    const r = w.ok(order('u', 'SELL', null, 1n, { reduceOnly: true }));
    expect(ev(r, 'perpTrade')).toMatchObject([{ takerRealizedPnl: -100_000_000n, takerFee: 1_950_000n, makerRealizedPnl: 100_000_000n }]);
    expect(w.e.position('u', SYM)).toMatchObject({ size: 3n, cost: 12_000_000_000n, margin: 1_200_000_000n });
    // 3e8 of the released margin comes back; the fee is paid from the available balance
    expect(w.bal('u')).toEqual({ available: 10_000n * USDT - 1_600_000_000n - 8_000_000n + 300_000_000n - 1_950_000n, frozen: 1_200_000_000n });
  });

  it("cross: a closing order's own hold pays its loss before the position's margin", () => {
    // u (20x) is long 0.010 at 40,000.0 and sells 0.001 (not reduce-only) at 30,000.0 into mm's bid there: hold
    // 1.5e8 + 1.5e6 + open loss 1e9 = 1,151,500,000, all u had free. The close realizes -1e9: the released margin
    // 2e8 pays first, then 8e8 from the hold, then the fee 1.5e6 from the hold; 3.5e8 of the hold goes back.
    const w = world([['u', 3_171_500_000n]]);
    longAt40k(w, 'u', 10n);
    w.ok(order('mm', 'BUY', 300_000n, 1n));
    const r = w.ok(order('u', 'SELL', 300_000n, 1n));
    expect(ev(r, 'perpOrderAccepted')[0]!.order.hold).toBe(1_151_500_000n);
    expect(r.perpOrder).toMatchObject({ status: 'FILLED', tradeType: 'CLOSE_LONG', realizedPnl: -1_000_000_000n, fee: 1_500_000n, hold: 0n });
    expect(w.e.position('u', SYM)).toMatchObject({ size: 9n, margin: 1_800_000_000n });
    expect(w.bal('u')).toEqual({ available: 350_000_000n, frozen: 1_800_000_000n });
  });

  it("isolated: a closing order's hold pays the loss beyond the whole margin", () => {
    // u (isolated 20x) is long 0.010 at 40,000.0 (margin 2e9) and sells 0.010 (not reduce-only) at 30,000.0 into
    // mm's bid: hold 1.5e9 + 1.5e7 + open loss 1e10 = 11,515,000,000, all u had free. The close realizes -1e10:
    // the margin 2e9 pays first, then 8e9 from the hold, the fee 1.5e7 too; 3.5e9 of the hold goes back.
    const w = world([['u', 13_535_000_000n]]);
    w.isolated('u');
    longAt40k(w, 'u', 10n);
    w.ok(order('mm', 'BUY', 300_000n, 10n));
    const r = w.ok(order('u', 'SELL', 300_000n, 10n));
    expect(ev(r, 'perpOrderAccepted')[0]!.order.hold).toBe(11_515_000_000n);
    expect(r.perpOrder).toMatchObject({ status: 'FILLED', realizedPnl: -10_000_000_000n, fee: 15_000_000n, hold: 0n });
    expect(w.e.position('u', SYM)).toBeUndefined();
    expect(w.bal('u')).toEqual({ available: 3_500_000_000n, frozen: 0n });
    expect(w.e.balance('@insurance', 'SYSTEM', 'USDT').available).toBe(0n);
  });

  it("cross: the loss beyond the available balance is taken from cross margins only, not from an isolated position's", () => {
    // u: isolated ETH long 1.000 at 3,000.0 (margin 1.5e10, fee 1.5e8), then cross BTC long 0.010 (margin 2e9, fee
    // 2e7), nothing free. Selling 0.001 BTC at 30,000.0: pnl -1e9, 2e8 released pays first, 8e8 and the fee 1.5e6
    // from the BTC margin: 2e9 - 2e8 - 8e8 - 1.5e6.
    const w = world([['u', 17_170_000_000n]]);
    w.ok({ type: 'addPerpMarket', market: perpMarket({ symbol: ETH, base: 'ETH' }) });
    w.isolated('u', ETH);
    w.mark(30_000n, ETH);
    w.ok({ ...order('mm', 'SELL', 30_000n, 1_000n), symbol: ETH });
    w.ok({ ...order('u', 'BUY', null, 1_000n), symbol: ETH });
    longAt40k(w, 'u', 10n);
    expect(w.bal('u')).toEqual({ available: 0n, frozen: 17_000_000_000n });
    w.ok(order('mm', 'BUY', 300_000n, 1n));
    w.ok(order('u', 'SELL', null, 1n, { reduceOnly: true }));
    expect(w.e.position('u', ETH)).toMatchObject({ margin: 15_000_000_000n, marginMode: 'ISOLATED' });
    expect(w.e.position('u', SYM)).toMatchObject({ size: 9n, margin: 998_500_000n, marginMode: 'CROSS' });
    expect(w.bal('u')).toEqual({ available: 0n, frozen: 15_998_500_000n });
  });

  /**
   * u (20x) is long 0.010 at 40,000.0 (margin 2e9, fee 2e7) with 5e8 left available, and sells 0.001 reduce-only
   * into a bid at 30,000.0: pnl -1e9 against a released margin of 2e8, fee 1.5e6. What the released margin does not
   * pay comes from the available balance first, then from the position's margin (a reduce-only order has no hold).
   */
  for (const mode of ['CROSS', 'ISOLATED'] as const) {
    it(`${mode}: a loss beyond the released margin is paid by the available balance, then by the position's margin`, () => {
      const w = world([['u', 2_520_000_000n]]);
      if (mode === 'ISOLATED') w.isolated('u');
      longAt40k(w, 'u', 10n);
      expect(w.bal('u')).toEqual({ available: 500_000_000n, frozen: 2_000_000_000n });
      w.ok(order('mm', 'BUY', 300_000n, 1n));
      const r = w.ok(order('u', 'SELL', null, 1n, { reduceOnly: true }));
      expect(ev(r, 'perpTrade')).toMatchObject([{ price: 300_000n, takerRealizedPnl: -1_000_000_000n, takerFee: 1_500_000n }]);
      // margin 2e9 - 2e8 released - (1e9 - 2e8 - 5e8) - 1.5e6 = 1,498,500,000; nothing left available
      expect(w.e.position('u', SYM)).toMatchObject({ size: 9n, cost: 36_000_000_000n, margin: 1_498_500_000n });
      expect(w.bal('u')).toEqual({ available: 0n, frozen: 1_498_500_000n });
      expect(w.e.balance('@insurance', 'SYSTEM', 'USDT').available).toBe(0n);
    });
  }
});

describe('reduce-only orders: capped at the position, expired when it is gone (expireReduceOnly, reduceRoom)', () => {
  it('closing the whole position expires every resting reduce-only order of the market, not an opening order', () => {
    const w = world([['u', 10_000n * USDT]]);
    longAt40k(w, 'u', 4n);
    const ro1 = w.place(order('u', 'SELL', 410_000n, 4n, { reduceOnly: true }));
    const ro2 = w.place(order('u', 'SELL', 420_000n, 2n, { reduceOnly: true }));
    const opening = w.place(order('u', 'BUY', 390_000n, 1n));
    const bal = w.bal('u');
    w.ok(order('mm', 'BUY', P, 4n));
    const r = w.ok(order('u', 'SELL', null, 4n, { reduceOnly: true }));
    expect(w.e.position('u', SYM)).toBeUndefined();
    const expired = ev(r, 'perpOrderUpdated').filter((x) => x.order.userId === 'u' && x.order.orderId !== r.perpOrder?.orderId);
    expect(expired.map((x) => [x.order.orderId, x.order.status, x.order.filledQty])).toEqual([
      [ro1.orderId, 'EXPIRED', 0n],
      [ro2.orderId, 'EXPIRED', 0n],
    ]);
    expect(depth(r)).toEqual([
      ['BUY', P, 0n],
      ['SELL', 410_000n, 0n],
      ['SELL', 420_000n, 0n],
    ]);
    expect(w.e.perpOpenOrders('u')).toEqual([w.e.perpOrder(opening.orderId)]);
    // closed at 40,000.0: pnl 0, fee 8e6; the margin 8e8 comes back
    expect(w.bal('u')).toEqual({ available: bal.available + 800_000_000n - 8_000_000n, frozen: bal.frozen - 800_000_000n });
  });

  it('a position that only shrinks keeps its reduce-only orders; their fills stop at the position, the rest expires', () => {
    const w = world([
      ['u', 10_000n * USDT],
      ['v', 10_000n * USDT],
    ]);
    longAt40k(w, 'u', 4n);
    const ro = w.place(order('u', 'SELL', 410_000n, 4n, { reduceOnly: true }));
    w.ok(order('mm', 'BUY', P, 2n));
    const part = w.ok(order('u', 'SELL', null, 2n, { reduceOnly: true }));
    expect(ev(part, 'perpOrderUpdated').map((x) => x.order.orderId)).not.toContain(ro.orderId);
    expect(w.e.perpOrder(ro.orderId)).toMatchObject({ status: 'NEW', quantity: 4n });
    expect(w.e.position('u', SYM)?.size).toBe(2n);
    // v bids 0.004 at 41,000.0: the reduce-only ask sells the 0.002 left, then expires; v's rest rests
    const r = w.ok(order('v', 'BUY', 410_000n, 4n));
    expect(ev(r, 'perpTrade')).toMatchObject([{ makerOrderId: ro.orderId, quantity: 2n, price: 410_000n }]);
    expect(w.e.perpOrder(ro.orderId)).toMatchObject({ status: 'EXPIRED', filledQty: 2n, hold: 0n });
    expect(r.perpOrder).toMatchObject({ status: 'PARTIALLY_FILLED', filledQty: 2n });
    expect(depth(r)).toEqual([
      ['SELL', 410_000n, 0n],
      ['BUY', 410_000n, 2n],
    ]);
    expect(w.e.position('u', SYM)).toBeUndefined();
  });

  it('a flip to a short expires the resting reduce-only SELL (it would now add to the position)', () => {
    const w = world([['u', 10_000n * USDT]]);
    longAt40k(w, 'u', 4n);
    const ro = w.place(order('u', 'SELL', 420_000n, 2n, { reduceOnly: true }));
    w.ok(order('mm', 'BUY', P, 10n));
    const r = w.ok(order('u', 'SELL', null, 10n));
    expect(r.perpOrder).toMatchObject({ tradeType: 'CLOSE_LONG', status: 'FILLED' });
    expect(w.e.position('u', SYM)).toMatchObject({ side: 'SHORT', size: 6n, cost: 24_000_000_000n });
    expect(w.e.perpOrder(ro.orderId)).toMatchObject({ status: 'EXPIRED' });
    expect(depth(r)).toContainEqual(['SELL', 420_000n, 0n]);
  });

  it("a reduce-only order of another market stays when this market's position is gone", () => {
    const w = world([['u', 100_000n * USDT]]);
    w.ok({ type: 'addPerpMarket', market: perpMarket({ symbol: ETH, base: 'ETH' }) });
    w.mark(30_000n, ETH);
    w.ok({ ...order('mm', 'SELL', 30_000n, 1_000n), symbol: ETH });
    w.ok({ ...order('u', 'BUY', null, 1_000n), symbol: ETH });
    const eth = w.place({ ...order('u', 'SELL', 31_000n, 1_000n, { reduceOnly: true }), symbol: ETH });
    longAt40k(w, 'u', 4n);
    w.ok(order('mm', 'BUY', P, 4n));
    w.ok(order('u', 'SELL', null, 4n, { reduceOnly: true }));
    expect(w.e.position('u', SYM)).toBeUndefined();
    expect(w.e.perpOrder(eth.orderId)?.status).toBe('NEW');
  });

  it("a close whose loss is paid from the margin of a cross position in another market keeps that market's reduce-only order", () => {
    // u (cross 20x): long 1.000 ETH at 3,000.0 (margin 1.5e10, fee 1.5e8) and long 0.010 BTC at 40,000.0 (margin 2e9,
    // fee 2e7), nothing else free. Selling the BTC at 30,000.0 realizes -1e10: the released 2e9 pays first, then
    // 8e9 from the ETH margin, then the fee 1.5e7 from it too: the ETH position changes in this BTC command.
    const w = world([['u', 17_170_000_000n]]);
    w.ok({ type: 'addPerpMarket', market: perpMarket({ symbol: ETH, base: 'ETH' }) });
    w.mark(30_000n, ETH);
    w.ok({ ...order('mm', 'SELL', 30_000n, 1_000n), symbol: ETH });
    w.ok({ ...order('u', 'BUY', null, 1_000n), symbol: ETH });
    const eth = w.place({ ...order('u', 'SELL', 31_000n, 1_000n, { reduceOnly: true }), symbol: ETH });
    longAt40k(w, 'u', 10n);
    expect(w.bal('u')).toEqual({ available: 0n, frozen: 17_000_000_000n });
    w.ok(order('mm', 'BUY', 300_000n, 10n));
    const r = w.ok(order('u', 'SELL', null, 10n, { reduceOnly: true }));
    expect(ev(r, 'perpTrade')).toMatchObject([{ takerRealizedPnl: -10_000_000_000n, takerFee: 15_000_000n }]);
    const mine = ev(r, 'positionChanged').filter((x) => x.position.userId === 'u');
    expect(mine.map((x) => [x.position.symbol, x.position.size, x.position.margin])).toEqual([
      [ETH, 1_000n, 6_985_000_000n],
      [SYM, 0n, 0n],
    ]);
    expect(w.e.position('u', SYM)).toBeUndefined();
    expect(w.e.perpOrder(eth.orderId)).toMatchObject({ status: 'NEW', reduceOnly: true });
    expect(w.bal('u')).toEqual({ available: 0n, frozen: 6_985_000_000n });
  });

  it('a reduce-only GTC taker that closes the whole position does not rest', () => {
    const w = world([['u', 10_000n * USDT]]);
    longAt40k(w, 'u', 4n);
    w.ok(order('mm', 'BUY', P, 10n));
    const r = w.ok(order('u', 'SELL', P, 6n, { reduceOnly: true }));
    expect(r.perpOrder).toMatchObject({ status: 'EXPIRED', filledQty: 4n, hold: 0n });
    expect(depth(r)).toEqual([['BUY', P, 6n]]);
    expect(w.e.perpOpenOrders('u')).toEqual([]);
  });

  it('a reduce-only GTC taker with position left rests its rest (PARTIALLY_FILLED, no hold)', () => {
    const w = world([['u', 10_000n * USDT]]);
    longAt40k(w, 'u', 4n);
    w.ok(order('mm', 'BUY', P, 2n));
    const bal = w.bal('u');
    const r = w.ok(order('u', 'SELL', P, 3n, { reduceOnly: true }));
    expect(r.perpOrder).toMatchObject({ status: 'PARTIALLY_FILLED', filledQty: 2n, hold: 0n, reduceOnly: true });
    expect(depth(r)).toEqual([
      ['BUY', P, 0n],
      ['SELL', P, 1n],
    ]);
    // 0.002 closed at cost: margin 4e8 back, fee 4e6
    expect(w.bal('u')).toEqual({ available: bal.available + 400_000_000n - 4_000_000n, frozen: bal.frozen - 400_000_000n });
  });

  it('a reduce-only taker is capped at the position even against a larger bid', () => {
    const w = world([['u', 10_000n * USDT]]);
    longAt40k(w, 'u', 4n);
    w.ok(order('mm', 'BUY', 390_000n, 3n));
    w.ok(order('mm', 'BUY', 380_000n, 3n));
    const r = w.ok(order('u', 'SELL', null, 9n, { reduceOnly: true }));
    expect(ev(r, 'perpTrade').map((t) => [t.price, t.quantity])).toEqual([
      [390_000n, 3n],
      [380_000n, 1n],
    ]);
    expect(r.perpOrder).toMatchObject({ status: 'EXPIRED', filledQty: 4n, tradeType: 'CLOSE_LONG' });
    expect(depth(r)).toEqual([
      ['BUY', 390_000n, 0n],
      ['BUY', 380_000n, 2n],
    ]);
  });
});

describe('perpCancelOrder (cancel, closeResting)', () => {
  it("only the owner can cancel: another user's order id or client id is order_not_found and changes nothing", () => {
    const w = world([
      ['u', 1_000n * USDT],
      ['v', 1_000n * USDT],
    ]);
    const o = w.place(order('u', 'BUY', 390_000n, 1n, { clientOrderId: 'mine' }));
    w.refused({ type: 'perpCancelOrder', userId: 'v', orderId: o.orderId }, 'order_not_found');
    w.refused({ type: 'perpCancelOrder', userId: 'v', clientOrderId: 'mine' }, 'order_not_found');
    expect(w.e.perpOrder(o.orderId)).toMatchObject({ status: 'NEW', hold: 196_950_000n });
    const r = w.ok({ type: 'perpCancelOrder', userId: 'u', clientOrderId: 'mine' });
    expect(r.perpOrder).toMatchObject({ orderId: o.orderId, status: 'CANCELED', hold: 0n });
  });

  it('bad requests: both ids, neither, a user id not a string; unknown or non-canonical ids are order_not_found', () => {
    const w = world([['u', 1_000n * USDT]]);
    const o = w.place(order('u', 'BUY', 390_000n, 1n, { clientOrderId: 'c' }));
    w.refused({ type: 'perpCancelOrder', userId: 'u', orderId: o.orderId, clientOrderId: 'c' }, 'invalid_order');
    w.refused({ type: 'perpCancelOrder', userId: 'u' }, 'invalid_order');
    w.refused({ type: 'perpCancelOrder', userId: 5, orderId: o.orderId }, 'invalid_order');
    for (const id of ['999999', `0${o.orderId}`, ` ${o.orderId}`, '', 'x']) w.refused({ type: 'perpCancelOrder', userId: 'u', orderId: id }, 'order_not_found');
    w.refused({ type: 'perpCancelOrder', userId: 'u', clientOrderId: 'other' }, 'order_not_found');
    expect(w.cancel('u', o.orderId).code).toBe('ok');
  });

  it('cancel releases the whole hold, open loss included, and removes the level', () => {
    const w = world([['u', 10_000n * USDT]]);
    const o = w.place(order('u', 'BUY', 410_000n, 10n));
    expect(w.bal('u')).toEqual({ available: 10_000n * USDT - 3_070_500_000n, frozen: 3_070_500_000n });
    const r = w.cancel('u', o.orderId);
    expect(r.events.map((x) => x.type).filter((t) => t !== 'balanceChanged')).toEqual(['perpOrderUpdated', 'perpDepthChanged']);
    expect(r.perpOrder).toMatchObject({ status: 'CANCELED', hold: 0n, filledQty: 0n, updatedTs: w.ts - 1 });
    expect(depth(r)).toEqual([['BUY', 410_000n, 0n]]);
    expect(w.bal('u')).toEqual({ available: 10_000n * USDT, frozen: 0n });
    expect(w.e.perpOpenOrders('u')).toEqual([]);
    expect(w.e.perpDepth(SYM, 5)).toEqual({ bids: [], asks: [] });
  });

  it("a partly filled maker's cancel releases what its hold kept for the rest, its position margin stays", () => {
    // m rests a SELL of 0.010 at 40,000.0 (hold 2,020,000,000); u buys 0.004: m pays the maker fee 1.6e10 x 0.02% =
    // 3.2e6 and the margin 8e8 from the hold, 1,216,800,000 is left for the 0.006 still resting
    const w = world([
      ['m', 3_000n * USDT],
      ['u', 3_000n * USDT],
    ]);
    const o = w.place(order('m', 'SELL', P, 10n));
    const fill = w.ok(order('u', 'BUY', null, 4n));
    expect(depth(fill)).toEqual([['SELL', P, 6n]]);
    expect(w.e.perpOrder(o.orderId)).toMatchObject({ status: 'PARTIALLY_FILLED', filledQty: 4n, fee: 3_200_000n, hold: 1_216_800_000n });
    expect(w.bal('m')).toEqual({ available: 3_000n * USDT - 2_020_000_000n, frozen: 800_000_000n + 1_216_800_000n });
    const r = w.cancel('m', o.orderId);
    expect(r.perpOrder).toMatchObject({ status: 'CANCELED', filledQty: 4n, hold: 0n });
    expect(depth(r)).toEqual([['SELL', P, 0n]]);
    expect(w.bal('m')).toEqual({ available: 3_000n * USDT - 803_200_000n, frozen: 800_000_000n });
    expect(w.e.position('m', SYM)).toMatchObject({ side: 'SHORT', size: 4n, margin: 800_000_000n });
  });

  it('a second cancel, or a cancel of a filled order, is order_not_found with the order as it is', () => {
    const w = world([['u', 10_000n * USDT]]);
    const o = w.place(order('u', 'BUY', 390_000n, 1n));
    expect(w.cancel('u', o.orderId).code).toBe('ok');
    const h = w.e.stateHash();
    const again = w.cancel('u', o.orderId);
    expect(again).toMatchObject({ code: 'order_not_found', events: [], perpOrder: { orderId: o.orderId, status: 'CANCELED' } });
    const f = w.place(order('u', 'SELL', 390_000n, 1n));
    w.ok(order('mm', 'BUY', null, 1n));
    expect(w.e.perpOrder(f.orderId)?.status).toBe('FILLED');
    const h2 = w.e.stateHash();
    expect(h2).not.toBe(h);
    expect(w.cancel('u', f.orderId)).toMatchObject({ code: 'order_not_found', events: [], perpOrder: { status: 'FILLED' } });
    expect(w.e.stateHash()).toBe(h2);
  });

  it('a cancelled reduce-only order releases nothing (it held nothing)', () => {
    const w = world([['u', 10_000n * USDT]]);
    longAt40k(w, 'u', 2n);
    const bal = w.bal('u');
    const ro = w.place(order('u', 'SELL', 410_000n, 2n, { reduceOnly: true }));
    expect(w.cancel('u', ro.orderId).perpOrder).toMatchObject({ status: 'CANCELED', hold: 0n });
    expect(w.bal('u')).toEqual(bal);
  });
});

describe('book depth events (depthAt): the level total after the command', () => {
  it('two orders at one level: each rest, fill and cancel reports the remaining total of the level', () => {
    const w = world([
      ['a', 10_000n * USDT],
      ['b', 10_000n * USDT],
      ['u', 10_000n * USDT],
    ]);
    expect(depth(w.ok(order('a', 'SELL', P, 3n)))).toEqual([['SELL', P, 3n]]);
    const b = w.ok(order('b', 'SELL', P, 4n));
    expect(depth(b)).toEqual([['SELL', P, 7n]]);
    // 0.002 from a: 5 left at the level
    expect(depth(w.ok(order('u', 'BUY', null, 2n)))).toEqual([['SELL', P, 5n]]);
    // 0.002 more: a's last 0.001, then 0.001 of b: one event with the final total 3
    const r = w.ok(order('u', 'BUY', null, 2n));
    expect(ev(r, 'perpTrade').map((t) => [t.makerUserId, t.quantity])).toEqual([
      ['a', 1n],
      ['b', 1n],
    ]);
    expect(depth(r)).toEqual([['SELL', P, 3n]]);
    expect(depth(w.cancel('b', b.perpOrder!.orderId))).toEqual([['SELL', P, 0n]]);
    expect(w.e.perpDepth(SYM, 5).asks).toEqual([]);
  });

  it("cancelling one of two bids at a level leaves the other one's quantity", () => {
    const w = world([
      ['u', 10_000n * USDT],
      ['v', 10_000n * USDT],
    ]);
    const u = w.place(order('u', 'BUY', 390_000n, 3n));
    w.ok(order('v', 'BUY', 390_000n, 4n));
    expect(depth(w.cancel('u', u.orderId))).toEqual([['BUY', 390_000n, 4n]]);
    expect(w.e.perpDepth(SYM, 5)).toEqual({ bids: [{ price: 390_000n, quantity: 4n }], asks: [] });
  });

  it('a MARKET order adds nothing to the book and a refused order emits no depth', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok(order('mm', 'SELL', P, 3n));
    const r = w.ok(order('u', 'BUY', null, 5n));
    expect(depth(r)).toEqual([['SELL', P, 0n]]);
    expect(w.e.perpDepth(SYM, 5)).toEqual({ bids: [], asks: [] });
  });
});
