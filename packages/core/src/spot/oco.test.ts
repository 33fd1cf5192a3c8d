/**
 * OCO order lists of the spot engine (docs/conditional-orders.md, OCO; Binance `POST /api/v3/orderList/oco`), with
 * exact balances to the smallest unit: placement of each allowed aboveType/belowType pair and the refusals (leg types,
 * price relations against each other and the last price, ticks, cap, balance, would_take_liquidity,
 * would_trigger_immediately); the one hold of a list (SELL the quantity, BUY the larger leg's need); a fill of either
 * leg, even partial, and a trigger cancelling the other leg in the same command; cancels of a leg or of the list;
 * idempotent retries; the adversary (spending a list's held funds elsewhere, filling both legs in one sweep); the
 * snapshot round trip and the JSON codec fallback. Units: BTC/USDT with price 0.01, qty 0.000001 BTC, assets scale 8
 * (test/fixtures.ts), so quote units = price * qty and base units = qty * 100.
 */
import { describe, expect, it } from 'vitest';
import { COIN, engineWithMarket, fund, limit, market, nextTs, ok, PX, QTY } from '../../test/fixtures';
import { decodeCommand, encodeCommand } from '../codec';
import { Engine } from '../engine';
import type { Command, CommandResult, EngineEvent, OcoLeg, OrderListView, OrderView, Side } from '../types';
import { MAX_OPEN_ORDERS_PER_MARKET } from './spot-market';

const bal = (e: Engine, user: string, asset: string): [bigint, bigint] => {
  const b = e.balance(user, 'SPOT', asset);
  return [b.available, b.frozen];
};

function oco(userId: string, side: Side, above: OcoLeg, below: OcoLeg, extra: { quantity?: bigint; listClientOrderId?: string } = {}): Command {
  return {
    type: 'placeOrderList',
    ts: nextTs(),
    userId,
    symbol: 'BTC/USDT',
    contingencyType: 'OCO',
    side,
    quantity: extra.quantity ?? QTY,
    above,
    below,
    ...(extra.listClientOrderId !== undefined ? { listClientOrderId: extra.listClientOrderId } : {}),
  };
}

/** One trade of 1 qty unit at `px` between the market makers mm (seller) and mt (buyer), as in conditional.test.ts. */
function tradeAt(e: Engine, px: bigint): EngineEvent[] {
  const a = ok(e, limit('mm', 'SELL', px, 1n));
  const b = ok(e, limit('mt', 'BUY', px, 1n));
  const evs = [...a.events, ...b.events];
  const first = evs.find((x) => x.type === 'trade');
  if (first?.type !== 'trade' || first.price !== px) throw new Error(`tradeAt: no trade at ${px}`);
  return evs;
}

function setup(): Engine {
  const e = engineWithMarket();
  for (const u of ['mm', 'mt', 'alice', 'bob']) {
    fund(e, u, 'BTC', 10n * COIN);
    fund(e, u, 'USDT', 1_000_000n * COIN);
  }
  tradeAt(e, 100n * PX);
  return e;
}

const sellTpSl = (): [OcoLeg, OcoLeg] => [
  { type: 'LIMIT_MAKER', price: 110n * PX },
  { type: 'STOP_LOSS_LIMIT', stopPrice: 90n * PX, price: 85n * PX },
];

const orderViews = (evs: EngineEvent[], orderId: string): OrderView[] =>
  evs.flatMap((x) => ((x.type === 'orderUpdated' || x.type === 'orderAccepted') && x.order.orderId === orderId ? [x.order] : []));
const listViews = (evs: EngineEvent[]): OrderListView[] => evs.flatMap((x) => (x.type === 'orderListUpdated' ? [x.orderList] : []));

/** Every user's frozen SPOT balance equals the sum of what its open orders hold (the engine's requiredHold). */
function checkHolds(e: Engine, users: string[]): void {
  for (const u of users) {
    const need = new Map<string, bigint>();
    for (const o of e.openOrders(u)) {
      const asset = o.side === 'BUY' ? 'USDT' : 'BTC';
      need.set(asset, (need.get(asset) ?? 0n) + (e.requiredHold(o.orderId) as bigint));
    }
    for (const a of ['BTC', 'USDT']) expect(e.balance(u, 'SPOT', a).frozen, `${u} ${a}`).toBe(need.get(a) ?? 0n);
  }
  for (const [asset, total] of e.assetTotals()) expect(total, asset).toBe(0n);
}

