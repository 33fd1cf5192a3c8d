/**
 * Conditional spot orders (docs/conditional-orders.md), with exact balances to the smallest unit: STOP_LOSS and
 * TAKE_PROFIT, LIMIT and MARKET, both sides, triggered by the last trade price on either side of and exactly at the
 * stop price, in the command that moved the price; their holds from placement and releases; expiry at the trigger
 * with a reason; cancel by id and client id; the open-order cap; the trigger order and the cascade bound; trailing
 * stops (Binance trailing stop FAQ scenarios A and E); and the snapshot round trip, byte for byte. Units: BTC/USDT with
 * price 0.01, qty 0.000001 BTC, assets scale 8 (test/fixtures.ts), so quote units = price * qty, base = qty * 100.
 */
import { describe, expect, it } from 'vitest';
import { COIN, engineWithMarket, fund, limit, nextTs, ok, PX, QTY } from '../../test/fixtures';
import { Engine, parseOrderId } from '../engine';
import type { Command, CommandResult, EngineEvent, OrderView, Side, StopKind } from '../types';
import { MAX_OPEN_ORDERS_PER_MARKET, MAX_TRIGGERS_PER_COMMAND } from './spot-market';

const bal = (e: Engine, user: string, asset: string): [bigint, bigint] => {
  const b = e.balance(user, 'SPOT', asset);
  return [b.available, b.frozen];
};

interface StopSpec {
  stopPrice?: bigint;
  trailingDelta?: number;
  price?: bigint;
  quantity?: bigint;
  quoteAmount?: bigint;
  clientOrderId?: string;
}

/** A conditional order: LIMIT when `price` is given (GTC), else MARKET. */
function stop(userId: string, side: Side, condition: StopKind, s: StopSpec): Command {
  const isLimit = s.price !== undefined;
  return {
    type: 'placeOrder',
    ts: nextTs(),
    userId,
    symbol: 'BTC/USDT',
    side,
    orderType: isLimit ? 'LIMIT' : 'MARKET',
    timeInForce: isLimit ? 'GTC' : 'IOC',
    condition,
    ...s,
  };
}

/**
 * Makes one trade of 1 qty unit at `px` between the market makers mm (seller) and mt (buyer), the first trade of the
 * two commands (conditional orders it triggers may trade after it); returns the two results' events.
 */
function tradeAt(e: Engine, px: bigint): EngineEvent[] {
  const a = ok(e, limit('mm', 'SELL', px, 1n));
  const b = ok(e, limit('mt', 'BUY', px, 1n));
  const evs = [...a.events, ...b.events];
  const first = evs.find((x) => x.type === 'trade');
  if (first?.type !== 'trade' || first.price !== px || first.takerUserId !== 'mt') throw new Error(`tradeAt: no trade at ${px}`);
  return evs;
}

function setup(): Engine {
  const e = engineWithMarket();
  for (const u of ['mm', 'mt', 'alice', 'bob', 'carol']) {
    fund(e, u, 'BTC', 10n * COIN);
    fund(e, u, 'USDT', 1_000_000n * COIN);
  }
  return e;
}

const updates = (evs: EngineEvent[], orderId: string): OrderView[] =>
  evs.flatMap((x) => ((x.type === 'orderUpdated' || x.type === 'orderAccepted') && x.order.orderId === orderId ? [x.order] : []));

