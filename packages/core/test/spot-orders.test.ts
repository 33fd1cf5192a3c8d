// Proves each order type and rule of the spot engine with exact balances to the smallest unit:
// holds, fills at the maker's price, fees rounded up in the asset received, IOC/FOK/POST_ONLY,
// MARKET by quantity and by quote amount, self-trade prevention, cancel, and that a rejected
// command changes nothing. Units: BTC/USDT with price 0.01, qty 0.000001 BTC, assets scale 8
// (see fixtures.ts), so quote units = price * qty and base units = qty * 100.
import { describe, expect, it } from 'vitest';
import type { Engine } from '../src/engine';
import type { Command, EngineEvent } from '../src/types';
import { COIN, engineWithMarket, fund, limit, market, nextTs, ok, PX, QTY } from './fixtures';

const bal = (e: Engine, user: string, asset: string): [bigint, bigint] => {
  const b = e.balance(user, user.startsWith('@') ? 'SYSTEM' : 'SPOT', asset);
  return [b.available, b.frozen];
};
const types = (evs: EngineEvent[]): string[] => evs.map((x) => x.type);

function aliceAndBob(): Engine {
  const e = engineWithMarket();
  fund(e, 'alice', 'BTC', 10n * COIN);
  fund(e, 'bob', 'USDT', 100_000n * COIN);
  return e;
}