describe('placement', () => {
  it('a SELL OCO (LIMIT_MAKER above, STOP_LOSS_LIMIT below) rests one leg, pends the other, and holds the quantity once', () => {
    const e = setup();
    const r = ok(e, oco('alice', 'SELL', ...sellTpSl(), { listClientOrderId: 'L1' }));
    const [a, b] = r.listOrders as [OrderView, OrderView];
    expect(r.orderList).toMatchObject({ listClientOrderId: 'L1', contingencyType: 'OCO', listStatusType: 'EXEC_STARTED', listOrderStatus: 'EXECUTING' });
    expect(r.orderList?.aboveOrderId).toBe(a.orderId);
    expect(r.orderList?.belowOrderId).toBe(b.orderId);
    expect(a).toMatchObject({
      orderType: 'LIMIT',
      timeInForce: 'POST_ONLY',
      price: 11_000n,
      quantity: QTY,
      status: 'NEW',
      orderListId: r.orderList?.orderListId,
    });
    expect(a.trigger).toBeUndefined();
    expect(b).toMatchObject({ orderType: 'LIMIT', timeInForce: 'GTC', price: 8_500n, status: 'NEW', orderListId: r.orderList?.orderListId });
    expect(b.trigger).toMatchObject({ kind: 'STOP_LOSS', stopPrice: 9_000n, workingTs: null });
    // one hold of 1 BTC, not two
    expect(bal(e, 'alice', 'BTC')).toEqual([9n * COIN, COIN]);
    expect(e.depth('BTC/USDT', 5).asks).toEqual([{ price: 11_000n, quantity: QTY }]);
    expect(e.openOrderCount('alice', 'BTC/USDT')).toBe(2);
    expect(r.events.map((x) => x.type).slice(0, 4)).toEqual(['orderAccepted', 'orderAccepted', 'depthChanged', 'orderListUpdated']);
    // the list id is not an order id, and no order of the list has it
    expect(e.order(r.orderList?.orderListId as string)).toBeUndefined();
    checkHolds(e, ['alice']);
  });

  it('a BUY OCO holds the larger of its legs: stop-limit price x qty above the LIMIT_MAKER below; a MARKET stop at the last price', () => {
    const e = setup();
    // LIMIT_MAKER 90 x 1 BTC = 90 USDT; STOP_LOSS_LIMIT stop 110, price 112: 112 USDT -> 112 held
    ok(e, oco('alice', 'BUY', { type: 'STOP_LOSS_LIMIT', stopPrice: 110n * PX, price: 112n * PX }, { type: 'LIMIT_MAKER', price: 90n * PX }));
    expect(bal(e, 'alice', 'USDT')).toEqual([(1_000_000n - 112n) * COIN, 112n * COIN]);
    // LIMIT_MAKER 95 (95 USDT) and a STOP_LOSS MARKET at stop 105, held at the last price 100 -> 100 held
    ok(e, oco('bob', 'BUY', { type: 'STOP_LOSS', stopPrice: 105n * PX }, { type: 'LIMIT_MAKER', price: 95n * PX }));
    expect(bal(e, 'bob', 'USDT')).toEqual([(1_000_000n - 100n) * COIN, 100n * COIN]);
    // TAKE_PROFIT_LIMIT below (price 94) and STOP_LOSS_LIMIT above (price 108): both pending, 108 held once
    ok(
      e,
      oco(
        'mt',
        'BUY',
        { type: 'STOP_LOSS_LIMIT', stopPrice: 106n * PX, price: 108n * PX },
        { type: 'TAKE_PROFIT_LIMIT', stopPrice: 94n * PX, price: 94n * PX },
      ),
    );
    expect(e.balance('mt', 'SPOT', 'USDT').frozen).toBe(108n * COIN);
    checkHolds(e, ['alice', 'bob', 'mt']);
  });

  it('refuses what Binance refuses: leg types, price relations, ticks, the last price, balance, cap', () => {
    const e = setup();
    const code = (c: Command): string => e.execute(c).code;
    const [tp, sl] = sellTpSl();
    // leg types: a SELL's below leg must be a stop-loss; a BUY's above leg too
    expect(code(oco('alice', 'SELL', sl, tp))).toBe('invalid_order');
    expect(code(oco('alice', 'SELL', tp, { type: 'LIMIT_MAKER', price: 80n * PX }))).toBe('invalid_order');
    expect(code(oco('alice', 'BUY', { type: 'LIMIT_MAKER', price: 110n * PX }, { type: 'STOP_LOSS', stopPrice: 90n * PX }))).toBe('invalid_order');
    // fields of a leg's type
    expect(code(oco('alice', 'SELL', { type: 'LIMIT_MAKER', price: 110n * PX, stopPrice: 111n * PX }, sl))).toBe('invalid_order');
    expect(code(oco('alice', 'SELL', tp, { type: 'STOP_LOSS_LIMIT', stopPrice: 90n * PX }))).toBe('invalid_order');
    expect(code(oco('alice', 'SELL', tp, { type: 'STOP_LOSS', stopPrice: 90n * PX, timeInForce: 'GTC' }))).toBe('invalid_order');
    // equal leg client ids
    expect(code(oco('alice', 'SELL', { ...tp, clientOrderId: 'x' }, { ...sl, clientOrderId: 'x' }))).toBe('invalid_order');
    // SELL: limit price > last > stop price; the LIMIT_MAKER at or below the last price is refused
    expect(code(oco('alice', 'SELL', { type: 'LIMIT_MAKER', price: 100n * PX }, sl))).toBe('invalid_order');
    expect(code(oco('alice', 'SELL', { type: 'LIMIT_MAKER', price: 95n * PX }, sl))).toBe('invalid_order');
    // the stop at (or above) the last price would trigger at once
    expect(code(oco('alice', 'SELL', tp, { type: 'STOP_LOSS', stopPrice: 100n * PX }))).toBe('would_trigger_immediately');
    expect(code(oco('alice', 'SELL', { type: 'TAKE_PROFIT', stopPrice: 100n * PX }, { type: 'STOP_LOSS', stopPrice: 99n * PX }))).toBe(
      'would_trigger_immediately',
    );
    // BUY: limit price < last < stop price
    expect(code(oco('alice', 'BUY', { type: 'STOP_LOSS', stopPrice: 100n * PX }, { type: 'LIMIT_MAKER', price: 90n * PX }))).toBe('would_trigger_immediately');
    expect(code(oco('alice', 'BUY', { type: 'STOP_LOSS', stopPrice: 110n * PX }, { type: 'LIMIT_MAKER', price: 100n * PX }))).toBe('invalid_order');
    // above's price must be above below's, whatever the last price
    expect(code(oco('alice', 'SELL', { type: 'TAKE_PROFIT', stopPrice: 90n * PX }, { type: 'STOP_LOSS', stopPrice: 90n * PX }))).toBe('invalid_order');
    // ticks and steps
    const ticked = engineWithMarket({ tickSize: 10n, stepSize: 10n, minNotional: 50n * COIN });
    fund(ticked, 'alice', 'BTC', 10n * COIN);
    expect(ticked.execute(oco('alice', 'SELL', { type: 'LIMIT_MAKER', price: 11_005n }, sl)).code).toBe('price_not_on_tick');
    expect(ticked.execute(oco('alice', 'SELL', tp, { type: 'STOP_LOSS_LIMIT', stopPrice: 9_000n, price: 8_505n })).code).toBe('price_not_on_tick');
    expect(ticked.execute(oco('alice', 'SELL', tp, sl, { quantity: 15n })).code).toBe('quantity_not_on_step');
    // the stop-limit leg's 85 x 0.5 = 42.5 USDT is below the 50 minimum (the LIMIT_MAKER's 55 is not)
    expect(ticked.execute(oco('alice', 'SELL', tp, sl, { quantity: QTY / 2n })).code).toBe('notional_below_minimum');
    // balance: exactly the quantity is enough, one unit less is not
    fund(e, 'carol', 'BTC', COIN - 1n);
    expect(code(oco('carol', 'SELL', tp, sl))).toBe('insufficient_balance');
    fund(e, 'carol', 'BTC', 1n);
    ok(e, oco('carol', 'SELL', tp, sl));
    // the LIMIT_MAKER leg may not cross the book (an ask below the last price)
    ok(e, limit('bob', 'SELL', 99n * PX, QTY));
    expect(code(oco('alice', 'BUY', { type: 'STOP_LOSS', stopPrice: 110n * PX }, { type: 'LIMIT_MAKER', price: 99n * PX }))).toBe('would_take_liquidity');
    expect(e.openOrders('alice')).toEqual([]);
    expect(bal(e, 'alice', 'BTC')).toEqual([10n * COIN, 0n]);
  });

  it('counts both legs in the open-order cap', () => {
    const e = setup();
    for (let i = 0; i < MAX_OPEN_ORDERS_PER_MARKET - 1; i++) ok(e, limit('alice', 'BUY', 50n * PX, 1n));
    expect(e.execute(oco('alice', 'SELL', ...sellTpSl())).code).toBe('too_many_open_orders');
    ok(e, { type: 'cancelOrder', ts: nextTs(), userId: 'alice', orderId: e.openOrders('alice')[0]?.orderId as string });
    ok(e, oco('alice', 'SELL', ...sellTpSl()));
    expect(e.openOrderCount('alice', 'BTC/USDT')).toBe(MAX_OPEN_ORDERS_PER_MARKET);
    checkHolds(e, ['alice']);
  });
});

