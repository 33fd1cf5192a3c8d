/**
 * Conditional perpetual orders (perp-conditional.ts, docs/perp-conditional-orders.md), tested against Binance USDⓈ-M's
 * published rules: STOP BUY triggers at price >= stopPrice and SELL at <=, TAKE_PROFIT the reverse (the *_MARKET kinds
 * alike); TRAILING_STOP_MARKET tracks the highest (SELL) or lowest (BUY) price from its activation and triggers at a
 * callbackRate pull-back; workingType MARK_PRICE or CONTRACT_PRICE (the default); -2021 when the condition already
 * holds; closePosition closes the whole position; priceProtect holds the trigger while mark and last diverge; no
 * margin is held before the trigger, the margin check is the triggered order's.
 *
 * Units as perp-orders.test.ts (test/perp-fixture.ts): price in 0.1 USDT (400_000n = 40,000.0), quantity in 0.001 BTC,
 * USDT of scale 8. The mark is moved while the book is empty or one-sided, so it equals the index. After every command
 * every asset sums to zero over the ledger and '@clearing' + Σ long cost − Σ short cost = 0.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine';
import type { Command, CommandResult } from '../types';
import type { PerpOrderView } from './types';
import { T0, USDT, perpEngine, ev, order } from '../../test/perp-fixture';

const SYM = 'BTC/USDT';
const P = 400_000n;

class World {
  ts = T0 + 1000;
  readonly users = new Set<string>(['mm']);
  constructor(readonly e: Engine) {}
  run(c: Record<string, unknown>): CommandResult {
    const r = this.e.execute({ ts: this.ts++, ...c } as unknown as Command);
    for (const [asset, total] of this.e.assetTotals()) expect(total, `ledger total of ${asset}`).toBe(0n);
    let books = 0n;
    for (const u of [...this.users, '@insurance']) for (const p of this.e.positions(u)) books += p.side === 'LONG' ? p.cost : -p.cost;
    expect(this.e.balance('@clearing', 'SYSTEM', 'USDT').available + books, 'clearing identity').toBe(0n);
    return r;
  }
  ok(c: Record<string, unknown>): CommandResult {
    const r = this.run(c);
    expect(r.code, `${String(c.type)} ${String(c.userId ?? '')}`).toBe('ok');
    return r;
  }
  refused(c: Record<string, unknown>, code: string): void {
    const h = this.e.stateHash();
    const r = this.run(c);
    expect(r.code).toBe(code);
    expect(r.events).toEqual([]);
    expect(this.e.stateHash()).toBe(h);
  }
  place(c: Record<string, unknown>): PerpOrderView {
    return this.ok(c).perpOrder as PerpOrderView;
  }
  mark(index: bigint): CommandResult {
    const r = this.ok({ type: 'perpMarkPrice', symbol: SYM, indexPrice: index });
    expect(this.e.perpMarkState(SYM)?.markPrice).toBe(index);
    return r;
  }
  deposit(userId: string, amount: bigint): void {
    this.users.add(userId);
    this.ok({ type: 'deposit', userId, asset: 'USDT', account: 'CONTRACT', amount, from: '@faucet' });
  }
  /** A trade of 1 between mm and 'tk' at `price`: the last price becomes `price` (the book is empty after it). */
  trade(price: bigint, takerSide: 'BUY' | 'SELL' = 'BUY'): CommandResult {
    this.ok(order('mm', takerSide === 'BUY' ? 'SELL' : 'BUY', price, 1n));
    const r = this.ok(order('tk', takerSide, null, 1n));
    expect(this.e.perpMarkState(SYM)?.lastPrice).toBe(price);
    return r;
  }
  get(orderId: string): PerpOrderView {
    return this.e.perpOrder(orderId) as PerpOrderView;
  }
  bal(userId: string): { available: bigint; frozen: bigint } {
    return this.e.balance(userId, 'CONTRACT', 'USDT');
  }
}

function world(users: [string, bigint][] = [], over: Parameters<typeof perpEngine>[1] = {}): World {
  const w = new World(perpEngine([['mm', 1_000_000n * USDT]], over));
  w.deposit('tk', 1_000_000n * USDT);
  for (const [u, amount] of users) w.deposit(u, amount);
  w.mark(P);
  return w;
}

/** A conditional order command: LIMIT at `price` for STOP / TAKE_PROFIT, MARKET otherwise. */
function cond(
  userId: string,
  type: string,
  side: 'BUY' | 'SELL',
  quantity: bigint,
  extra: Record<string, unknown> = {},
  price: bigint | null = null,
): Record<string, unknown> {
  const limit = type === 'STOP' || type === 'TAKE_PROFIT';
  return order(userId, side, limit ? (price ?? (extra.stopPrice as bigint)) : null, quantity, { condition: type, ...extra });
}

