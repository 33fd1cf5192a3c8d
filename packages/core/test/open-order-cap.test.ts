// Proves the cap on open orders per user per market (Binance's MAX_NUM_ORDERS filter, 200 per
// symbol): with 199 resting orders a 200th is accepted; with 200 every further placement in that
// market is rejected `too_many_open_orders` whatever it would do (rest, take, expire), changing
// nothing, while other markets and other users are unaffected; a cancel, an expiry or a complete
// fill of a resting order frees a slot, a partial fill does not; and the count survives
// snapshot/restore (it is rebuilt from the re-added open orders). Each case runs on both books.
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine';
import { MAX_OPEN_ORDERS_PER_MARKET } from '../src/index';
import type { BookKind } from '../src/spot/book';
import type { Command } from '../src/types';
import { COIN, engineWithMarket, fund, limit, market, nextTs, ok, PX } from './fixtures';

const BOOKS: BookKind[] = ['fast', 'naive'];

/** The same placeOrder command for another market. */
function inMarket(cmd: Command, symbol: string): Command {
  return { ...(cmd as Extract<Command, { type: 'placeOrder' }>), symbol };
}

/** Engine with BTC/USDT and ETH/USDT; `maker` owns 1 BTC and 100,000 USDT, `taker` 100,000 USDT and 1 BTC. */
function setup(book: BookKind): Engine {
  const e = engineWithMarket({}, { book });
  ok(e, { type: 'addAsset', ts: nextTs(), asset: { code: 'ETH', scale: 8 } });
  ok(e, {
    type: 'addMarket',
    ts: nextTs(),
    market: {
      symbol: 'ETH/USDT',
      base: 'ETH',
      quote: 'USDT',
      priceDecimals: 2,
      qtyDecimals: 6,
      tickSize: 1n,
      stepSize: 1n,
      minQty: 1n,
      minNotional: 0n,
      makerFeePpm: 1000,
      takerFeePpm: 2000,
      status: 'TRADING',
    },
  });
  for (const u of ['maker', 'taker']) {
    fund(e, u, 'BTC', COIN);
    fund(e, u, 'USDT', 100_000n * COIN);
    fund(e, u, 'ETH', COIN);
  }
  return e;
}

/** `n` resting BUY orders of `user` at 1.00 .. n.00 USDT for 0.000001 BTC each (ids in placement order). */
function restBids(e: Engine, user: string, n: number): string[] {
  const ids: string[] = [];
  for (let i = 1; i <= n; i++) ids.push(ok(e, limit(user, 'BUY', BigInt(i) * PX, 1n)).order!.orderId);
  return ids;
}