describe('one cancels the other', () => {
  it('a partial fill of the LIMIT_MAKER leg cancels the stop leg in the same command (list ALL_DONE)', () => {
    const e = setup();
    const r = ok(e, oco('alice', 'SELL', ...sellTpSl()));
    const [a, b] = r.listOrders as [OrderView, OrderView];
    const t = ok(e, limit('bob', 'BUY', 110n * PX, QTY / 4n));
    expect(orderViews(t.events, a.orderId).at(-1)).toMatchObject({ status: 'PARTIALLY_FILLED', filledQty: QTY / 4n });
    expect(orderViews(t.events, b.orderId)).toEqual([expect.objectContaining({ status: 'CANCELED', filledQty: 0n })]);
    expect(listViews(t.events)).toEqual([expect.objectContaining({ listStatusType: 'ALL_DONE', listOrderStatus: 'ALL_DONE', updatedTs: t.events[0]?.ts })]);
    // 0.25 BTC sold, 0.75 still held by the resting leg; the stop leg held nothing of its own
    expect(bal(e, 'alice', 'BTC')).toEqual([9n * COIN, (3n * COIN) / 4n]);
    expect(e.openOrders('alice').map((o) => o.orderId)).toEqual([a.orderId]);
    // the price falling through the stop afterwards triggers nothing
    const d = tradeAt(e, 80n * PX);
    expect(orderViews(d, b.orderId)).toEqual([]);
    checkHolds(e, ['alice', 'bob']);
    // cancelling the remaining leg now: the list was already ALL_DONE
    const c = ok(e, { type: 'cancelOrderList', ts: nextTs(), userId: 'alice', orderListId: r.orderList?.orderListId as string });
    expect(c.listOrders?.map((o) => o.status)).toEqual(['CANCELED', 'CANCELED']);
    expect(bal(e, 'alice', 'BTC')).toEqual([9n * COIN + (3n * COIN) / 4n, 0n]);
  });

  it('the stop leg triggering cancels the resting LIMIT_MAKER leg (out of the book) before it works', () => {
    const e = setup();
    const r = ok(e, oco('alice', 'SELL', ...sellTpSl()));
    const [a, b] = r.listOrders as [OrderView, OrderView];
    ok(e, limit('bob', 'BUY', 86n * PX, 2n * QTY));
    const evs = tradeAt(e, 90n * PX);
    expect(orderViews(evs, a.orderId)).toEqual([expect.objectContaining({ status: 'CANCELED', filledQty: 0n })]);
    expect(orderViews(evs, b.orderId).at(-1)).toMatchObject({ status: 'FILLED', filledQty: QTY });
    expect(listViews(evs)).toHaveLength(1);
    // the cancel comes before the stop leg's working update, and the ask at 110 is gone
    const iCancel = evs.findIndex((x) => x.type === 'orderUpdated' && x.order.orderId === a.orderId);
    const iWork = evs.findIndex((x) => x.type === 'orderUpdated' && x.order.orderId === b.orderId);
    expect(iCancel).toBeLessThan(iWork);
    expect(evs).toContainEqual(expect.objectContaining({ type: 'depthChanged', side: 'SELL', price: 11_000n, quantity: 0n }));
    expect(e.depth('BTC/USDT', 5).asks).toEqual([]);
    expect(bal(e, 'alice', 'BTC')).toEqual([9n * COIN, 0n]);
    checkHolds(e, ['alice', 'bob']);
  });

  it('a BUY OCO: the stop above triggering frees the whole hold for it; the other leg is cancelled', () => {
    const e = setup();
    const r = ok(e, oco('alice', 'BUY', { type: 'STOP_LOSS', stopPrice: 105n * PX }, { type: 'LIMIT_MAKER', price: 95n * PX }));
    const [a, b] = r.listOrders as [OrderView, OrderView];
    ok(e, limit('bob', 'SELL', 106n * PX, 2n * QTY));
    const evs = tradeAt(e, 105n * PX);
    expect(orderViews(evs, b.orderId)).toEqual([expect.objectContaining({ status: 'CANCELED' })]);
    expect(orderViews(evs, a.orderId).at(-1)).toMatchObject({ status: 'FILLED', filledQty: QTY, filledQuote: 106n * COIN });
    expect(bal(e, 'alice', 'USDT')).toEqual([(1_000_000n - 106n) * COIN, 0n]);
    checkHolds(e, ['alice', 'bob']);
  });

  it('cancelling either leg, or the list by id or client id, cancels both and releases the hold', () => {
    for (const how of ['above', 'below', 'listId', 'listClientId'] as const) {
      const e = setup();
      const r = ok(
        e,
        oco(
          'alice',
          'BUY',
          { type: 'STOP_LOSS_LIMIT', stopPrice: 110n * PX, price: 112n * PX },
          { type: 'LIMIT_MAKER', price: 90n * PX },
          { listClientOrderId: 'L' },
        ),
      );
      const [a, b] = r.listOrders as [OrderView, OrderView];
      const cmd: Command =
        how === 'above'
          ? { type: 'cancelOrder', ts: nextTs(), userId: 'alice', orderId: a.orderId }
          : how === 'below'
            ? { type: 'cancelOrder', ts: nextTs(), userId: 'alice', orderId: b.orderId }
            : how === 'listId'
              ? { type: 'cancelOrderList', ts: nextTs(), userId: 'alice', orderListId: r.orderList?.orderListId as string }
              : { type: 'cancelOrderList', ts: nextTs(), userId: 'alice', listClientOrderId: 'L' };
      expect(e.execute({ ...cmd, userId: 'bob' } as Command).code).toBe('order_not_found');
      const c = ok(e, cmd);
      expect(c.orderList).toMatchObject({ listStatusType: 'ALL_DONE', listOrderStatus: 'ALL_DONE' });
      expect(c.listOrders?.map((o) => o.status)).toEqual(['CANCELED', 'CANCELED']);
      expect(orderViews(c.events, a.orderId)).toHaveLength(1);
      expect(orderViews(c.events, b.orderId)).toHaveLength(1);
      expect(listViews(c.events)).toHaveLength(1);
      expect(bal(e, 'alice', 'USDT')).toEqual([1_000_000n * COIN, 0n]);
      expect(e.depth('BTC/USDT', 5).bids).toEqual([]);
      expect(e.openOrderCount('alice', 'BTC/USDT')).toBe(0);
      const again = e.execute({ type: 'cancelOrderList', ts: nextTs(), userId: 'alice', orderListId: r.orderList?.orderListId as string });
      expect(again.code).toBe('order_not_found');
      expect(again.events).toEqual([]);
    }
  });

  it('self-trade prevention expiring the LIMIT_MAKER leg ends the list (the stop leg cancelled)', () => {
    const e = setup();
    const r = ok(e, oco('alice', 'SELL', ...sellTpSl()));
    const [a, b] = r.listOrders as [OrderView, OrderView];
    const t = ok(e, limit('alice', 'BUY', 110n * PX, QTY, 'GTC', { stp: 'EXPIRE_MAKER' }));
    expect(orderViews(t.events, a.orderId).at(-1)?.status).toBe('EXPIRED');
    expect(orderViews(t.events, b.orderId).at(-1)?.status).toBe('CANCELED');
    expect(listViews(t.events)).toHaveLength(1);
    checkHolds(e, ['alice']);
  });
});