describe('LIMIT GTC', () => {
  it('a resting BUY holds price*qty in quote units and emits accepted + depth + balance', () => {
    const e = aliceAndBob();
    const r = ok(e, limit('bob', 'BUY', 30_000n * PX, QTY / 2n)); // 0.5 BTC at 30000.00
    expect(types(r.events)).toEqual(['orderAccepted', 'depthChanged', 'balanceChanged']);
    expect(r.order).toMatchObject({ orderId: '1', status: 'NEW', filledQty: 0n, feeAsset: 'BTC' });
    expect(bal(e, 'bob', 'USDT')).toEqual([100_000n * COIN - 15_000n * COIN, 15_000n * COIN]);
    expect(r.events[1]).toMatchObject({ side: 'BUY', price: 3_000_000n, quantity: 500_000n });
    expect(e.depth('BTC/USDT', 5)).toEqual({ bids: [{ price: 3_000_000n, quantity: 500_000n }], asks: [] });
    expect(e.openOrders('bob').map((o) => o.orderId)).toEqual(['1']);
  });

  it('a crossing BUY fills at the maker price, gets the excess hold back, and both pay fees in what they receive', () => {
    const e = aliceAndBob();
    ok(e, limit('alice', 'SELL', 30_000n * PX, QTY)); // 1 BTC at 30000.00
    expect(bal(e, 'alice', 'BTC')).toEqual([9n * COIN, 1n * COIN]);
    const r = ok(e, limit('bob', 'BUY', 30_100n * PX, QTY / 2n)); // limit 30100.00, fills 0.5 at 30000.00
    const trade = r.events.find((x) => x.type === 'trade');
    expect(trade).toMatchObject({
      tradeId: '1',
      price: 3_000_000n,
      quantity: 500_000n,
      quoteAmount: 1_500_000_000_000n, // 15000 USDT
      takerSide: 'BUY',
      makerOrderId: '1',
      takerOrderId: '2',
      makerFee: 1_500_000_000n, // 0.1% of 15000 USDT = 15 USDT
      makerFeeAsset: 'USDT',
      takerFee: 100_000n, // 0.2% of 0.5 BTC = 0.001 BTC
      takerFeeAsset: 'BTC',
    });
    expect(types(r.events)).toEqual([
      'orderAccepted',
      'trade',
      'orderUpdated',
      'depthChanged',
      'orderUpdated',
      'balanceChanged',
      'balanceChanged',
      'balanceChanged',
      'balanceChanged',
      'balanceChanged',
      'balanceChanged',
    ]);
    expect(r.order).toMatchObject({ status: 'FILLED', filledQty: 500_000n, filledQuote: 1_500_000_000_000n, fee: 100_000n });
    // Bob paid exactly 15000 USDT (the 50 USDT excess of his 30100 limit released), got 0.5 - 0.001 BTC.
    expect(bal(e, 'bob', 'USDT')).toEqual([85_000n * COIN, 0n]);
    expect(bal(e, 'bob', 'BTC')).toEqual([49_900_000n, 0n]);
    // Alice still has 0.5 BTC frozen for the rest of her order, got 15000 - 15 USDT.
    expect(bal(e, 'alice', 'BTC')).toEqual([9n * COIN, COIN / 2n]);
    expect(bal(e, 'alice', 'USDT')).toEqual([14_985n * COIN, 0n]);
    expect(bal(e, '@fee', 'BTC')).toEqual([100_000n, 0n]);
    expect(bal(e, '@fee', 'USDT')).toEqual([15n * COIN, 0n]);
    expect(e.order('1')).toMatchObject({ status: 'PARTIALLY_FILLED', filledQty: 500_000n, fee: 1_500_000_000n });
    expect(e.depth('BTC/USDT', 5).asks).toEqual([{ price: 3_000_000n, quantity: 500_000n }]);
    expect(e.lastPrice('BTC/USDT')).toBe(3_000_000n);
    for (const [, total] of e.assetTotals()) expect(total).toBe(0n);

    // Cancel releases exactly the remaining hold.
    const c = ok(e, { type: 'cancelOrder', ts: nextTs(), userId: 'alice', orderId: '1' });
    expect(c.order).toMatchObject({ status: 'CANCELED' });
    expect(types(c.events)).toEqual(['orderUpdated', 'depthChanged', 'balanceChanged']);
    expect(bal(e, 'alice', 'BTC')).toEqual([9n * COIN + COIN / 2n, 0n]);
    expect(e.depth('BTC/USDT', 5).asks).toEqual([]);
  });

  it('price-time priority: better price first, then first in first out at one price', () => {
    const e = aliceAndBob();
    fund(e, 'carol', 'BTC', COIN);
    ok(e, limit('alice', 'SELL', 30_001n * PX, 100n)); // id 1, worse price
    ok(e, limit('alice', 'SELL', 30_000n * PX, 100n)); // id 2
    ok(e, limit('carol', 'SELL', 30_000n * PX, 100n)); // id 3, same price, later
    const r = ok(e, limit('bob', 'BUY', 30_001n * PX, 250n));
    const fills = r.events.filter((x) => x.type === 'trade').map((x) => [x.makerOrderId, x.price, x.quantity]);
    expect(fills).toEqual([
      ['2', 3_000_000n, 100n],
      ['3', 3_000_000n, 100n],
      ['1', 3_000_100n, 50n],
    ]);
    // one depth change per level touched, after that level is done
    const depth = r.events.filter((x) => x.type === 'depthChanged').map((x) => [x.price, x.quantity]);
    expect(depth).toEqual([
      [3_000_000n, 0n],
      [3_000_100n, 50n],
    ]);
  });

  it('charges at least one smallest unit of fee on a tiny fill (rounded up)', () => {
    const e = aliceAndBob();
    ok(e, limit('alice', 'SELL', 1n * PX, 1n)); // 0.000001 BTC at 1.00 USDT
    const r = ok(e, limit('bob', 'BUY', 1n * PX, 1n));
    const t = r.events.find((x) => x.type === 'trade');
    // quote 100 units * 0.1% = 0.1 -> 1; base 100 units * 0.2% = 0.2 -> 1
    expect(t).toMatchObject({ quoteAmount: 100n, makerFee: 1n, takerFee: 1n });
    expect(bal(e, 'bob', 'BTC')).toEqual([99n, 0n]);
    expect(bal(e, 'alice', 'USDT')).toEqual([99n, 0n]);
  });
});