describe('placement', () => {
  it('a pending order is an open order outside the book: no hold, no depth, status NEW, workingTs null', () => {
    const w = world([['u', 1_000n * USDT]]);
    const before = w.bal('u');
    const r = w.ok(cond('u', 'STOP', 'BUY', 5n, { stopPrice: 410_000n, workingType: 'MARK_PRICE' }, 411_000n));
    const o = r.perpOrder as PerpOrderView;
    expect(o).toMatchObject({ status: 'NEW', orderType: 'LIMIT', price: 411_000n, quantity: 5n, hold: 0n });
    expect(o.condition).toEqual({
      type: 'STOP',
      stopPrice: 410_000n,
      workingType: 'MARK_PRICE',
      priceProtect: false,
      closePosition: false,
      callbackRateBps: null,
      activationPrice: null,
      trailingRef: null,
      workingTs: null,
      expireReason: null,
    });
    expect(ev(r, 'perpOrderAccepted').length).toBe(1);
    expect(ev(r, 'perpDepthChanged')).toEqual([]);
    expect(w.e.perpDepth(SYM, 5)).toEqual({ bids: [], asks: [] });
    expect(w.bal('u')).toEqual(before);
    expect(w.e.perpOpenOrders('u').map((x) => x.orderId)).toEqual([o.orderId]);
    // a plain order has no condition part
    expect(w.place(order('u', 'BUY', 390_000n, 1n)).condition).toBeUndefined();
  });

  it('no margin check at placement (Binance): an order far beyond the balance is accepted', () => {
    const w = world([['u', 10n * USDT]]);
    expect(w.place(cond('u', 'STOP_MARKET', 'BUY', 1_000n, { stopPrice: 410_000n })).status).toBe('NEW');
  });

  it('refusals: wrong orderType for the type, missing/extra fields, closePosition rules, callback rate bounds', () => {
    const w = world([['u', 1_000n * USDT]]);
    const bad: Record<string, unknown>[] = [
      { ...cond('u', 'STOP', 'BUY', 1n, { stopPrice: 410_000n }), orderType: 'MARKET', price: undefined },
      { ...cond('u', 'STOP_MARKET', 'BUY', 1n, { stopPrice: 410_000n }), orderType: 'LIMIT', price: 410_000n },
      cond('u', 'STOP_MARKET', 'BUY', 1n, {}),
      cond('u', 'STOP', 'BUY', 1n, { stopPrice: 410_000n, timeInForce: 'POST_ONLY' }),
      cond('u', 'STOP_MARKET', 'BUY', 1n, { stopPrice: 410_000n, callbackRateBps: 100 }),
      cond('u', 'STOP_MARKET', 'BUY', 1n, { stopPrice: 410_000n, workingType: 'INDEX_PRICE' }),
      cond('u', 'STOP_MARKET', 'BUY', 1n, { stopPrice: 410_000n, takeProfit: 420_000n }),
      cond('u', 'STOP_MARKET', 'SELL', 1n, { stopPrice: 390_000n, closePosition: true }),
      cond('u', 'STOP_MARKET', 'SELL', 0n, { stopPrice: 390_000n, closePosition: true, reduceOnly: true }),
      cond('u', 'STOP', 'SELL', 0n, { stopPrice: 390_000n, closePosition: true }),
      cond('u', 'TRAILING_STOP_MARKET', 'SELL', 1n, {}),
      cond('u', 'TRAILING_STOP_MARKET', 'SELL', 1n, { callbackRateBps: 9 }),
      cond('u', 'TRAILING_STOP_MARKET', 'SELL', 1n, { callbackRateBps: 1010 }),
      cond('u', 'TRAILING_STOP_MARKET', 'SELL', 1n, { callbackRateBps: 15 }),
      cond('u', 'TRAILING_STOP_MARKET', 'SELL', 1n, { callbackRateBps: 100, stopPrice: 390_000n }),
      cond('u', 'TRAILING_STOP_MARKET', 'SELL', 1n, { callbackRateBps: 100, priceProtect: true }),
      order('u', 'BUY', null, 1n, { stopPrice: 410_000n }),
      order('u', 'BUY', null, 1n, { workingType: 'MARK_PRICE' }),
    ];
    for (const c of bad) w.refused(c, 'invalid_order');
    // the accepted neighbours
    w.place(cond('u', 'STOP_MARKET', 'SELL', 0n, { stopPrice: 390_000n, closePosition: true }));
    w.place(cond('u', 'TRAILING_STOP_MARKET', 'SELL', 1n, { callbackRateBps: 10 }));
    w.place(cond('u', 'TRAILING_STOP_MARKET', 'SELL', 1n, { callbackRateBps: 1000 }));
    w.refused(cond('u', 'STOP_MARKET', 'BUY', 1n, { stopPrice: 0n }), 'price_not_on_tick');
    w.refused(cond('u', 'TRAILING_STOP_MARKET', 'SELL', 1n, { callbackRateBps: 100, activationPrice: -1n }), 'price_not_on_tick');
    w.refused(cond('u', 'STOP', 'BUY', 1n, { stopPrice: 410_000n }, 700_000n), 'price_out_of_band');
  });

  it('would_trigger_immediately (-2021) when the working price already meets the condition, equality included', () => {
    const w = world([['u', 1_000n * USDT]]);
    // MARK_PRICE at 40,000.0
    w.refused(cond('u', 'STOP_MARKET', 'BUY', 1n, { stopPrice: P, workingType: 'MARK_PRICE' }), 'would_trigger_immediately');
    w.refused(cond('u', 'STOP_MARKET', 'SELL', 1n, { stopPrice: P + 1n, workingType: 'MARK_PRICE' }), 'would_trigger_immediately');
    w.refused(cond('u', 'TAKE_PROFIT_MARKET', 'BUY', 1n, { stopPrice: P + 1n, workingType: 'MARK_PRICE' }), 'would_trigger_immediately');
    w.refused(cond('u', 'TAKE_PROFIT', 'SELL', 1n, { stopPrice: P - 1n, workingType: 'MARK_PRICE' }), 'would_trigger_immediately');
    w.place(cond('u', 'STOP_MARKET', 'BUY', 1n, { stopPrice: P + 1n, workingType: 'MARK_PRICE' }));
    // CONTRACT_PRICE before any trade: nothing to compare, accepted
    w.place(cond('u', 'STOP_MARKET', 'BUY', 1n, { stopPrice: P - 1000n }));
    w.trade(P + 5_000n);
    // the order above triggered with that trade; now the last price is 40,500.0
    w.refused(cond('u', 'STOP_MARKET', 'BUY', 1n, { stopPrice: P + 5_000n }), 'would_trigger_immediately');
    w.refused(cond('u', 'TRAILING_STOP_MARKET', 'SELL', 1n, { callbackRateBps: 100, activationPrice: P + 5_000n }), 'would_trigger_immediately');
    w.refused(cond('u', 'TRAILING_STOP_MARKET', 'BUY', 1n, { callbackRateBps: 100, activationPrice: P + 5_000n }), 'would_trigger_immediately');
    w.place(cond('u', 'TRAILING_STOP_MARKET', 'SELL', 1n, { callbackRateBps: 100, activationPrice: P + 5_001n }));
  });

  it('pending orders count in the 200 open orders cap and are cancellable', () => {
    const w = world([['u', 1_000n * USDT]]);
    for (let i = 0; i < 199; i++) w.place(cond('u', 'STOP_MARKET', 'BUY', 1n, { stopPrice: P + 10n + BigInt(i), workingType: 'MARK_PRICE' }));
    const last = w.place(order('u', 'BUY', P - 10_000n, 1n));
    w.refused(cond('u', 'STOP_MARKET', 'BUY', 1n, { stopPrice: P + 5_000n, workingType: 'MARK_PRICE' }), 'too_many_open_orders');
    w.refused(order('u', 'BUY', P - 10_000n, 1n), 'too_many_open_orders');
    const first = w.e.perpOpenOrders('u')[0] as PerpOrderView;
    const r = w.ok({ type: 'perpCancelOrder', userId: 'u', orderId: first.orderId });
    expect(r.perpOrder).toMatchObject({ status: 'CANCELED', hold: 0n });
    expect(ev(r, 'perpDepthChanged')).toEqual([]);
    expect(w.e.perpOpenOrders('u').length).toBe(199);
    // cancelled: never triggers
    const t = w.mark(P + 10n);
    expect(ev(t, 'perpOrderUpdated').map((u) => u.order.orderId)).not.toContain(first.orderId);
    expect(w.get(last.orderId).status).toBe('NEW');
  });
});