describe('placement: pending, held, visible', () => {
  it('a STOP_LOSS SELL MARKET waits (NEW, not in the book), holds the base quantity, shows its trigger', () => {
    const e = setup();
    tradeAt(e, 100n * PX);
    const r = ok(e, stop('alice', 'SELL', 'STOP_LOSS', { stopPrice: 95n * PX, quantity: QTY }));
    expect(r.order).toMatchObject({ status: 'NEW', orderType: 'MARKET', price: null, quantity: QTY });
    expect(r.order?.trigger).toEqual({ kind: 'STOP_LOSS', stopPrice: 9_500n, trailingDelta: null, trailingRef: null, workingTs: null, expireReason: null });
    expect(bal(e, 'alice', 'BTC')).toEqual([9n * COIN, COIN]);
    expect(e.depth('BTC/USDT', 5).asks).toEqual([]);
    expect(e.openOrders('alice').map((o) => o.orderId)).toEqual([r.order?.orderId]);
    expect(e.openOrderCount('alice', 'BTC/USDT')).toBe(1);
    expect(e.requiredHold(r.order?.orderId as string)).toBe(COIN);
  });

  it('holds price x quantity for a BUY LIMIT kind, the quote amount for a MARKET BUY by quote, quantity x last price for a MARKET BUY by quantity', () => {
    const e = setup();
    tradeAt(e, 100n * PX);
    ok(e, stop('alice', 'BUY', 'STOP_LOSS', { stopPrice: 110n * PX, price: 111n * PX, quantity: 2n * QTY }));
    expect(bal(e, 'alice', 'USDT')).toEqual([(1_000_000n - 222n) * COIN, 222n * COIN]);
    ok(e, stop('bob', 'BUY', 'TAKE_PROFIT', { stopPrice: 90n * PX, quoteAmount: 50n * COIN }));
    expect(bal(e, 'bob', 'USDT')).toEqual([(1_000_000n - 50n) * COIN, 50n * COIN]);
    ok(e, stop('carol', 'BUY', 'STOP_LOSS', { stopPrice: 120n * PX, quantity: 3n * QTY }));
    expect(bal(e, 'carol', 'USDT')).toEqual([(1_000_000n - 300n) * COIN, 300n * COIN]); // 3 x last 100
  });

  it('refuses a stop the last price already meets (would_trigger_immediately), at equality too, on all four kinds', () => {
    const e = setup();
    tradeAt(e, 100n * PX);
    const cases: [Side, StopKind, bigint][] = [
      ['SELL', 'STOP_LOSS', 100n * PX],
      ['SELL', 'STOP_LOSS', 101n * PX],
      ['BUY', 'STOP_LOSS', 100n * PX],
      ['BUY', 'STOP_LOSS', 99n * PX],
      ['SELL', 'TAKE_PROFIT', 100n * PX],
      ['SELL', 'TAKE_PROFIT', 99n * PX],
      ['BUY', 'TAKE_PROFIT', 100n * PX],
      ['BUY', 'TAKE_PROFIT', 101n * PX],
    ];
    for (const [side, kind, sp] of cases) expect(e.execute(stop('alice', side, kind, { stopPrice: sp, quantity: QTY })).code).toBe('would_trigger_immediately');
    expect(bal(e, 'alice', 'BTC')).toEqual([10n * COIN, 0n]);
  });

  it('refuses malformed conditional orders (invalid_order) and a stop price off the tick', () => {
    const e = engineWithMarket({ tickSize: 5n });
    fund(e, 'alice', 'BTC', COIN);
    const base = { type: 'placeOrder', ts: nextTs(), userId: 'alice', symbol: 'BTC/USDT', side: 'SELL', quantity: QTY } as const;
    expect(e.execute({ ...base, orderType: 'MARKET', timeInForce: 'IOC', condition: 'STOP_LOSS' }).code).toBe('invalid_order');
    expect(e.execute({ ...base, orderType: 'MARKET', timeInForce: 'IOC', stopPrice: 100n }).code).toBe('invalid_order');
    expect(e.execute({ ...base, orderType: 'LIMIT', timeInForce: 'POST_ONLY', price: 100n, condition: 'STOP_LOSS', stopPrice: 95n }).code).toBe(
      'invalid_order',
    );
    expect(e.execute({ ...base, orderType: 'MARKET', timeInForce: 'IOC', condition: 'STOP_LOSS', trailingDelta: 5 }).code).toBe('invalid_order');
    expect(e.execute({ ...base, orderType: 'MARKET', timeInForce: 'IOC', condition: 'STOP_LOSS', trailingDelta: 2001 }).code).toBe('invalid_order');
    expect(e.execute({ ...base, orderType: 'MARKET', timeInForce: 'IOC', condition: 'STOP_LOSS', stopPrice: 97n }).code).toBe('price_not_on_tick');
    expect(e.execute({ ...base, quantity: 2n * QTY, orderType: 'MARKET', timeInForce: 'IOC', condition: 'STOP_LOSS', stopPrice: 95n }).code).toBe(
      'insufficient_balance',
    );
    expect(bal(e, 'alice', 'BTC')).toEqual([COIN, 0n]);
  });
});