describe('IOC, FOK, POST_ONLY', () => {
  it('IOC fills what it can and the remainder expires with its hold released', () => {
    const e = aliceAndBob();
    ok(e, limit('alice', 'SELL', 30_000n * PX, 100n));
    const r = ok(e, limit('bob', 'BUY', 30_000n * PX, 300n, 'IOC'));
    expect(r.order).toMatchObject({ status: 'EXPIRED', filledQty: 100n, filledQuote: 300_000_000n });
    expect(bal(e, 'bob', 'USDT')).toEqual([100_000n * COIN - 300_000_000n, 0n]);
    expect(e.depth('BTC/USDT', 5)).toEqual({ bids: [], asks: [] });
  });

  it('FOK that cannot fill completely expires with no fill and no balance change', () => {
    const e = aliceAndBob();
    ok(e, limit('alice', 'SELL', 30_000n * PX, 100n));
    ok(e, limit('alice', 'SELL', 30_002n * PX, 100n));
    const before = e.stateHash();
    const r = ok(e, limit('bob', 'BUY', 30_001n * PX, 150n, 'FOK'));
    expect(r.order).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
    expect(types(r.events)).toEqual(['orderAccepted', 'orderUpdated']);
    expect(bal(e, 'bob', 'USDT')).toEqual([100_000n * COIN, 0n]);
    expect(e.stateHash()).not.toBe(before); // the order itself is recorded
    const r2 = ok(e, limit('bob', 'BUY', 30_002n * PX, 200n, 'FOK'));
    expect(r2.order).toMatchObject({ status: 'FILLED', filledQty: 200n, filledQuote: 100n * 3_000_000n + 100n * 3_000_200n });
    expect(bal(e, 'bob', 'USDT')).toEqual([100_000n * COIN - 600_020_000n, 0n]);
  });

  it('POST_ONLY that would cross is rejected and changes nothing; otherwise it rests', () => {
    const e = aliceAndBob();
    ok(e, limit('alice', 'SELL', 30_000n * PX, 100n));
    const h = e.stateHash();
    const r = e.execute(limit('bob', 'BUY', 30_000n * PX, 100n, 'POST_ONLY'));
    expect(r).toEqual({ code: 'would_take_liquidity', events: [] });
    expect(e.stateHash()).toBe(h);
    const r2 = ok(e, limit('bob', 'BUY', 29_999n * PX, 100n, 'POST_ONLY'));
    expect(r2.order).toMatchObject({ status: 'NEW' });
    expect(e.depth('BTC/USDT', 1).bids).toEqual([{ price: 2_999_900n, quantity: 100n }]);
  });
});

describe('MARKET', () => {
  it('SELL by quantity walks the bids at each maker price; the unfilled rest expires', () => {
    const e = aliceAndBob();
    ok(e, limit('bob', 'BUY', 30_000n * PX, 100n));
    ok(e, limit('bob', 'BUY', 29_000n * PX, 100n));
    const r = ok(e, market('alice', 'SELL', { quantity: 300n }));
    expect(r.events.filter((x) => x.type === 'trade').map((x) => x.type === 'trade' && x.price)).toEqual([3_000_000n, 2_900_000n]);
    expect(r.order).toMatchObject({ status: 'EXPIRED', filledQty: 200n, filledQuote: 590_000_000n, fee: 1_180_000n });
    expect(bal(e, 'alice', 'BTC')).toEqual([10n * COIN - 20_000n, 0n]);
    expect(bal(e, 'alice', 'USDT')).toEqual([590_000_000n - 1_180_000n, 0n]);
  });

  it('BUY by quantity holds the exact cost from walking the book and rejects when it cannot be covered', () => {
    const e = engineWithMarket();
    fund(e, 'alice', 'BTC', COIN);
    ok(e, limit('alice', 'SELL', 30_000n * PX, QTY / 10n)); // 0.1 BTC at 30000 = 3000 USDT
    ok(e, limit('alice', 'SELL', 31_000n * PX, QTY / 10n)); // 0.1 BTC at 31000 = 3100 USDT
    fund(e, 'bob', 'USDT', 6_099n * COIN);
    const h = e.stateHash();
    expect(e.execute(market('bob', 'BUY', { quantity: QTY / 5n })).code).toBe('insufficient_balance');
    expect(e.stateHash()).toBe(h);
    fund(e, 'bob', 'USDT', 1n * COIN);
    const r = ok(e, market('bob', 'BUY', { quantity: QTY / 5n }));
    expect(r.order).toMatchObject({ status: 'FILLED', filledQty: 200_000n, filledQuote: 6_100n * COIN, fee: 40_000n });
    expect(bal(e, 'bob', 'USDT')).toEqual([0n, 0n]);
    expect(bal(e, 'bob', 'BTC')).toEqual([COIN / 5n - 40_000n, 0n]);
  });

  it('BUY by quoteAmount spends at most the amount, buying floor(remaining/price) per level rounded to the step', () => {
    const e = engineWithMarket({ stepSize: 1n });
    fund(e, 'alice', 'BTC', 10n * COIN);
    ok(e, limit('alice', 'SELL', 30_000n * PX, 100_000n)); // 0.1 BTC at 30000.00
    ok(e, limit('alice', 'SELL', 30_001n * PX, QTY)); // 1 BTC at 30001.00
    fund(e, 'bob', 'USDT', 5_000n * COIN);
    const r = ok(e, market('bob', 'BUY', { quoteAmount: 4_000n * COIN }));
    // level 1: 100000 qty for 3000 USDT; level 2: floor(1000 USDT / 30001.00) = 0.033332 BTC for 999.993332 USDT
    expect(r.events.filter((x) => x.type === 'trade').map((x) => x.type === 'trade' && [x.price, x.quantity, x.quoteAmount])).toEqual([
      [3_000_000n, 100_000n, 300_000_000_000n],
      [3_000_100n, 33_332n, 99_999_333_200n],
    ]);
    expect(r.order).toMatchObject({ status: 'FILLED', quoteAmount: 4_000n * COIN, quantity: null, filledQty: 133_332n, filledQuote: 399_999_333_200n });
    // the 0.006668 USDT left over is released
    expect(bal(e, 'bob', 'USDT')).toEqual([5_000n * COIN - 399_999_333_200n, 0n]);
  });

  it('BUY by quoteAmount rounds the quantity down to the step size', () => {
    const e = engineWithMarket({ stepSize: 1000n, minQty: 1000n });
    fund(e, 'alice', 'BTC', COIN);
    ok(e, limit('alice', 'SELL', 30_000n * PX, QTY / 10n));
    fund(e, 'bob', 'USDT', 100n * COIN);
    const r = ok(e, market('bob', 'BUY', { quoteAmount: 100n * COIN }));
    // 100 USDT / 30000 = 0.0033333 -> 0.003 BTC with step 0.001
    expect(r.order).toMatchObject({ status: 'FILLED', filledQty: 3_000n, filledQuote: 90n * COIN });
    expect(bal(e, 'bob', 'USDT')).toEqual([10n * COIN, 0n]);
  });

  it('MARKET against an empty side is rejected no_liquidity; a halted market rejects orders but allows cancels', () => {
    const e = aliceAndBob();
    expect(e.execute(market('bob', 'BUY', { quoteAmount: COIN })).code).toBe('no_liquidity');
    expect(e.execute(market('alice', 'SELL', { quantity: 1n })).code).toBe('no_liquidity');
    ok(e, limit('alice', 'SELL', 30_000n * PX, 100n));
    ok(e, { type: 'setMarketStatus', ts: nextTs(), symbol: 'BTC/USDT', status: 'HALTED' });
    expect(e.execute(limit('bob', 'BUY', 30_000n * PX, 100n)).code).toBe('market_halted');
    ok(e, { type: 'cancelOrder', ts: nextTs(), userId: 'alice', orderId: '1' });
    expect(bal(e, 'alice', 'BTC')).toEqual([10n * COIN, 0n]);
  });
});