describe('triggers: each type at its boundary', () => {
  // [type, side, stop]: one tick short of the stop the order waits, at the stop it triggers (MARK_PRICE)
  const cases: [string, 'BUY' | 'SELL', bigint, bigint][] = [
    ['STOP', 'BUY', P + 1_000n, 1n],
    ['STOP_MARKET', 'BUY', P + 1_000n, 1n],
    ['STOP', 'SELL', P - 1_000n, -1n],
    ['STOP_MARKET', 'SELL', P - 1_000n, -1n],
    ['TAKE_PROFIT', 'BUY', P - 1_000n, -1n],
    ['TAKE_PROFIT_MARKET', 'BUY', P - 1_000n, -1n],
    ['TAKE_PROFIT', 'SELL', P + 1_000n, 1n],
    ['TAKE_PROFIT_MARKET', 'SELL', P + 1_000n, 1n],
  ];
  for (const [type, side, stop, dir] of cases) {
    it(`${type} ${side} at stop ${stop}: waits one tick short, triggers at the stop, same orderId`, () => {
      const w = world([['u', 10_000n * USDT]]);
      const o = w.place(cond('u', type, side, 2n, { stopPrice: stop, workingType: 'MARK_PRICE' }));
      w.mark(stop - dir);
      expect(w.get(o.orderId).condition?.workingTs).toBeNull();
      expect(w.get(o.orderId).status).toBe('NEW');
      const ts = w.ts;
      const r = w.mark(stop);
      const after = w.get(o.orderId);
      expect(after.condition?.workingTs).toBe(ts);
      expect(ev(r, 'perpOrderUpdated').some((u) => u.order.orderId === o.orderId)).toBe(true);
      if (type === 'STOP' || type === 'TAKE_PROFIT') {
        // a LIMIT GTC in an empty book: rests, now holding its margin
        expect(after).toMatchObject({ status: 'NEW', orderType: 'LIMIT', price: stop });
        expect(after.hold).toBeGreaterThan(0n);
        expect(w.e.perpDepth(SYM, 1)[side === 'BUY' ? 'bids' : 'asks']).toEqual([{ price: stop, quantity: 2n }]);
      } else {
        // a MARKET order with no liquidity: expires with the reason
        expect(after).toMatchObject({ status: 'EXPIRED', hold: 0n });
        expect(after.condition?.expireReason).toBe('no_liquidity');
      }
      // at most once
      w.mark(stop - dir);
      w.mark(stop);
      expect(w.get(o.orderId).condition?.workingTs).toBe(ts);
    });
  }

  it('STOP_MARKET BUY triggered by the mark fills against the book and opens the position', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok(order('mm', 'SELL', P + 2_000n, 10n));
    const o = w.place(cond('u', 'STOP_MARKET', 'BUY', 4n, { stopPrice: P + 1_000n, workingType: 'MARK_PRICE' }));
    const r = w.mark(P + 1_000n);
    expect(ev(r, 'perpTrade').map((t) => [t.takerOrderId, t.price, t.quantity])).toEqual([[o.orderId, P + 2_000n, 4n]]);
    expect(w.get(o.orderId)).toMatchObject({ status: 'FILLED', filledQty: 4n, tradeType: 'OPEN_LONG' });
    expect(w.e.position('u', SYM)).toMatchObject({ side: 'LONG', size: 4n });
  });

  it('CONTRACT_PRICE orders trigger in the command whose trade moved the last price', () => {
    const w = world([['u', 10_000n * USDT]]);
    const o = w.place(cond('u', 'STOP_MARKET', 'SELL', 1n, { stopPrice: P - 1_000n }));
    w.trade(P - 999n);
    expect(w.get(o.orderId).condition?.workingTs).toBeNull();
    // a mark tick at the stop does not trigger a CONTRACT_PRICE order
    w.mark(P - 2_000n);
    expect(w.get(o.orderId).condition?.workingTs).toBeNull();
    const ts = w.ts + 1; // the taker's command (the maker's comes first)
    const r = w.trade(P - 1_000n, 'SELL');
    expect(w.get(o.orderId).condition?.workingTs).toBe(ts);
    expect(ev(r, 'perpOrderUpdated').some((u) => u.order.orderId === o.orderId)).toBe(true);
  });

  it('several due at once trigger oldest first (seq order)', () => {
    const w = world([['u', 10_000n * USDT]]);
    const a = w.place(cond('u', 'STOP_MARKET', 'BUY', 1n, { stopPrice: P + 3_000n, workingType: 'MARK_PRICE' }));
    const b = w.place(cond('u', 'STOP_MARKET', 'BUY', 1n, { stopPrice: P + 1_000n, workingType: 'MARK_PRICE' }));
    const c = w.place(cond('u', 'TAKE_PROFIT_MARKET', 'SELL', 1n, { stopPrice: P + 2_000n, workingType: 'MARK_PRICE' }));
    const r = w.mark(P + 5_000n);
    const ids = ev(r, 'perpOrderUpdated').map((u) => u.order.orderId);
    expect(ids).toEqual([a.orderId, b.orderId, c.orderId]);
  });
});