describe('trigger by the last trade price', () => {
  it('STOP_LOSS SELL: not at 95.01, at 95.00 exactly it triggers in that command and sells into the bid', () => {
    const e = setup();
    tradeAt(e, 100n * PX);
    ok(e, limit('bob', 'BUY', 94n * PX, 2n * QTY));
    const id = ok(e, stop('alice', 'SELL', 'STOP_LOSS', { stopPrice: 95n * PX, quantity: QTY })).order?.orderId as string;
    expect(updates(tradeAt(e, 9_501n), id)).toEqual([]);
    const evs = tradeAt(e, 95n * PX);
    const seen = updates(evs, id);
    expect(seen.map((v) => [v.status, v.trigger?.workingTs !== null])).toEqual([
      ['NEW', true],
      ['FILLED', true],
    ]);
    const t = evs.filter((x) => x.type === 'trade').at(-1);
    expect(t).toMatchObject({ takerOrderId: id, price: 94n * PX, quantity: QTY, takerUserId: 'alice', makerUserId: 'bob' });
    // 94 USDT less the 0.2% taker fee; the BTC hold went to the buyer.
    expect(bal(e, 'alice', 'BTC')).toEqual([9n * COIN, 0n]);
    expect(bal(e, 'alice', 'USDT')).toEqual([1_000_000n * COIN + 94n * COIN - 18_800_000n, 0n]);
    expect(e.lastPrice('BTC/USDT')).toBe(94n * PX);
    expect(e.openOrders('alice')).toEqual([]);
  });

  it('STOP_LOSS BUY LIMIT: not at 104.99, at 105.00 it becomes a working LIMIT GTC that rests with its hold', () => {
    const e = setup();
    tradeAt(e, 100n * PX);
    const id = ok(e, stop('alice', 'BUY', 'STOP_LOSS', { stopPrice: 105n * PX, price: 103n * PX, quantity: QTY })).order?.orderId as string;
    expect(e.depth('BTC/USDT', 5).bids).toEqual([]);
    expect(updates(tradeAt(e, 10_499n), id)).toEqual([]);
    expect(e.order(id)?.trigger?.workingTs).toBeNull();
    tradeAt(e, 105n * PX);
    const v = e.order(id) as OrderView;
    expect(v.status).toBe('NEW');
    expect(v.trigger?.workingTs).not.toBeNull();
    expect(e.depth('BTC/USDT', 5).bids).toEqual([{ price: 103n * PX, quantity: QTY }]);
    expect(bal(e, 'alice', 'USDT')).toEqual([(1_000_000n - 103n) * COIN, 103n * COIN]);
    expect(e.openOrderCount('alice', 'BTC/USDT')).toBe(1);
    expect(e.openOrders('alice').map((o) => o.orderId)).toEqual([id]);
  });

  it('TAKE_PROFIT SELL LIMIT triggers at last >= stop (not at 109.99, at 110.00) and rests as its LIMIT', () => {
    const e = setup();
    tradeAt(e, 100n * PX);
    const tp = ok(e, stop('alice', 'SELL', 'TAKE_PROFIT', { stopPrice: 110n * PX, price: 120n * PX, quantity: QTY })).order?.orderId as string;
    tradeAt(e, 10_999n);
    expect(e.order(tp)?.trigger?.workingTs).toBeNull();
    tradeAt(e, 110n * PX);
    expect(e.order(tp)?.trigger?.workingTs).not.toBeNull();
    expect(e.depth('BTC/USDT', 5).asks).toEqual([{ price: 120n * PX, quantity: QTY }]);
    expect(bal(e, 'alice', 'BTC')).toEqual([9n * COIN, COIN]);
  });

  it('TAKE_PROFIT BUY MARKET by quote triggers at last <= stop (not at 90.01) and spends at most its quote amount', () => {
    const e = setup();
    tradeAt(e, 100n * PX);
    const tb = ok(e, stop('bob', 'BUY', 'TAKE_PROFIT', { stopPrice: 90n * PX, quoteAmount: 45n * COIN })).order?.orderId as string;
    tradeAt(e, 9_001n);
    expect(e.order(tb)?.trigger?.workingTs).toBeNull();
    ok(e, limit('carol', 'SELL', 89n * PX, QTY));
    ok(e, limit('mt', 'BUY', 90n * PX, 1n)); // takes 1 unit of carol's ask: last 89.00 <= 90.00
    const v = e.order(tb) as OrderView;
    // fills what 45 USDT buys at 89.00 in whole qty units; the 8,700 units left buy no step
    expect(v).toMatchObject({ status: 'FILLED', filledQty: 505_617n, filledQuote: 8_900n * 505_617n });
    expect(bal(e, 'bob', 'USDT')).toEqual([1_000_000n * COIN - 8_900n * 505_617n, 0n]);
  });

  it('a MARKET BUY by quantity at its trigger may use its hold plus available; beyond both it EXPIRES insufficient_balance', () => {
    const e = setup();
    fund(e, 'dave', 'USDT', 150n * COIN);
    tradeAt(e, 100n * PX);
    const id = ok(e, stop('dave', 'BUY', 'STOP_LOSS', { stopPrice: 105n * PX, quantity: QTY })).order?.orderId as string;
    expect(bal(e, 'dave', 'USDT')).toEqual([50n * COIN, 100n * COIN]);
    ok(e, limit('carol', 'SELL', 200n * PX, QTY)); // the only ask left after the trigger costs 200 > 150
    const evs = tradeAt(e, 105n * PX);
    const last = updates(evs, id).at(-1) as OrderView;
    expect(last.status).toBe('EXPIRED');
    expect(last.trigger?.expireReason).toBe('insufficient_balance');
    expect(last.filledQty).toBe(0n);
    expect(bal(e, 'dave', 'USDT')).toEqual([150n * COIN, 0n]);

    // With 250 USDT it fills at 200 though it held only 100 (hold + available).
    fund(e, 'erin', 'USDT', 250n * COIN);
    const id2 = ok(e, stop('erin', 'BUY', 'STOP_LOSS', { stopPrice: 106n * PX, quantity: QTY })).order?.orderId as string;
    expect(bal(e, 'erin', 'USDT')).toEqual([145n * COIN, 105n * COIN]); // 1 x last 105
    tradeAt(e, 106n * PX);
    expect(e.order(id2)).toMatchObject({ status: 'FILLED', filledQty: QTY, filledQuote: 200n * COIN });
    expect(bal(e, 'erin', 'USDT')).toEqual([50n * COIN, 0n]);
  });

  it('a triggered MARKET with no liquidity EXPIRES no_liquidity and releases its hold', () => {
    const e = setup();
    tradeAt(e, 100n * PX);
    const id = ok(e, stop('alice', 'SELL', 'STOP_LOSS', { stopPrice: 95n * PX, quantity: QTY })).order?.orderId as string;
    tradeAt(e, 95n * PX); // leaves no bid
    expect(e.order(id)).toMatchObject({ status: 'EXPIRED', filledQty: 0n, trigger: { expireReason: 'no_liquidity' } });
    expect(bal(e, 'alice', 'BTC')).toEqual([10n * COIN, 0n]);
    expect(e.openOrders('alice')).toEqual([]);
    expect(e.openOrderCount('alice', 'BTC/USDT')).toBe(0);
  });

  it('self-trade prevention applies to a triggered order: EXPIRE_TAKER against its owner’s own bid', () => {
    const e = setup();
    tradeAt(e, 100n * PX);
    ok(e, limit('alice', 'BUY', 94n * PX, QTY));
    const id = ok(e, stop('alice', 'SELL', 'STOP_LOSS', { stopPrice: 95n * PX, quantity: QTY })).order?.orderId as string;
    expect(e.order(id)).toMatchObject({ status: 'NEW', trigger: { workingTs: null } });
    tradeAt(e, 95n * PX);
    expect(e.order(id)).toMatchObject({ status: 'EXPIRED', filledQty: 0n, trigger: { expireReason: null } });
    expect(bal(e, 'alice', 'BTC')).toEqual([10n * COIN, 0n]);
    expect(bal(e, 'alice', 'USDT')).toEqual([(1_000_000n - 94n) * COIN, 94n * COIN]);
  });
});

