/**
 * The engine's OCO list reads (Engine.orderList, orderLists): by orderListId and by listClientOrderId for the owner
 * only (another user and an unknown id read undefined), with the legs above first; orderLists lists a user's retained
 * lists lowest id first, and with `executingOnly` drops a list once a cancel has ended it. Checked against the
 * placeOrderList / cancelOrderList results themselves.
 */
import { describe, expect, it } from 'vitest';
import { COIN, engineWithMarket, fund, limit, nextTs, ok, PX, QTY } from '../../test/fixtures';
import type { Command } from '../types';

const sellOco = (userId: string, listClientOrderId: string): Command => ({
  type: 'placeOrderList',
  ts: nextTs(),
  userId,
  symbol: 'BTC/USDT',
  contingencyType: 'OCO',
  side: 'SELL',
  quantity: QTY,
  above: { type: 'LIMIT_MAKER', price: 110n * PX },
  below: { type: 'STOP_LOSS', stopPrice: 90n * PX },
  listClientOrderId,
});

describe('engine OCO list reads', () => {
  it('reads a list by id or client id for its owner only, and the executing ones', () => {
    const e = engineWithMarket();
    for (const u of ['mm', 'mt', 'alice', 'bob']) {
      fund(e, u, 'BTC', 10n * COIN);
      fund(e, u, 'USDT', 1_000_000n * COIN);
    }
    ok(e, limit('mm', 'SELL', 100n * PX, 1n));
    ok(e, limit('mt', 'BUY', 100n * PX, 1n));
    const a = ok(e, sellOco('alice', 'l-a'));
    const b = ok(e, sellOco('alice', 'l-b'));
    const id = a.orderList!.orderListId;
    const read = e.orderList('alice', id);
    expect(read?.orderList).toEqual(a.orderList);
    expect(read?.listOrders.map((o) => o.orderId)).toEqual([a.orderList!.aboveOrderId, a.orderList!.belowOrderId]);
    expect(read?.listOrders.every((o) => o.orderListId === id)).toBe(true);
    expect(e.orderList('alice', undefined, 'l-b')?.orderList.orderListId).toBe(b.orderList!.orderListId);
    expect(e.orderList('bob', id)).toBeUndefined();
    expect(e.orderList('bob', undefined, 'l-a')).toBeUndefined();
    expect(e.orderList('alice', '999999')).toBeUndefined();
    expect(e.orderLists('alice', true).map((l) => l.orderList.orderListId)).toEqual([id, b.orderList!.orderListId]);
    expect(e.orderLists('bob', false)).toEqual([]);

    const c = ok(e, { type: 'cancelOrderList', ts: nextTs(), userId: 'alice', listClientOrderId: 'l-a' });
    expect(e.orderList('alice', id)?.orderList).toEqual(c.orderList);
    expect(e.orderList('alice', id)?.orderList.listOrderStatus).toBe('ALL_DONE');
    expect(e.orderLists('alice', true).map((l) => l.orderList.orderListId)).toEqual([b.orderList!.orderListId]);
    expect(e.orderLists('alice', false).map((l) => l.orderList.orderListId)).toEqual([id, b.orderList!.orderListId]);
  });
});