describe('cascades', () => {
  it('a triggered order whose fill moves the last price triggers the next one in the same command', () => {
    const w = world([
      ['u', 10_000n * USDT],
      ['v', 10_000n * USDT],
    ]);
    w.trade(P);
    // u's stop sells at 39,900.0 or below; its fill at 39,800.0 reaches v's stop at 39,850.0
    const a = w.place(cond('u', 'STOP_MARKET', 'SELL', 1n, { stopPrice: P - 1_000n }));
    const b = w.place(cond('v', 'STOP_MARKET', 'SELL', 1n, { stopPrice: P - 1_500n }));
    for (const px of [P - 1_000n, P - 2_000n, P - 3_000n]) w.ok(order('mm', 'BUY', px, 1n));
    const ts = w.ts;
    const r = w.ok(order('tk', 'SELL', null, 1n));
    expect(ev(r, 'perpTrade').map((t) => [t.takerUserId, t.price])).toEqual([
      ['tk', P - 1_000n],
      ['u', P - 2_000n],
      ['v', P - 3_000n],
    ]);
    expect(w.get(a.orderId)).toMatchObject({ status: 'FILLED', condition: { workingTs: ts } });
    expect(w.get(b.orderId)).toMatchObject({ status: 'FILLED', condition: { workingTs: ts } });
    expect(w.e.perpMarkState(SYM)?.lastPrice).toBe(P - 3_000n);
  });
});