describe('cancel and cap', () => {
  it('the owner cancels a pending order by orderId or clientOrderId: CANCELED, hold released, never triggers', () => {
    const e = setup();
    tradeAt(e, 100n * PX);
    ok(e, limit('bob', 'BUY', 90n * PX, 5n * QTY));
    const a = ok(e, stop('alice', 'SELL', 'STOP_LOSS', { stopPrice: 95n * PX, quantity: QTY })).order?.orderId as string;
    ok(e, stop('alice', 'SELL', 'STOP_LOSS', { stopPrice: 96n * PX, quantity: 2n * QTY, clientOrderId: 'sl-2' }));
    expect(bal(e, 'alice', 'BTC')).toEqual([7n * COIN, 3n * COIN]);
    expect(e.execute({ type: 'cancelOrder', ts: nextTs(), userId: 'bob', orderId: a }).code).toBe('order_not_found');
    const c1 = ok(e, { type: 'cancelOrder', ts: nextTs(), userId: 'alice', orderId: a });
    expect(c1.order).toMatchObject({ orderId: a, status: 'CANCELED', trigger: { workingTs: null } });
    expect(c1.events.map((x) => x.type)).toEqual(['orderUpdated', 'balanceChanged']);
    const c2 = ok(e, { type: 'cancelOrder', ts: nextTs(), userId: 'alice', clientOrderId: 'sl-2' });
    expect(c2.order?.status).toBe('CANCELED');
    expect(bal(e, 'alice', 'BTC')).toEqual([10n * COIN, 0n]);
    expect(e.openOrders('alice')).toEqual([]);
    expect(e.openOrderCount('alice', 'BTC/USDT')).toBe(0);
    const evs = tradeAt(e, 91n * PX);
    expect(evs.filter((x) => x.type === 'trade').length).toBe(1);
    expect(bal(e, 'alice', 'BTC')).toEqual([10n * COIN, 0n]);
  });

  it('pending orders count in the open-order cap, and a triggered one that rests keeps its place', () => {
    const e = setup();
    fund(e, 'alice', 'BTC', 1_000n * COIN);
    tradeAt(e, 100n * PX);
    for (let i = 0; i < MAX_OPEN_ORDERS_PER_MARKET - 1; i++) ok(e, stop('alice', 'SELL', 'STOP_LOSS', { stopPrice: 90n * PX, quantity: 1n }));
    ok(e, limit('alice', 'SELL', 200n * PX, 1n));
    expect(e.openOrderCount('alice', 'BTC/USDT')).toBe(MAX_OPEN_ORDERS_PER_MARKET);
    expect(e.execute(stop('alice', 'SELL', 'STOP_LOSS', { stopPrice: 90n * PX, quantity: 1n })).code).toBe('too_many_open_orders');
    expect(e.execute(limit('alice', 'SELL', 200n * PX, 1n)).code).toBe('too_many_open_orders');
  });
});