describe('idempotency', () => {
  it('a retry with the listClientOrderId, or with a leg client id, returns the first list; a leg id of a plain order is refused', () => {
    const e = setup();
    const [tp, sl] = sellTpSl();
    const first = ok(e, oco('alice', 'SELL', { ...tp, clientOrderId: 'up' }, { ...sl, clientOrderId: 'down' }, { listClientOrderId: 'L' }));
    const hash = e.stateHash();
    const again = ok(e, oco('alice', 'SELL', tp, sl, { listClientOrderId: 'L' }));
    expect(again).toMatchObject({ events: [], duplicate: true, orderList: first.orderList });
    const byLeg = ok(e, oco('alice', 'SELL', { ...tp, clientOrderId: 'up' }, sl));
    expect(byLeg.orderList?.orderListId).toBe(first.orderList?.orderListId);
    expect(e.stateHash()).toBe(hash);
    // another user's same list client id is a new list
    expect(ok(e, oco('bob', 'SELL', tp, sl, { listClientOrderId: 'L' })).orderList?.orderListId).not.toBe(first.orderList?.orderListId);
    ok(e, limit('alice', 'BUY', 50n * PX, 1n, 'GTC', { clientOrderId: 'plain' }));
    expect(e.execute(oco('alice', 'SELL', { ...tp, clientOrderId: 'plain' }, sl)).code).toBe('invalid_order');
    // a placeOrder retry with a leg's client id returns that leg
    const leg = ok(e, limit('alice', 'SELL', 120n * PX, QTY, 'GTC', { clientOrderId: 'up' }));
    expect(leg.duplicateOfOrderId).toBe(first.orderList?.aboveOrderId);
  });
});