describe('trailing stop', () => {
  it('SELL with activation: tracks from the activation, follows new highs, triggers at a 1% pull-back', () => {
    const w = world([['u', 10_000n * USDT]]);
    const o = w.place(cond('u', 'TRAILING_STOP_MARKET', 'SELL', 1n, { callbackRateBps: 100, activationPrice: P + 10_000n, workingType: 'MARK_PRICE' }));
    expect(o.condition?.trailingRef).toBeNull();
    w.mark(P - 20_000n); // far below: not active, no trigger
    expect(w.get(o.orderId).condition?.trailingRef).toBeNull();
    w.mark(P + 10_000n); // activation reached: the reference is 41,000.0
    expect(w.get(o.orderId).condition?.trailingRef).toBe(P + 10_000n);
    w.mark(P + 20_000n); // new high 42,000.0
    expect(w.get(o.orderId).condition?.trailingRef).toBe(P + 20_000n);
    w.mark(415_800n + 1n); // 42,000 * 0.99 = 41,580.0: one tick above waits
    expect(w.get(o.orderId).condition?.workingTs).toBeNull();
    expect(w.get(o.orderId).condition?.trailingRef).toBe(P + 20_000n);
    const ts = w.ts;
    w.mark(415_800n);
    expect(w.get(o.orderId).condition).toMatchObject({ workingTs: ts, expireReason: 'no_liquidity' });
  });

  it('BUY without activation: tracks from placement (the last price), triggers at lowest x (1 + rate)', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.trade(P);
    const o = w.place(cond('u', 'TRAILING_STOP_MARKET', 'BUY', 1n, { callbackRateBps: 200 }));
    expect(o.condition?.trailingRef).toBe(P);
    w.trade(P - 50_000n, 'SELL'); // 35,000.0: new low
    expect(w.get(o.orderId).condition?.trailingRef).toBe(P - 50_000n);
    w.trade(356_999n); // 35,000 * 1.02 = 35,700.0: one tick short
    expect(w.get(o.orderId).condition?.workingTs).toBeNull();
    w.ok(order('mm', 'SELL', 360_000n, 5n)); // liquidity for the triggered MARKET BUY
    w.ok(order('mm', 'SELL', 357_000n, 1n));
    w.ok(order('tk', 'BUY', null, 1n)); // last = 35,700.0
    const v = w.get(o.orderId);
    expect(v.condition?.workingTs).not.toBeNull();
    expect(v).toMatchObject({ status: 'FILLED', filledQty: 1n, filledQuote: 360_000n * 10_000n });
  });
});