describe('the trigger order and the cascade', () => {
  it('orders due together trigger farthest stop first, then by order id; a triggered order’s trades trigger more (a cascade)', () => {
    const e = setup();
    tradeAt(e, 100n * PX);
    ok(e, limit('bob', 'BUY', 96n * PX, QTY));
    ok(e, limit('bob', 'BUY', 90n * PX, 10n * QTY));
    const near = ok(e, stop('alice', 'SELL', 'STOP_LOSS', { stopPrice: 97n * PX, quantity: QTY })).order?.orderId as string;
    const far = ok(e, stop('carol', 'SELL', 'STOP_LOSS', { stopPrice: 99n * PX, quantity: QTY })).order?.orderId as string;
    const far2 = ok(e, stop('alice', 'SELL', 'STOP_LOSS', { stopPrice: 99n * PX, quantity: QTY })).order?.orderId as string;
    const deep = ok(e, stop('carol', 'SELL', 'STOP_LOSS', { stopPrice: 91n * PX, quantity: QTY })).order?.orderId as string;
    // One trade at 97.00: the three stops at 99, 99 and 97 are due; 99s first (farther from 97), by id; then 97.
    const evs = tradeAt(e, 97n * PX);
    const takers = evs.flatMap((x) => (x.type === 'trade' ? [[x.takerOrderId, x.price]] : []));
    expect(takers).toEqual([
      [expect.any(String), 97n * PX], // the mm/mt trade
      [far, 96n * PX], // takes bob's 96 bid: last 96
      [far2, 90n * PX],
      [near, 90n * PX], // last 90 <= 91: the deep stop is due in the same command (a cascade)
      [deep, 90n * PX],
    ]);
    for (const id of [near, far, far2, deep]) expect(e.order(id)?.status).toBe('FILLED');
  });

  it(`at most ${MAX_TRIGGERS_PER_COMMAND} orders trigger per command; the rest trigger at the next accepted placeOrder`, () => {
    const e = setup();
    tradeAt(e, 100n * PX);
    const users = ['u1', 'u2', 'u3'];
    for (const u of users) fund(e, u, 'BTC', COIN);
    const ids: string[] = [];
    for (let i = 0; i < MAX_TRIGGERS_PER_COMMAND + 5; i++) {
      // STOP_LOSS_LIMIT SELL far above the market: each rests as an ask once triggered (no trade, so no cascade).
      ids.push(
        ok(e, stop(users[i % 3] as string, 'SELL', 'STOP_LOSS', { stopPrice: 95n * PX, price: 500n * PX + BigInt(i), quantity: 1n })).order?.orderId as string,
      );
    }
    tradeAt(e, 95n * PX);
    const working = ids.filter((id) => e.order(id)?.trigger?.workingTs !== null);
    expect(working.length).toBe(MAX_TRIGGERS_PER_COMMAND);
    expect(working).toEqual(ids.slice(0, MAX_TRIGGERS_PER_COMMAND)); // equal stops: by order id
    // Any accepted placement in the market runs the check again: the 5 left trigger (same price: no new trade needed).
    ok(e, limit('bob', 'BUY', 10n * PX, 1n));
    expect(ids.every((id) => e.order(id)?.trigger?.workingTs !== null)).toBe(true);
    expect(e.depth('BTC/USDT', 1000).asks.length).toBe(MAX_TRIGGERS_PER_COMMAND + 5);
  });
});