describe('self-trade prevention', () => {
  function withOwnAsk(): Engine {
    const e = engineWithMarket();
    fund(e, 'alice', 'BTC', COIN);
    fund(e, 'alice', 'USDT', 100_000n * COIN);
    fund(e, 'bob', 'BTC', COIN);
    ok(e, limit('alice', 'SELL', 30_000n * PX, 100n)); // 1: alice's own ask, first in line
    ok(e, limit('bob', 'SELL', 30_000n * PX, 100n)); // 2: bob's ask behind it
    return e;
  }
  it('EXPIRE_TAKER (default): the taker expires, the maker stays', () => {
    const e = withOwnAsk();
    const r = ok(e, limit('alice', 'BUY', 30_000n * PX, 100n));
    expect(r.order).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
    expect(e.order('1')).toMatchObject({ status: 'NEW' });
    expect(bal(e, 'alice', 'USDT')).toEqual([100_000n * COIN, 0n]);
  });
  it('EXPIRE_MAKER: the own maker expires (hold released) and matching continues', () => {
    const e = withOwnAsk();
    const r = ok(e, limit('alice', 'BUY', 30_000n * PX, 100n, 'GTC', { stp: 'EXPIRE_MAKER' }));
    expect(r.order).toMatchObject({ status: 'FILLED', filledQty: 100n });
    expect(e.order('1')).toMatchObject({ status: 'EXPIRED' });
    expect(r.events.find((x) => x.type === 'trade')).toMatchObject({ makerOrderId: '2' });
    expect(bal(e, 'alice', 'BTC')).toEqual([COIN + 10_000n - 20n, 0n]);
  });
  it('EXPIRE_BOTH: both expire', () => {
    const e = withOwnAsk();
    const r = ok(e, limit('alice', 'BUY', 30_000n * PX, 100n, 'GTC', { stp: 'EXPIRE_BOTH' }));
    expect(r.order).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
    expect(e.order('1')).toMatchObject({ status: 'EXPIRED' });
    expect(e.depth('BTC/USDT', 5).asks).toEqual([{ price: 3_000_000n, quantity: 100n }]);
    expect(bal(e, 'alice', 'BTC')).toEqual([COIN, 0n]);
  });
  it('NONE: the user trades with itself and pays both fees', () => {
    const e = withOwnAsk();
    const r = ok(e, limit('alice', 'BUY', 30_000n * PX, 100n, 'GTC', { stp: 'NONE' }));
    expect(r.events.find((x) => x.type === 'trade')).toMatchObject({ makerOrderId: '1', makerUserId: 'alice', takerUserId: 'alice' });
    // base 10000 units: taker fee 20; quote 300000000 units: maker fee 300000
    expect(bal(e, 'alice', 'BTC')).toEqual([COIN - 20n, 0n]);
    expect(bal(e, 'alice', 'USDT')).toEqual([100_000n * COIN - 300_000n, 0n]);
  });
});