describe('priceProtect', () => {
  it('holds the trigger while |mark - last| > triggerProtect of the mark; triggers once they come back within it', () => {
    const w = world([['u', 10_000n * USDT]], { triggerProtectPpm: 50_000 });
    w.trade(P);
    const o = w.place(cond('u', 'STOP_MARKET', 'SELL', 1n, { stopPrice: 380_000n, workingType: 'MARK_PRICE', priceProtect: true }));
    const plain = w.place(cond('u', 'STOP_MARKET', 'SELL', 1n, { stopPrice: 380_000n, workingType: 'MARK_PRICE' }));
    // mark 37,000.0, last 40,000.0: 3,000 / 37,000 = 8.1% > 5%
    w.mark(370_000n);
    expect(w.get(plain.orderId).condition?.workingTs).not.toBeNull();
    expect(w.get(o.orderId).condition?.workingTs).toBeNull();
    // last 38,850.0: 1,850 / 37,000 = 5% exactly: not beyond, triggers with that trade
    w.trade(388_500n, 'SELL');
    expect(w.get(o.orderId).condition?.workingTs).not.toBeNull();
  });
});

describe('closePosition and reduceOnly at the trigger', () => {
  it('closePosition closes the whole position at the trigger (its size then), never opens the other side', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok(order('mm', 'SELL', P, 4n));
    w.ok(order('u', 'BUY', null, 4n));
    const o = w.place(cond('u', 'STOP_MARKET', 'SELL', 0n, { stopPrice: P - 1_000n, closePosition: true, workingType: 'MARK_PRICE' }));
    expect(o.quantity).toBe(0n);
    // the position grows to 7 before the trigger
    w.ok(order('mm', 'SELL', P, 3n));
    w.ok(order('u', 'BUY', null, 3n));
    w.ok(order('mm', 'BUY', P - 2_000n, 20n));
    w.mark(P - 1_000n);
    expect(w.get(o.orderId)).toMatchObject({ status: 'FILLED', quantity: 7n, filledQty: 7n, reduceOnly: true, tradeType: 'CLOSE_LONG' });
    expect(w.e.position('u', SYM)).toBeUndefined();
  });

  it('closePosition with no position (or one on its own side) expires no_position; reduce-only without one reduce_only_rejected', () => {
    const w = world([['u', 10_000n * USDT]]);
    const cp = w.place(cond('u', 'STOP_MARKET', 'SELL', 0n, { stopPrice: P - 1_000n, closePosition: true, workingType: 'MARK_PRICE' }));
    const ro = w.place(cond('u', 'STOP_MARKET', 'SELL', 3n, { stopPrice: P - 1_000n, reduceOnly: true, workingType: 'MARK_PRICE' }));
    // u is short: a SELL cannot reduce it
    w.ok(order('mm', 'BUY', P, 2n));
    w.ok(order('u', 'SELL', null, 2n));
    w.ok(order('mm', 'BUY', P - 2_000n, 20n));
    const before = w.e.position('u', SYM);
    w.mark(P - 1_000n);
    expect(w.get(cp.orderId)).toMatchObject({ status: 'EXPIRED', condition: { expireReason: 'no_position' } });
    expect(w.get(ro.orderId)).toMatchObject({ status: 'EXPIRED', condition: { expireReason: 'reduce_only_rejected' } });
    expect(w.e.position('u', SYM)).toEqual(before);
  });

  it('adversary: reduce-only and closePosition orders bigger than the position never open the opposite side', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.ok(order('mm', 'SELL', P, 4n));
    w.ok(order('u', 'BUY', null, 4n));
    const ro = w.place(cond('u', 'STOP_MARKET', 'SELL', 10n, { stopPrice: P - 1_000n, reduceOnly: true, workingType: 'MARK_PRICE' }));
    const cp = w.place(cond('u', 'STOP_MARKET', 'SELL', 0n, { stopPrice: P - 1_000n, closePosition: true, workingType: 'MARK_PRICE' }));
    const ro2 = w.place(cond('u', 'STOP', 'SELL', 10n, { stopPrice: P - 1_000n, reduceOnly: true, workingType: 'MARK_PRICE' }, P - 3_000n));
    w.ok(order('mm', 'BUY', P - 2_000n, 100n));
    w.mark(P - 1_000n);
    expect(w.get(ro.orderId)).toMatchObject({ filledQty: 4n, status: 'EXPIRED', tradeType: 'CLOSE_LONG' });
    expect(w.get(cp.orderId)).toMatchObject({ status: 'EXPIRED', condition: { expireReason: 'no_position' } });
    expect(w.get(ro2.orderId)).toMatchObject({ filledQty: 0n, status: 'EXPIRED', condition: { expireReason: 'reduce_only_rejected' } });
    expect(w.e.position('u', SYM)).toBeUndefined();
    expect(w.e.perpOpenOrders('u')).toEqual([]);
    expect(w.bal('u').frozen).toBe(0n);
  });
});

