/**
 * perpAmendOrder (perp-orders.ts amend): a resting LIMIT order modified in place, as Binance USDⓈ-M "Modify Order"
 * does it. The order keeps its orderId; its hold becomes exactly what a new order of the same terms would hold (checked
 * against another user placing those terms); at a crossing price it matches like a taker and rests with the rest; a
 * quantity at or below the filled part, or a post-only order that would take, cancels it; the same terms change
 * nothing; every rejection (anyone else's order, unknown or ended, tick, step, band, balance) leaves the state hash
 * as it was; an order takes at most 10,000 modifications (Binance's limit), counted across a snapshot and restore. After every command every asset sums to zero over the ledger.
 *
 * Units (test/perp-fixture.ts): price in 0.1 USDT (400_000n = 40,000.0), quantity in 0.001 BTC.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine';
import type { Command, CommandResult } from '../types';
import { MAX_AMENDS_PER_ORDER } from './perp-market';
import type { PerpOrderView } from './types';
import { T0, USDT, perpEngine, order } from '../../test/perp-fixture';

const SYM = 'BTC/USDT';
const P = 400_000n;

function world() {
  const e = perpEngine([
    ['alice', 10_000n * USDT],
    ['bob', 10_000n * USDT],
    ['mm', 100_000n * USDT],
  ]);
  let ts = T0 + 1000;
  const run = (c: Record<string, unknown>): CommandResult => {
    const r = e.execute({ ts: ts++, ...c } as unknown as Command);
    for (const [asset, total] of e.assetTotals()) expect(total, `ledger total of ${asset}`).toBe(0n);
    return r;
  };
  const ok = (c: Record<string, unknown>) => {
    const r = run(c);
    expect(r.code, String(c.type)).toBe('ok');
    return r.perpOrder as PerpOrderView;
  };
  const refused = (c: Record<string, unknown>, code: string) => {
    const h = e.stateHash();
    const r = run(c);
    expect(r.code).toBe(code);
    expect(r.events).toEqual([]);
    expect(e.stateHash()).toBe(h);
  };
  const amend = (userId: string, orderId: string, price: bigint, quantity: bigint) => ({ type: 'perpAmendOrder', userId, orderId, price, quantity });
  const frozen = (u: string) => e.balance(u, 'CONTRACT', 'USDT').frozen;
  ok({ type: 'perpMarkPrice', symbol: SYM, indexPrice: P });
  return { e, run, ok, refused, amend, frozen };
}

describe('perpAmendOrder', () => {
  it('modifies a resting order in place: same orderId, new terms, the hold of a new order of those terms', () => {
    const w = world();
    const a = w.ok(order('alice', 'BUY', 390_000n, 10n));
    const r = w.run(w.amend('alice', a.orderId, 389_000n, 20n));
    expect(r.code).toBe('ok');
    expect(r.perpOrder).toMatchObject({ orderId: a.orderId, price: 389_000n, quantity: 20n, status: 'NEW', filledQty: 0n });
    expect(r.events.filter((x) => x.type === 'perpOrderUpdated')).toHaveLength(2);
    expect(w.e.perpOpenOrders('alice').map((o) => [o.orderId, o.price, o.quantity])).toEqual([[a.orderId, 389_000n, 20n]]);
    expect(w.e.perpDepth(SYM, 5).bids).toEqual([{ price: 389_000n, quantity: 20n }]);
    w.ok(order('bob', 'BUY', 389_000n, 20n));
    expect(w.frozen('alice')).toBe(w.frozen('bob'));
    // the same terms again: nothing happens
    const h = w.e.stateHash();
    expect(w.run(w.amend('alice', a.orderId, 389_000n, 20n))).toMatchObject({ code: 'ok', events: [] });
    expect(w.e.stateHash()).toBe(h);
  });

  it('loses its time priority, matches at a crossing price and rests with the rest; a quantity at the filled part cancels it', () => {
    const w = world();
    const a = w.ok(order('alice', 'BUY', 390_000n, 20n));
    const b = w.ok(order('bob', 'BUY', 390_000n, 10n));
    // alice re-states her order: now behind bob at 390,000.0
    w.ok(w.amend('alice', a.orderId, 390_000n, 30n));
    w.ok(order('mm', 'SELL', 390_000n, 10n));
    expect(w.e.perpOrder(b.orderId)).toMatchObject({ status: 'FILLED' });
    expect(w.e.perpOrder(a.orderId)).toMatchObject({ status: 'NEW', filledQty: 0n });
    // an ask at 395,000.0, and alice's order amended up to it: a fill of 10 as taker, 20 rest at 395,000.0
    w.ok(order('mm', 'SELL', 395_000n, 10n));
    const r = w.ok(w.amend('alice', a.orderId, 395_000n, 30n));
    expect(r).toMatchObject({ orderId: a.orderId, status: 'PARTIALLY_FILLED', filledQty: 10n, price: 395_000n });
    expect(w.e.position('alice', SYM)).toMatchObject({ side: 'LONG', size: 10n });
    expect(w.e.perpDepth(SYM, 5).bids[0]).toEqual({ price: 395_000n, quantity: 20n });
    // a new quantity at the filled part ends it: cancelled, hold released
    const c = w.ok(w.amend('alice', a.orderId, 395_000n, 10n));
    expect(c).toMatchObject({ status: 'CANCELED', filledQty: 10n, hold: 0n });
    // what stays frozen is the position's margin only
    expect(w.frozen('alice')).toBe(w.e.position('alice', SYM)!.margin);
    expect(w.e.perpOpenOrders('alice')).toEqual([]);
  });

  it('cancels a post-only order whose new price would take', () => {
    const w = world();
    w.ok(order('mm', 'SELL', 395_000n, 10n));
    const a = w.ok(order('alice', 'BUY', 390_000n, 10n, { timeInForce: 'POST_ONLY' }));
    expect(w.ok(w.amend('alice', a.orderId, 395_000n, 10n))).toMatchObject({ orderId: a.orderId, status: 'CANCELED', filledQty: 0n });
    expect(w.e.position('alice', SYM)).toBeUndefined();
    expect(w.frozen('alice')).toBe(0n);
  });

  it('refuses bad amendments and changes nothing', () => {
    const w = world();
    const a = w.ok(order('alice', 'BUY', 390_000n, 10n));
    w.refused(w.amend('bob', a.orderId, 389_000n, 10n), 'order_not_found');
    w.refused(w.amend('alice', '999999', 389_000n, 10n), 'order_not_found');
    w.refused({ type: 'perpAmendOrder', userId: 'alice', orderId: a.orderId, quantity: 10n }, 'invalid_order');
    w.refused(w.amend('alice', a.orderId, 0n, 10n), 'price_not_on_tick');
    w.refused(w.amend('alice', a.orderId, 700_000n, 10n), 'price_out_of_band');
    w.refused(w.amend('alice', a.orderId, 389_000n, 0n), 'quantity_below_minimum');
    w.refused(w.amend('alice', a.orderId, 389_000n, 100_000n), 'leverage_too_high');
    w.refused(w.amend('alice', a.orderId, 389_000n, 5_200n), 'insufficient_balance');
    const m = w.ok(order('alice', 'SELL', null, 1n, { reduceOnly: false }));
    expect(m.status).not.toBe('NEW');
    w.refused(w.amend('alice', m.orderId, 389_000n, 10n), 'order_not_found');
    w.ok({ type: 'perpCancelOrder', userId: 'alice', orderId: a.orderId });
    w.refused(w.amend('alice', a.orderId, 389_000n, 10n), 'order_not_found');
  });

  it('takes at most 10,000 modifications per order, counted across a snapshot; the same terms are not counted', () => {
    const w = world();
    expect(MAX_AMENDS_PER_ORDER).toBe(10_000);
    const a = w.ok(order('alice', 'BUY', 390_000n, 10n));
    const b = w.ok(order('bob', 'BUY', 390_000n, 10n));
    // 9,999 changes alternating between two prices (straight through the engine: the ledger check per command is slow)
    let ts = T0 + 100_000;
    for (let i = 1; i < MAX_AMENDS_PER_ORDER; i++) {
      const r = w.e.execute({ ts: ts++, ...w.amend('alice', a.orderId, i % 2 === 1 ? 389_000n : 390_000n, 10n) } as unknown as Command);
      if (r.code !== 'ok') throw new Error(`amend ${i}: ${r.code}`);
    }
    // the current terms again: ok, nothing changes, not counted
    const current = w.e.perpOrder(a.orderId)!.price as bigint;
    expect(w.run(w.amend('alice', a.orderId, current, 10n))).toMatchObject({ code: 'ok', events: [] });
    // the 10,000th change is taken; it survives a snapshot and restore, where the 10,001st is refused
    w.ok(w.amend('alice', a.orderId, 388_000n, 10n));
    const e2 = Engine.restore(JSON.parse(JSON.stringify(w.e.snapshot())));
    expect(e2.stateHash()).toBe(w.e.stateHash());
    w.refused(w.amend('alice', a.orderId, 387_000n, 10n), 'amend_limit_reached');
    const h2 = e2.stateHash();
    expect(e2.execute({ ts: ts++, ...w.amend('alice', a.orderId, 387_000n, 10n) } as unknown as Command)).toMatchObject({
      code: 'amend_limit_reached',
      events: [],
    });
    expect(e2.stateHash()).toBe(h2);
    // the order still rests, cancellable; another order of the user's is not limited
    expect(w.e.perpOrder(a.orderId)).toMatchObject({ status: 'NEW', price: 388_000n });
    w.ok(w.amend('bob', b.orderId, 389_000n, 10n));
    w.ok({ type: 'perpCancelOrder', userId: 'alice', orderId: a.orderId });
  }, 60_000);
});