describe('the adversary', () => {
  it("cannot spend a list's held funds with another order or a second list", () => {
    const e = engineWithMarket();
    fund(e, 'mm', 'BTC', 10n * COIN);
    fund(e, 'mt', 'USDT', 1_000_000n * COIN);
    tradeAt(e, 100n * PX);
    fund(e, 'eve', 'BTC', COIN);
    ok(e, oco('eve', 'SELL', ...sellTpSl()));
    expect(e.execute(limit('eve', 'SELL', 120n * PX, 1n)).code).toBe('insufficient_balance');
    expect(e.execute(market('eve', 'SELL', { quantity: 1n })).code).toBe('insufficient_balance');
    expect(e.execute(oco('eve', 'SELL', ...sellTpSl(), { quantity: 1n })).code).toBe('insufficient_balance');
    expect(e.execute({ type: 'transfer', ts: nextTs(), userId: 'eve', asset: 'BTC', from: 'SPOT', to: 'ASSETS', amount: 1n }).code).toBe(
      'insufficient_balance',
    );
  });

  it('cannot get both legs filled in one taker sweep: the take-profit trigger cancels the stop the cascade would reach', () => {
    const e = setup();
    fund(e, 'eve', 'BTC', COIN);
    // both legs pending: TAKE_PROFIT_LIMIT stop 110 (sells at 80 or better), STOP_LOSS_LIMIT stop 90 (at 80 or better)
    const r = ok(
      e,
      oco(
        'eve',
        'SELL',
        { type: 'TAKE_PROFIT_LIMIT', stopPrice: 110n * PX, price: 80n * PX },
        { type: 'STOP_LOSS_LIMIT', stopPrice: 90n * PX, price: 80n * PX },
      ),
    );
    const [a, b] = r.listOrders as [OrderView, OrderView];
    expect(bal(e, 'eve', 'BTC')).toEqual([0n, COIN]);
    // bids deep at 85: the triggered take-profit sells there, moving the last price below the stop-loss's 90
    ok(e, limit('bob', 'BUY', 85n * PX, 5n * QTY));
    ok(e, limit('mm', 'SELL', 111n * PX, QTY));
    const sweep = ok(e, limit('mt', 'BUY', 111n * PX, QTY));
    expect(e.lastPrice('BTC/USDT')).toBe(85n * PX);
    expect(orderViews(sweep.events, a.orderId).at(-1)).toMatchObject({ status: 'FILLED', filledQty: QTY });
    expect(orderViews(sweep.events, b.orderId)).toEqual([expect.objectContaining({ status: 'CANCELED', filledQty: 0n })]);
    expect(bal(e, 'eve', 'BTC')).toEqual([0n, 0n]);
    checkHolds(e, ['eve', 'bob', 'mm', 'mt']);
  });
});