describe('margin is checked at the trigger', () => {
  it('adversary: ten conditional orders each needing most of the balance: one opens, the others expire insufficient_balance', () => {
    // 1,000 USDT at 20x; each order 0.4 BTC at 40,100.0 = 16,040 USDT: margin 802 + fee 8.02
    const w = world([['adv', 1_000n * USDT]]);
    w.ok(order('mm', 'SELL', P + 1_000n, 10_000n));
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(w.place(cond('adv', 'STOP_MARKET', 'BUY', 400n, { stopPrice: P + 500n, workingType: 'MARK_PRICE' })).orderId);
    expect(w.bal('adv')).toEqual({ available: 1_000n * USDT, frozen: 0n });
    w.mark(P + 500n);
    const views = ids.map((id) => w.get(id));
    expect(views[0]).toMatchObject({ status: 'FILLED', filledQty: 400n });
    for (const v of views.slice(1)) expect(v).toMatchObject({ status: 'EXPIRED', filledQty: 0n, condition: { expireReason: 'insufficient_balance' } });
    expect(w.e.position('adv', SYM)).toMatchObject({ size: 400n });
    const b = w.bal('adv');
    expect(b.available).toBeGreaterThanOrEqual(0n);
    expect(b.available + b.frozen).toBe(1_000n * USDT - 802_000_000n); // the wallet less the taker fee 8.02 USDT
  });

  it('the triggered order takes the leverage of the moment it triggers; setLeverage moves no pending hold', () => {
    const w = world([['u', 1_000n * USDT]]);
    const o = w.place(cond('u', 'STOP', 'BUY', 10n, { stopPrice: P + 1_000n, workingType: 'MARK_PRICE' }, P + 1_000n));
    expect(w.e.perpLeverageMarginMove('u', SYM, 5)).toEqual({ position: 0n, orders: 0n });
    w.ok({ type: 'perpSetLeverage', userId: 'u', symbol: SYM, leverage: 5 });
    expect(w.bal('u').frozen).toBe(0n);
    w.mark(P + 1_000n);
    const v = w.get(o.orderId);
    expect(v).toMatchObject({ status: 'NEW', leverage: 5 });
    // 10 x 40,100.0 = 401 USDT: margin 80.2 + fee 0.2005
    expect(v.hold).toBe(8_020_000_000n + 20_050_000n);
    expect(w.bal('u').frozen).toBe(v.hold);
  });

  it('a pending order of an account frozen since expires account_frozen at its trigger', () => {
    const w = world();
    const id = w.ok({ type: 'registerUser', account: 'acct-frozen', uniqueKeys: [], profile: {} }).userId as string;
    w.deposit(id, 1_000n * USDT);
    w.ok(order('mm', 'SELL', P + 2_000n, 10n));
    const o = w.place(cond(id, 'STOP_MARKET', 'BUY', 1n, { stopPrice: P + 1_000n, workingType: 'MARK_PRICE' }));
    w.ok({ type: 'updateUser', userId: id, profile: { frozen: '1' } });
    w.mark(P + 1_000n);
    expect(w.get(o.orderId)).toMatchObject({ status: 'EXPIRED', filledQty: 0n, condition: { expireReason: 'account_frozen' } });
    expect(w.e.position(id, SYM)).toBeUndefined();
  });

  it('a triggered order that rests keeps its place by orderId among the open orders (as after a restore)', () => {
    const w = world([['u', 10_000n * USDT]]);
    const a = w.place(cond('u', 'STOP', 'BUY', 1n, { stopPrice: P + 1_000n, workingType: 'MARK_PRICE' }, P + 1_000n));
    const b = w.place(order('u', 'BUY', P - 5_000n, 1n));
    w.mark(P + 1_000n);
    expect(w.get(a.orderId)).toMatchObject({ status: 'NEW', condition: { workingTs: w.ts - 1 } });
    expect(w.e.perpOpenOrders('u').map((o) => o.orderId)).toEqual([a.orderId, b.orderId]);
    const e2 = Engine.restore(JSON.parse(JSON.stringify(w.e.snapshot())));
    expect(e2.perpOpenOrders('u')).toEqual(w.e.perpOpenOrders('u'));
  });

  it('a pending order blocks a margin mode change (an open order), until cancelled', () => {
    const w = world([['u', 1_000n * USDT]]);
    const o = w.place(cond('u', 'STOP_MARKET', 'BUY', 1n, { stopPrice: P + 1_000n }));
    w.refused({ type: 'perpSetMarginMode', userId: 'u', symbol: SYM, marginMode: 'ISOLATED' }, 'position_exists');
    w.ok({ type: 'perpCancelOrder', userId: 'u', orderId: o.orderId });
    w.ok({ type: 'perpSetMarginMode', userId: 'u', symbol: SYM, marginMode: 'ISOLATED' });
  });

  it('liquidation cancels the pending orders in scope', () => {
    const w = world([['u', 100n * USDT]]);
    w.ok(order('mm', 'SELL', P, 40n));
    w.ok(order('u', 'BUY', null, 40n)); // 1,600 USDT at 20x: margin 80
    const o = w.place(cond('u', 'TAKE_PROFIT_MARKET', 'SELL', 0n, { stopPrice: P + 100_000n, closePosition: true, workingType: 'MARK_PRICE' }));
    w.ok({ type: 'fundInsurance', asset: 'USDT', amount: 100_000n * USDT, from: '@faucet' });
    w.mark(P - 40_000n); // a 160 USDT loss on 100 USDT
    expect(w.e.position('u', SYM)).toBeUndefined();
    expect(w.get(o.orderId).status).toBe('CANCELED');
  });
});