describe('trailing stops (Binance trailing stop FAQ)', () => {
  it('scenario E: STOP_LOSS_LIMIT SELL, trailingDelta 700, no stop price: tracks the highest, triggers at 45,500 x 0.93 = 42,315', () => {
    const e = setup();
    tradeAt(e, 40_000n * PX);
    const id = ok(e, stop('alice', 'SELL', 'STOP_LOSS', { trailingDelta: 700, price: 39_000n * PX, quantity: 1n })).order?.orderId as string;
    expect(e.order(id)?.trigger).toMatchObject({ stopPrice: null, trailingDelta: 700, trailingRef: 40_000n * PX, workingTs: null });
    tradeAt(e, 42_000n * PX);
    expect(e.order(id)?.trigger?.trailingRef).toBe(42_000n * PX);
    tradeAt(e, 39_500n * PX); // ~595 BIPS down: not enough
    expect(e.order(id)?.trigger?.workingTs).toBeNull();
    tradeAt(e, 45_500n * PX);
    tradeAt(e, 4_231_501n); // 42,315.01: one tick short
    expect(e.order(id)?.trigger).toMatchObject({ trailingRef: 45_500n * PX, workingTs: null });
    tradeAt(e, 42_315n * PX);
    expect(e.order(id)?.trigger?.workingTs).not.toBeNull();
    // no bid is left, so the working LIMIT SELL rests at its limit
    expect(e.depth('BTC/USDT', 5).asks).toEqual([{ price: 39_000n * PX, quantity: 1n }]);
  });

  it('scenario A: STOP_LOSS_LIMIT BUY, stop 44,000, trailingDelta 500: ignores moves before the stop, then triggers at 42,000 x 1.05', () => {
    const e = setup();
    tradeAt(e, 40_000n * PX);
    const id = ok(e, stop('alice', 'BUY', 'STOP_LOSS', { stopPrice: 44_000n * PX, trailingDelta: 500, price: 45_000n * PX, quantity: 1n })).order
      ?.orderId as string;
    tradeAt(e, 37_000n * PX); // 750 BIPS down, but not tracking yet
    expect(e.order(id)?.trigger).toMatchObject({ trailingRef: null, workingTs: null });
    tradeAt(e, 44_000n * PX); // the stop condition: tracking starts, lowest = 44,000
    expect(e.order(id)?.trigger).toMatchObject({ trailingRef: 44_000n * PX, workingTs: null });
    tradeAt(e, 46_000n * PX); // ~454 BIPS up: not enough
    tradeAt(e, 42_000n * PX);
    expect(e.order(id)?.trigger).toMatchObject({ trailingRef: 42_000n * PX, workingTs: null });
    tradeAt(e, 4_409_999n); // 44,099.99
    expect(e.order(id)?.trigger?.workingTs).toBeNull();
    tradeAt(e, 44_100n * PX);
    expect(e.order(id)?.trigger?.workingTs).not.toBeNull();
  });
});