describe('rejections in precedence order; nothing changes', () => {
  const cases: [string, () => ReturnType<typeof limit>, string][] = [
    ['unknown market', () => ({ ...limit('bob', 'BUY', PX, 1n), symbol: 'ETH/USDT' }), 'market_not_found'],
    ['LIMIT with quoteAmount', () => ({ ...limit('bob', 'BUY', PX, 1n), quoteAmount: 1n }), 'invalid_order'],
    ['MARKET with price', () => ({ ...market('bob', 'BUY', { quantity: 1n }), price: 1n }), 'invalid_order'],
    ['MARKET BUY with quantity and quoteAmount', () => ({ ...market('bob', 'BUY', { quantity: 1n }), quoteAmount: COIN }), 'invalid_order'],
    ['MARKET SELL by quoteAmount', () => market('alice', 'SELL', { quoteAmount: COIN }), 'invalid_order'],
    ['MARKET POST_ONLY', () => market('bob', 'BUY', { quantity: 1n }, { timeInForce: 'POST_ONLY' }), 'invalid_order'],
    ['system user', () => limit('@fee', 'BUY', PX, 1n), 'invalid_order'],
    ['LIMIT without price', () => ({ ...limit('bob', 'BUY', PX, 1n), price: undefined }), 'price_required'],
    ['price off tick (before qty checks)', () => limit('bob', 'BUY', 15n, 0n), 'price_not_on_tick'],
    ['zero price', () => limit('bob', 'BUY', 0n, 1n), 'price_not_on_tick'],
    ['no quantity', () => ({ ...limit('bob', 'BUY', PX, 1n), quantity: undefined }) as Command, 'quantity_required'],
    ['qty off step', () => limit('bob', 'BUY', PX, 15n), 'quantity_not_on_step'],
    ['qty below min', () => limit('bob', 'BUY', PX, 10n), 'quantity_below_minimum'],
    ['notional below min', () => limit('bob', 'BUY', PX, 20n), 'notional_below_minimum'],
    ['quoteAmount below min notional', () => market('bob', 'BUY', { quoteAmount: 1n }), 'notional_below_minimum'],
    ['insufficient', () => limit('bob', 'BUY', 1_000_000n * PX, QTY * 10n), 'insufficient_balance'],
  ];
  it.each(cases)('%s', (_name, make, code) => {
    // tick 0.10, step 10, minQty 20, minNotional 0.03 USDT (3_000_000 units)
    const e = engineWithMarket({ tickSize: 10n, stepSize: 10n, minQty: 20n, minNotional: 3_000_000n });
    fund(e, 'alice', 'BTC', COIN);
    fund(e, 'bob', 'USDT', 1_000n * COIN);
    const h = e.stateHash();
    const r = e.execute(make());
    expect(r).toEqual({ code, events: [] });
    expect(e.stateHash()).toBe(h);
  });

  it('cancel: unknown, not owner, already closed', () => {
    const e = aliceAndBob();
    ok(e, limit('alice', 'SELL', 30_000n * PX, 100n));
    expect(e.execute({ type: 'cancelOrder', ts: nextTs(), userId: 'alice', orderId: '99' }).code).toBe('order_not_found');
    expect(e.execute({ type: 'cancelOrder', ts: nextTs(), userId: 'bob', orderId: '1' }).code).toBe('order_not_found');
    ok(e, { type: 'cancelOrder', ts: nextTs(), userId: 'alice', orderId: '1' });
    const again = e.execute({ type: 'cancelOrder', ts: nextTs(), userId: 'alice', orderId: '1' });
    expect(again.code).toBe('order_not_found');
    expect(again.order).toMatchObject({ status: 'CANCELED' });
    expect(again.events).toEqual([]);
  });
});