describe('snapshot and journal', () => {
  it('restore keeps pending orders (trailing reference included) and both engines trigger alike', () => {
    const w = world([['u', 10_000n * USDT]]);
    w.trade(P);
    w.place(cond('u', 'TRAILING_STOP_MARKET', 'SELL', 1n, { callbackRateBps: 100, clientOrderId: 't1' }));
    w.place(cond('u', 'STOP', 'BUY', 1n, { stopPrice: P + 1_000n, workingType: 'MARK_PRICE', priceProtect: true }));
    w.place(cond('u', 'STOP_MARKET', 'SELL', 0n, { stopPrice: P - 30_000n, closePosition: true }));
    w.trade(P + 5_000n);
    const snap = JSON.parse(JSON.stringify(w.e.snapshot()));
    const e2 = Engine.restore(snap);
    expect(e2.stateHash()).toBe(w.e.stateHash());
    expect(e2.perpOpenOrders('u')).toEqual(w.e.perpOpenOrders('u'));
    for (const c of [{ type: 'perpMarkPrice', symbol: SYM, indexPrice: P + 2_000n }, order('mm', 'BUY', P - 1_000n, 1n), order('tk', 'SELL', null, 1n)]) {
      const a = w.e.execute({ ts: w.ts, ...c } as unknown as Command);
      const b = e2.execute({ ts: w.ts++, ...c } as unknown as Command);
      expect(b).toEqual(a);
      expect(e2.stateHash()).toBe(w.e.stateHash());
    }
    // the STOP BUY triggered at the mark tick and rests at 40,100.0; the taker SELL filled it (last 40,100.0), above the
    // trailing SELL's 40,500.0 x 0.99 = 40,095.0: the trailing order and the closePosition order still wait
    const pending = w.e.perpOpenOrders('u').filter((o) => o.condition?.workingTs === null);
    expect(pending.map((o) => [o.condition?.type, o.condition?.trailingRef])).toEqual([
      ['TRAILING_STOP_MARKET', P + 5_000n],
      ['STOP_MARKET', null],
    ]);
    expect(
      e2.execute({ ts: w.ts, ...cond('u', 'TRAILING_STOP_MARKET', 'SELL', 1n, { callbackRateBps: 100, clientOrderId: 't1' }) } as unknown as Command)
        .duplicateOfOrderId,
    ).toBeDefined();
  });

  it('the journal codec round-trips the conditional fields', async () => {
    const { decodeCommand, encodeCommand, parseCommand, serializeCommand } = await import('../codec');
    const c = {
      ts: 5,
      ...cond('u', 'TRAILING_STOP_MARKET', 'SELL', 1n, { callbackRateBps: 100, activationPrice: 410_000n, workingType: 'MARK_PRICE' }),
    } as unknown as Command;
    const d = { ts: 6, ...cond('u', 'STOP_MARKET', 'SELL', 0n, { stopPrice: 390_000n, closePosition: true, priceProtect: true }) } as unknown as Command;
    for (const x of [c, d]) {
      expect(parseCommand(serializeCommand(x))).toEqual(x);
      expect(decodeCommand(encodeCommand(x))).toEqual(x);
    }
  });
});