describe.each(BOOKS)('open orders per user per market are capped at 200 (%s book)', (book) => {
  it('the constant is 200 and exported from the core', () => {
    expect(MAX_OPEN_ORDERS_PER_MARKET).toBe(200);
  });

  it('199 open: the 200th is accepted; 200 open: the 201st is rejected whatever it would do, changing nothing', () => {
    const e = setup(book);
    restBids(e, 'maker', 199);
    expect(e.openOrders('maker', 'BTC/USDT')).toHaveLength(199);
    const r200 = ok(e, limit('maker', 'BUY', 199n * PX, 2n));
    expect(r200.order).toMatchObject({ orderId: '200', status: 'NEW' });
    expect(e.openOrders('maker', 'BTC/USDT')).toHaveLength(200);
    ok(e, limit('taker', 'SELL', 30_000n * PX, 5n)); // something to take for the MARKET and crossing orders
    const h = e.stateHash();
    const attempts: Command[] = [
      limit('maker', 'BUY', 10n * PX, 1n), // would rest
      limit('maker', 'SELL', 40_000n * PX, 1n), // would rest on the other side
      limit('maker', 'BUY', 30_000n * PX, 1n), // would fill completely at once
      limit('maker', 'BUY', 30_000n * PX, 1n, 'IOC'),
      limit('maker', 'BUY', 30_000n * PX, 1n, 'FOK'),
      limit('maker', 'SELL', 50_000n * PX, 1n, 'POST_ONLY'),
      market('maker', 'BUY', { quantity: 1n }),
      market('maker', 'BUY', { quoteAmount: COIN }),
      market('maker', 'SELL', { quantity: 1n }),
      limit('maker', 'BUY', 1_000_000n * PX, 100n * COIN), // would also be insufficient_balance: the cap comes first
    ];
    for (const cmd of attempts) expect(e.execute(cmd)).toEqual({ code: 'too_many_open_orders', events: [] });
    expect(e.stateHash()).toBe(h);
    // checks that come earlier in REJECT_CODES still win
    expect(e.execute(limit('maker', 'BUY', 0n, 1n)).code).toBe('price_not_on_tick');
    expect(e.execute(limit('maker', 'BUY', PX, 0n)).code).toBe('quantity_below_minimum');
    expect(e.execute(inMarket(limit('maker', 'BUY', PX, 1n), 'NOPE')).code).toBe('market_not_found');
    // a retry of an accepted order is still answered (it creates nothing)
    expect(e.stateHash()).toBe(h);
  });

  it('the cap is per market and per user; a client id retry at the cap returns the first result', () => {
    const e = setup(book);
    ok(e, limit('maker', 'BUY', PX, 1n, 'GTC', { clientOrderId: 'first' }));
    restBids(e, 'maker', 199);
    expect(e.execute(limit('maker', 'BUY', PX, 1n)).code).toBe('too_many_open_orders');
    expect(e.execute(limit('maker', 'BUY', PX, 1n, 'GTC', { clientOrderId: 'first' }))).toMatchObject({ code: 'ok', events: [], duplicateOfOrderId: '1' });
    const eth = ok(e, inMarket(limit('maker', 'BUY', PX, 1n), 'ETH/USDT'));
    expect(eth.order).toMatchObject({ symbol: 'ETH/USDT', status: 'NEW' });
    expect(ok(e, limit('taker', 'BUY', PX, 1n)).order).toMatchObject({ status: 'NEW' });
    expect(e.openOrders('maker')).toHaveLength(201);
  });

  it('a cancel frees a slot; a partial fill does not; a complete fill and a self-trade expiry do (a user at the cap cannot even self-trade)', () => {
    const e = setup(book);
    const ids = restBids(e, 'maker', 200);
    expect(e.execute(limit('maker', 'BUY', PX, 1n)).code).toBe('too_many_open_orders');
    ok(e, { type: 'cancelOrder', ts: nextTs(), userId: 'maker', orderId: ids[0]! });
    const again = ok(e, limit('maker', 'BUY', 200n * PX, 3n)); // best bid now: 200.00 for 3 + 1
    expect(again.order).toMatchObject({ status: 'NEW' });
    expect(e.execute(limit('maker', 'BUY', PX, 1n)).code).toBe('too_many_open_orders');
    // the taker sells 2 of the 3 of the newest order (behind the older 1 at 200.00): both still open
    const part = ok(e, limit('taker', 'SELL', 200n * PX, 3n, 'IOC'));
    expect(part.events.filter((x) => x.type === 'trade').map((x) => x.type === 'trade' && [x.makerOrderId, x.quantity])).toEqual([
      [ids[199], 1n],
      [again.order!.orderId, 2n],
    ]);
    expect(e.openOrders('maker', 'BTC/USDT')).toHaveLength(199); // order ids[199] filled completely: its slot is free
    // with a free slot the maker may trade again: selling into its own bid with EXPIRE_MAKER expires that bid
    const own = ok(e, limit('maker', 'SELL', 200n * PX, 1n, 'IOC', { stp: 'EXPIRE_MAKER' }));
    expect(own.order).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
    expect(e.order(again.order!.orderId)).toMatchObject({ status: 'EXPIRED', filledQty: 2n });
    expect(e.openOrders('maker', 'BTC/USDT')).toHaveLength(198);
    ok(e, limit('maker', 'BUY', PX, 1n));
    ok(e, limit('maker', 'BUY', PX, 1n));
    expect(e.execute(limit('maker', 'BUY', PX, 1n)).code).toBe('too_many_open_orders');
  });

  it('snapshot/restore rebuilds the count: 200 restored orders still block, a cancel frees a slot', () => {
    const e = setup(book);
    const ids = restBids(e, 'maker', 150);
    for (let i = 0; i < 50; i++) ok(e, limit('maker', 'SELL', BigInt(40_000 + i) * PX, 1n)); // both sides count
    restBids(e, 'taker', 3);
    for (const to of BOOKS) {
      const r = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())), { book: to });
      expect(r.stateHash()).toBe(e.stateHash());
      expect(r.bookOf('BTC/USDT')!.userOrderCount('maker')).toBe(200);
      expect(r.bookOf('BTC/USDT')!.userOrderCount('taker')).toBe(3);
      expect(r.bookOf('ETH/USDT')!.userOrderCount('maker')).toBe(0);
      expect(r.execute(limit('maker', 'BUY', PX, 1n)).code).toBe('too_many_open_orders');
      ok(r, { type: 'cancelOrder', ts: nextTs(), userId: 'maker', orderId: ids[10]! });
      expect(ok(r, limit('maker', 'BUY', PX, 1n)).order).toMatchObject({ status: 'NEW' });
      expect(r.execute(limit('maker', 'BUY', PX, 1n)).code).toBe('too_many_open_orders');
    }
  });
});