describe('one trigger round', () => {
  it('a due stop leg is skipped when an order triggered before it in the same round filled its LIMIT_MAKER sibling', () => {
    const e = setup();
    const r = ok(e, oco('alice', 'SELL', { type: 'LIMIT_MAKER', price: 110n * PX }, { type: 'STOP_LOSS', stopPrice: 90n * PX }));
    const [a, b] = r.listOrders as [OrderView, OrderView];
    // bob's TAKE_PROFIT BUY (MARKET) at 92 is due with alice's stop at 89 and triggers first (farther from 89); it buys
    // alice's LIMIT_MAKER at 110, which cancels her stop leg though it is already in the round's due list.
    const bobTp = ok(e, {
      type: 'placeOrder',
      ts: nextTs(),
      userId: 'bob',
      symbol: 'BTC/USDT',
      side: 'BUY',
      orderType: 'MARKET',
      timeInForce: 'IOC',
      quantity: QTY,
      condition: 'TAKE_PROFIT',
      stopPrice: 92n * PX,
    });
    const evs = tradeAt(e, 89n * PX);
    expect(orderViews(evs, bobTp.order?.orderId as string).at(-1)).toMatchObject({ status: 'FILLED', filledQuote: 110n * COIN });
    expect(orderViews(evs, a.orderId).at(-1)).toMatchObject({ status: 'FILLED', filledQty: QTY });
    expect(orderViews(evs, b.orderId)).toEqual([
      expect.objectContaining({ status: 'CANCELED', filledQty: 0n, trigger: expect.objectContaining({ workingTs: null }) }),
    ]);
    expect(bal(e, 'alice', 'BTC')).toEqual([9n * COIN, 0n]);
    checkHolds(e, ['alice', 'bob']);
  });
});