describe('snapshot', () => {
  it('restores pending, tracking and triggered conditional orders exactly (byte-identical) and replays to the same hash', () => {
    const e = setup();
    tradeAt(e, 100n * PX);
    ok(e, limit('bob', 'BUY', 90n * PX, 5n * QTY));
    ok(e, stop('alice', 'SELL', 'STOP_LOSS', { stopPrice: 95n * PX, quantity: QTY, clientOrderId: 'a' }));
    ok(e, stop('alice', 'SELL', 'STOP_LOSS', { trailingDelta: 300, price: 80n * PX, quantity: QTY }));
    ok(e, stop('carol', 'BUY', 'TAKE_PROFIT', { stopPrice: 92n * PX, quoteAmount: 10n * COIN }));
    ok(e, stop('carol', 'BUY', 'STOP_LOSS', { stopPrice: 120n * PX, quantity: QTY }));
    ok(e, stop('bob', 'SELL', 'TAKE_PROFIT', { stopPrice: 130n * PX, trailingDelta: 100, quantity: QTY }));
    tradeAt(e, 102n * PX);
    const snap = JSON.stringify(e.snapshot());
    const r = Engine.restore(JSON.parse(snap));
    expect(JSON.stringify(r.snapshot())).toBe(snap);
    expect(r.openOrders('alice')).toEqual(e.openOrders('alice'));
    const cmds: Command[] = [];
    const more = (): void => {
      for (const px of [96n, 95n, 121n, 131n, 125n, 90n]) {
        cmds.push(limit('mm', 'SELL', px * PX, 1n), limit('mt', 'BUY', px * PX, 1n));
      }
      cmds.push({ type: 'cancelOrder', ts: nextTs(), userId: 'alice', clientOrderId: 'a' });
    };
    more();
    const res = (x: Engine): CommandResult[] => cmds.map((c) => x.execute(c));
    const ra = res(e);
    const rb = res(r);
    expect(rb).toEqual(ra);
    expect(r.stateHash()).toBe(e.stateHash());
    expect(ra.some((x) => x.events.some((ev) => ev.type === 'orderUpdated' && ev.order.trigger?.workingTs !== null))).toBe(true);
  });

  it('an order row without a condition keeps its 20 fields (snapshots of states without conditional orders are unchanged)', () => {
    const e = setup();
    ok(e, limit('bob', 'BUY', 90n * PX, QTY));
    const rows = e.snapshot().openOrders as unknown[][];
    expect(rows.map((row) => row.length)).toEqual([20]);
    ok(e, stop('bob', 'BUY', 'STOP_LOSS', { stopPrice: 95n * PX, price: 96n * PX, quantity: QTY }));
    expect((e.snapshot().openOrders as unknown[][]).map((row) => row.length)).toEqual([20, 21]);
  });
});

describe('book priority of a triggered order', () => {
  it('queues from its trigger (behind an order with a higher id that rested before), also after a snapshot restore', () => {
    const e = setup();
    tradeAt(e, 100n * PX);
    const a = ok(e, stop('alice', 'BUY', 'STOP_LOSS', { stopPrice: 105n * PX, price: 90n * PX, quantity: QTY })).order?.orderId as string;
    const b = ok(e, limit('bob', 'BUY', 90n * PX, QTY)).order?.orderId as string;
    expect(parseOrderId(a) < parseOrderId(b)).toBe(true);
    tradeAt(e, 105n * PX);
    const ids = (x: Engine): string[] => (x.bookOf('BTC/USDT')?.levels('BUY')[0]?.orders ?? []).map((o) => o.orderId);
    expect(ids(e)).toEqual([b, a]);
    const r = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())));
    expect(ids(r)).toEqual([b, a]);
    const sell = limit('carol', 'SELL', 90n * PX, QTY);
    for (const x of [e, r]) {
      const fill = ok(x, sell).events.find((ev) => ev.type === 'trade');
      expect(fill).toMatchObject({ makerOrderId: b });
    }
    expect(r.stateHash()).toBe(e.stateHash());
  });
});