describe('snapshot and codec', () => {
  it('restores executing and resolved lists exactly (byte-identical) and the restored engine replays to the same events and hash', () => {
    const e = setup();
    ok(e, oco('alice', 'SELL', ...sellTpSl(), { listClientOrderId: 'A' }));
    const bobList = ok(e, oco('bob', 'BUY', { type: 'STOP_LOSS', stopPrice: 108n * PX }, { type: 'LIMIT_MAKER', price: 95n * PX }));
    const resolved = ok(e, oco('mt', 'SELL', { type: 'LIMIT_MAKER', price: 105n * PX }, { type: 'STOP_LOSS', stopPrice: 80n * PX }));
    ok(e, limit('mm', 'BUY', 105n * PX, QTY / 2n)); // fills mt's maker leg partly: its list is ALL_DONE
    const snap = JSON.stringify(e.snapshot());
    const rows = e.snapshot().openOrders as unknown[][];
    expect(rows.map((x) => x.length)).toContain(22);
    const r = Engine.restore(JSON.parse(snap));
    expect(JSON.stringify(r.snapshot())).toBe(snap);
    expect(r.openOrders('mt')).toEqual(e.openOrders('mt'));
    const replay: Command[] = [
      limit('mm', 'SELL', 95n * PX, QTY), // fills bob's LIMIT_MAKER leg: his stop is cancelled
      limit('mm', 'SELL', 90n * PX, 1n),
      limit('mt', 'BUY', 90n * PX, 1n), // alice's stop triggers, her maker leg is cancelled
      { type: 'cancelOrderList', ts: nextTs(), userId: 'alice', listClientOrderId: 'A' },
      { type: 'cancelOrder', ts: nextTs(), userId: 'mt', orderId: resolved.listOrders?.[0]?.orderId as string },
      { type: 'cancelOrderList', ts: nextTs(), userId: 'bob', orderListId: bobList.orderList?.orderListId as string },
      oco('alice', 'SELL', ...sellTpSl(), { listClientOrderId: 'A' }),
    ];
    const codes: string[] = [];
    for (const c of replay) {
      const x = e.execute(c);
      codes.push(x.code);
      expect(r.execute(c)).toEqual(x);
    }
    expect(codes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'order_not_found', 'ok']);
    expect(r.stateHash()).toBe(e.stateHash());
  });

  it('a placeOrderList and a cancelOrderList survive the journal codec (JSON fallback)', () => {
    const c = oco(
      'alice',
      'BUY',
      { type: 'STOP_LOSS_LIMIT', stopPrice: 110n * PX, price: 112n * PX, timeInForce: 'IOC', clientOrderId: 'u' },
      { type: 'LIMIT_MAKER', price: 90n * PX },
      { listClientOrderId: 'L' },
    );
    expect(decodeCommand(encodeCommand(c))).toEqual(c);
    const d: Command = { type: 'cancelOrderList', ts: 5, userId: 'alice', orderListId: '7' };
    expect(decodeCommand(encodeCommand(d))).toEqual(d);
  });
});

export type { CommandResult };
