// Proves spot rules at their edges, with exact amounts (units as in fixtures.ts: BTC/USDT, price
// 0.01, qty 0.000001 BTC, both assets scale 8, so quote units = price * qty and base units = qty * 100;
// maker fee 0.1%, taker fee 0.2%): self-trade prevention of a MARKET BUY by quote amount acts only on
// an own maker it can still buy from; the statuses of quote-amount buys; the hold and its release
// for every order type; which fee rate each side pays; rounding of fees; rejection precedence.
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine';
import { FastOrderBook } from '../src/spot/fast-book';
import { NaiveOrderBook } from '../src/spot/naive-book';
import type { EngineEvent, TradeEvent } from '../src/types';
import { COIN, engineWithMarket, fund, limit, market, ok, PX } from './fixtures';

/** 30,000.00 USDT; one step (0.000001 BTC) at P costs P quote units. */
const P = 30_000n * PX;
const trades = (evs: EngineEvent[]): TradeEvent[] => evs.filter((x): x is TradeEvent => x.type === 'trade');
const spot = (e: Engine, user: string, asset: string): [bigint, bigint] => {
  const b = e.balance(user, 'SPOT', asset);
  return [b.available, b.frozen];
};

describe('MARKET BUY by quote amount and self-trade prevention', () => {
  /** alice asks 100 at P, then bob's own ask of 50 at P behind it; bob has 1,000 USDT. */
  function ownAskBehind(): Engine {
    const e = engineWithMarket();
    fund(e, 'alice', 'BTC', COIN);
    fund(e, 'bob', 'BTC', COIN);
    fund(e, 'bob', 'USDT', 1_000n * COIN);
    ok(e, limit('alice', 'SELL', P, 100n)); // order 1
    ok(e, limit('bob', 'SELL', P, 50n)); // order 2, bob's own
    return e;
  }

  it('a taker that cannot buy one more step does not reach its own maker: FILLED, the maker stays', () => {
    for (const stp of ['EXPIRE_MAKER', 'EXPIRE_BOTH', 'EXPIRE_TAKER'] as const) {
      const e = ownAskBehind();
      const r = ok(e, market('bob', 'BUY', { quoteAmount: 100n * P + P - 1n }, { stp }));
      expect(r.order).toMatchObject({ status: 'FILLED', filledQty: 100n, filledQuote: 100n * P });
      expect(e.order('2')).toMatchObject({ status: 'NEW' });
      expect(r.events.filter((x) => x.type === 'orderUpdated').map((x) => x.type === 'orderUpdated' && [x.order.orderId, x.order.status])).toEqual([
        ['1', 'FILLED'],
        ['3', 'FILLED'],
      ]);
      // 1,000 USDT - 3 USDT paid; 49 BTC units of the 100 * 100 bought go to the fee (0.2% of 10,000 = 20)
      expect(spot(e, 'bob', 'USDT')).toEqual([1_000n * COIN - 100n * P, 0n]);
      expect(spot(e, 'bob', 'BTC')).toEqual([COIN - 5_000n + 10_000n - 20n, 5_000n]);
    }
  });

  it('a taker that can buy a step from its own maker: EXPIRE_MAKER expires it and goes on, EXPIRE_TAKER stops', () => {
    const e = ownAskBehind();
    const r = ok(e, market('bob', 'BUY', { quoteAmount: 101n * P }, { stp: 'EXPIRE_MAKER' }));
    // the book ran out after expiring the own maker: EXPIRED, not FILLED, and the rest is released
    expect(r.order).toMatchObject({ status: 'EXPIRED', filledQty: 100n, filledQuote: 100n * P });
    expect(e.order('2')).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
    expect(spot(e, 'bob', 'USDT')).toEqual([1_000n * COIN - 100n * P, 0n]);
    expect(spot(e, 'bob', 'BTC')).toEqual([COIN + 10_000n - 20n, 0n]);

    const e2 = ownAskBehind();
    const r2 = ok(e2, market('bob', 'BUY', { quoteAmount: 101n * P }, { stp: 'EXPIRE_TAKER' }));
    expect(r2.order).toMatchObject({ status: 'EXPIRED', filledQty: 100n });
    expect(e2.order('2')).toMatchObject({ status: 'NEW' });
  });

  it('a quote amount below one step at the best price is accepted and EXPIRED with nothing filled', () => {
    const e = ownAskBehind();
    const r = ok(e, market('bob', 'BUY', { quoteAmount: P - 1n }));
    expect(r.order).toMatchObject({ status: 'EXPIRED', filledQty: 0n, filledQuote: 0n, fee: 0n });
    expect(trades(r.events)).toEqual([]);
    expect(spot(e, 'bob', 'USDT')).toEqual([1_000n * COIN, 0n]);
  });

  it('a quote buy that empties the book with money left is EXPIRED; one that spends it down to less than a step is FILLED', () => {
    const e = engineWithMarket();
    fund(e, 'alice', 'BTC', COIN);
    fund(e, 'bob', 'USDT', 1_000n * COIN);
    ok(e, limit('alice', 'SELL', P, 100n));
    const all = ok(e, market('bob', 'BUY', { quoteAmount: 200n * P }));
    expect(all.order).toMatchObject({ status: 'EXPIRED', filledQty: 100n, filledQuote: 100n * P });
    expect(spot(e, 'bob', 'USDT')).toEqual([1_000n * COIN - 100n * P, 0n]);
    ok(e, limit('alice', 'SELL', P, 100n));
    const part = ok(e, market('bob', 'BUY', { quoteAmount: 60n * P + 7n }));
    expect(part.order).toMatchObject({ status: 'FILLED', filledQty: 60n, filledQuote: 60n * P });
    expect(e.order('3')).toMatchObject({ status: 'PARTIALLY_FILLED', filledQty: 60n });
  });
});

describe('events of matching, with the depth change of every level touched', () => {
  it('a MARKET BUY over three levels: one trade and maker update per fill, one depth change per level, then the taker', () => {
    const e = engineWithMarket();
    fund(e, 'alice', 'BTC', COIN);
    fund(e, 'carol', 'BTC', COIN);
    fund(e, 'bob', 'USDT', 1_000n * COIN);
    ok(e, limit('alice', 'SELL', P, 10n)); // 1
    ok(e, limit('carol', 'SELL', P, 5n)); // 2
    ok(e, limit('alice', 'SELL', P + 1n, 10n)); // 3
    ok(e, limit('carol', 'SELL', P + 2n, 10n)); // 4
    const r = ok(e, market('bob', 'BUY', { quantity: 20n }));
    const own = r.events.filter((x) => x.type !== 'balanceChanged');
    expect(own.map((x) => x.type)).toEqual([
      'orderAccepted',
      'trade',
      'orderUpdated',
      'trade',
      'orderUpdated',
      'depthChanged',
      'trade',
      'orderUpdated',
      'depthChanged',
      'orderUpdated',
    ]);
    expect(
      trades(r.events).map((t) => [t.tradeId, t.makerOrderId, t.takerOrderId, t.price, t.quantity, t.quoteAmount, t.makerUserId, t.takerUserId, t.takerSide]),
    ).toEqual([
      ['1', '1', '5', P, 10n, 10n * P, 'alice', 'bob', 'BUY'],
      ['2', '2', '5', P, 5n, 5n * P, 'carol', 'bob', 'BUY'],
      ['3', '3', '5', P + 1n, 5n, 5n * (P + 1n), 'alice', 'bob', 'BUY'],
    ]);
    expect(r.events.filter((x) => x.type === 'depthChanged')).toEqual([
      { type: 'depthChanged', ts: r.events[0]!.ts, symbol: 'BTC/USDT', side: 'SELL', price: P, quantity: 0n },
      { type: 'depthChanged', ts: r.events[0]!.ts, symbol: 'BTC/USDT', side: 'SELL', price: P + 1n, quantity: 5n },
    ]);
    expect(
      r.events.filter((x) => x.type === 'orderUpdated').map((x) => x.type === 'orderUpdated' && [x.order.orderId, x.order.status, x.order.filledQty]),
    ).toEqual([
      ['1', 'FILLED', 10n],
      ['2', 'FILLED', 5n],
      ['3', 'PARTIALLY_FILLED', 5n],
      ['5', 'FILLED', 20n],
    ]);
    // maker fees in USDT (0.1%, rounded up), taker fee in BTC (0.2% of 2,000 base units = 4)
    expect(trades(r.events).map((t) => [t.makerFee, t.makerFeeAsset, t.takerFee, t.takerFeeAsset])).toEqual([
      [30_000n, 'USDT', 2n, 'BTC'],
      [15_000n, 'USDT', 1n, 'BTC'],
      [15_001n, 'USDT', 1n, 'BTC'], // 5 * 3,000,001 * 0.001 = 15,000.005 -> 15,001
    ]);
    expect(r.order).toMatchObject({ fee: 4n, filledQuote: 15n * P + 5n * (P + 1n) });
    expect(e.lastPrice('BTC/USDT')).toBe(P + 1n);
    expect(e.depth('BTC/USDT', 5).asks).toEqual([
      { price: P + 1n, quantity: 5n },
      { price: P + 2n, quantity: 10n },
    ]);
  });

  it('a crossing SELL that rests the rest: depth change of the bid level taken, then of its own level', () => {
    const e = engineWithMarket();
    fund(e, 'alice', 'BTC', COIN);
    fund(e, 'bob', 'USDT', 1_000n * COIN);
    fund(e, 'carol', 'BTC', COIN);
    ok(e, limit('bob', 'BUY', P, 10n)); // 1
    ok(e, limit('carol', 'SELL', P + 5n, 7n)); // 2: already resting at alice's price
    const r = ok(e, limit('alice', 'SELL', P - 5n, 30n, 'GTC')); // takes 10 at P, rests 20 at P - 5
    expect(r.order).toMatchObject({ status: 'PARTIALLY_FILLED', filledQty: 10n, filledQuote: 10n * P, fee: 60_000n, feeAsset: 'USDT' });
    expect(r.events.filter((x) => x.type === 'depthChanged').map((x) => x.type === 'depthChanged' && [x.side, x.price, x.quantity])).toEqual([
      ['BUY', P, 0n],
      ['SELL', P - 5n, 20n],
    ]);
    // its hold: the unfilled 20 (base units: qty * 100) stay frozen
    expect(spot(e, 'alice', 'BTC')).toEqual([COIN - 3_000n, 2_000n]);
    expect(e.requiredHold('3')).toBe(2_000n);
    expect(e.requiredHold('1')).toBeUndefined();
  });

  it('EXPIRE_MAKER: the own maker expires with a depth change of its level, then the taker trades on', () => {
    const e = engineWithMarket();
    fund(e, 'alice', 'BTC', COIN);
    fund(e, 'alice', 'USDT', 1_000n * COIN);
    fund(e, 'bob', 'BTC', COIN);
    ok(e, limit('alice', 'SELL', P, 10n)); // 1, own
    ok(e, limit('bob', 'SELL', P, 10n)); // 2
    ok(e, limit('bob', 'SELL', P + 1n, 10n)); // 3
    const r = ok(e, limit('alice', 'BUY', P + 1n, 15n, 'GTC', { stp: 'EXPIRE_MAKER' }));
    expect(
      r.events
        .filter((x) => x.type !== 'balanceChanged')
        .map((x) =>
          x.type === 'orderUpdated' ? `${x.type}:${x.order.orderId}:${x.order.status}` : x.type === 'depthChanged' ? `depth:${x.price}:${x.quantity}` : x.type,
        ),
    ).toEqual([
      'orderAccepted',
      'orderUpdated:1:EXPIRED',
      'trade',
      'orderUpdated:2:FILLED',
      'depth:3000000:0',
      'trade',
      'orderUpdated:3:PARTIALLY_FILLED',
      'depth:3000001:5',
      'orderUpdated:4:FILLED',
    ]);
    // the BUY limit P + 1 filled 10 at P: 10 quote units of price improvement released
    expect(spot(e, 'alice', 'USDT')).toEqual([1_000n * COIN - 10n * P - 5n * (P + 1n), 0n]);
    expect(spot(e, 'alice', 'BTC')).toEqual([COIN + 1_500n - 3n, 0n]);
  });

  it('a cancel emits the order update and the level total left', () => {
    const e = engineWithMarket();
    fund(e, 'bob', 'USDT', 1_000n * COIN);
    ok(e, limit('bob', 'BUY', P, 10n));
    ok(e, limit('bob', 'BUY', P, 4n));
    const r = ok(e, { type: 'cancelOrder', ts: 1, userId: 'bob', orderId: '1' });
    expect(r.events.slice(0, 2)).toEqual([
      { type: 'orderUpdated', ts: 1, order: expect.objectContaining({ orderId: '1', status: 'CANCELED', updatedTs: 1 }) },
      { type: 'depthChanged', ts: 1, symbol: 'BTC/USDT', side: 'BUY', price: P, quantity: 4n },
    ]);
    expect(r.order).toMatchObject({ orderId: '1', status: 'CANCELED' });
    expect(spot(e, 'bob', 'USDT')).toEqual([1_000n * COIN - 4n * P, 4n * P]);
  });
});

describe('holds in a market whose units are not 1:1 (quote 100 units per price*qty unit, base 10,000 per qty unit)', () => {
  // priceDecimals 2, qtyDecimals 4, both scale 8: notionalMult 100, baseMult 10,000
  const shaped = (): Engine => {
    const e = engineWithMarket({ qtyDecimals: 4 });
    fund(e, 'alice', 'BTC', COIN);
    fund(e, 'bob', 'USDT', 1_000n * COIN);
    return e;
  };

  it('BUY LIMIT holds price * qty * 100, SELL holds qty * 10,000; fills and fees in those units', () => {
    const e = shaped();
    ok(e, limit('alice', 'SELL', P, 3n)); // 0.0003 BTC
    expect(spot(e, 'alice', 'BTC')).toEqual([COIN - 30_000n, 30_000n]);
    expect(e.requiredHold('1')).toBe(30_000n);
    const r = ok(e, limit('bob', 'BUY', P + 100n, 5n)); // limit 30,001.00 for 0.0005
    expect(trades(r.events)[0]).toMatchObject({ price: P, quantity: 3n, quoteAmount: 3n * P * 100n, makerFee: 900_000n, takerFee: 60n });
    // bob keeps 2 resting at his limit: (P + 100) * 2 * 100 frozen; paid 3 * P * 100
    expect(spot(e, 'bob', 'USDT')).toEqual([1_000n * COIN - 3n * P * 100n - 2n * (P + 100n) * 100n, 2n * (P + 100n) * 100n]);
    expect(e.requiredHold('2')).toBe(2n * (P + 100n) * 100n);
    expect(spot(e, 'bob', 'BTC')).toEqual([30_000n - 60n, 0n]);
    expect(spot(e, 'alice', 'USDT')).toEqual([3n * P * 100n - 900_000n, 0n]);
  });

  it('MARKET BUY by quantity holds the walk cost; by quote amount buys floor(amount / (price * 100)) steps', () => {
    const e = shaped();
    ok(e, limit('alice', 'SELL', P, 3n));
    ok(e, limit('alice', 'SELL', P + 100n, 3n));
    const cost = 3n * P * 100n + 2n * (P + 100n) * 100n;
    fund(e, 'carol', 'USDT', cost - 1n);
    expect(e.execute(market('carol', 'BUY', { quantity: 5n })).code).toBe('insufficient_balance');
    fund(e, 'carol', 'USDT', 1n);
    expect(ok(e, market('carol', 'BUY', { quantity: 5n })).order).toMatchObject({ status: 'FILLED', filledQuote: cost });
    expect(spot(e, 'carol', 'USDT')).toEqual([0n, 0n]);
    // 1 left at P + 1.00: a quote amount of 1.5 steps buys one
    const r = ok(e, market('bob', 'BUY', { quoteAmount: ((P + 100n) * 100n * 3n) / 2n }));
    expect(r.order).toMatchObject({ status: 'EXPIRED', filledQty: 1n, filledQuote: (P + 100n) * 100n });
  });
});

describe('placement checks at their boundaries', () => {
  // tick 0.10, step 10, minQty 20, minNotional 0.03 USDT = 3,000,000 units
  const strict = (): Engine => {
    const e = engineWithMarket({ tickSize: 10n, stepSize: 10n, minQty: 20n, minNotional: 3_000_000n });
    fund(e, 'alice', 'BTC', COIN);
    fund(e, 'bob', 'USDT', 1_000n * COIN);
    return e;
  };
  const code = (e: Engine, cmd: ReturnType<typeof limit>): string => e.execute(cmd).code;
  const odd = (cmd: ReturnType<typeof limit>, patch: Record<string, unknown>): ReturnType<typeof limit> => ({ ...cmd, ...patch }) as ReturnType<typeof limit>;

  it('malformed fields are invalid_order', () => {
    const e = strict();
    const base = limit('bob', 'BUY', 150_000n, 20n);
    expect(code(e, base)).toBe('ok');
    for (const patch of [
      { side: 'HOLD' },
      { orderType: 'STOP' },
      { timeInForce: 'GTD' },
      { stp: 'DECREMENT' },
      { userId: '' },
      { userId: '@fee' },
      { userId: 7 },
      { clientOrderId: '' },
      { clientOrderId: 'x'.repeat(37) },
      { clientOrderId: 5 },
      { price: 150_000 },
      { quantity: 20 },
      { quoteAmount: 20 },
    ]) {
      expect(code(e, odd(base, patch)), JSON.stringify(patch)).toBe('invalid_order');
    }
    expect(code(e, odd(base, { clientOrderId: 'x'.repeat(36) }))).toBe('ok');
    expect(code(e, odd(base, { stp: 'EXPIRE_TAKER' }))).toBe('ok');
    expect(code(e, odd(base, { stp: 'NONE' }))).toBe('ok');
    expect(code(e, market('bob', 'BUY', { quoteAmount: 3_000_000n }, { timeInForce: 'FOK' }))).toBe('invalid_order');
    expect(code(e, odd(market('alice', 'SELL', { quantity: 20n }), { quoteAmount: 3_000_000n }))).toBe('invalid_order');
  });

  it('price, quantity and notional at and around their limits', () => {
    const e = strict();
    expect(code(e, limit('bob', 'BUY', 0n, 20n))).toBe('price_not_on_tick');
    expect(code(e, limit('bob', 'BUY', -10n, 20n))).toBe('price_not_on_tick');
    expect(code(e, limit('bob', 'BUY', 150_005n, 20n))).toBe('price_not_on_tick');
    expect(code(e, limit('bob', 'BUY', 150_000n, 25n))).toBe('quantity_not_on_step');
    expect(code(e, limit('bob', 'BUY', 150_000n, 10n))).toBe('quantity_below_minimum');
    expect(code(e, limit('bob', 'BUY', 150_000n, 0n))).toBe('quantity_below_minimum');
    expect(code(e, limit('bob', 'BUY', 150_000n, -20n))).toBe('quantity_below_minimum');
    // notional = price * qty (quote units here): 149,990 * 20 < 3,000,000 <= 150,000 * 20
    expect(code(e, limit('bob', 'BUY', 149_990n, 20n))).toBe('notional_below_minimum');
    expect(code(e, limit('bob', 'BUY', 150_000n, 20n))).toBe('ok');
    expect(code(e, market('bob', 'BUY', { quoteAmount: 2_999_999n }))).toBe('notional_below_minimum');
    expect(code(e, market('alice', 'SELL', { quantity: 10n }))).toBe('quantity_below_minimum');
    // a MARKET order by quantity has no notional check
    expect(code(e, market('alice', 'SELL', { quantity: 20n }))).toBe('ok');
    const free = engineWithMarket();
    fund(free, 'bob', 'USDT', COIN);
    expect(code(free, market('bob', 'BUY', { quoteAmount: 0n }))).toBe('amount_invalid');
    expect(code(free, market('bob', 'BUY', { quoteAmount: -1n }))).toBe('notional_below_minimum');
    expect(code(free, limit('bob', 'BUY', PX, 0n))).toBe('quantity_below_minimum');
    expect(code(free, limit('bob', 'BUY', PX, -1n))).toBe('quantity_below_minimum');
  });

  it('balance checks are exact for every kind of hold', () => {
    const e = strict();
    fund(e, 'dave', 'USDT', 150_000n * 20n - 1n);
    expect(code(e, limit('dave', 'BUY', 150_000n, 20n))).toBe('insufficient_balance');
    fund(e, 'dave', 'USDT', 1n);
    expect(code(e, limit('dave', 'BUY', 150_000n, 20n))).toBe('ok');
    fund(e, 'erin', 'BTC', 20n * 100n - 1n);
    expect(code(e, limit('erin', 'SELL', 150_000n, 20n))).toBe('insufficient_balance');
    fund(e, 'erin', 'BTC', 1n);
    expect(code(e, limit('erin', 'SELL', 150_000n, 20n))).toBe('ok');
    fund(e, 'fay', 'USDT', 2_999_999n);
    expect(code(e, market('fay', 'BUY', { quoteAmount: 3_000_000n }))).toBe('insufficient_balance');
    expect(code(e, market('nobody', 'SELL', { quantity: 20n }))).toBe('insufficient_balance');
  });

  it('POST_ONLY crosses at an equal price; no_liquidity counts any order on the other side, even the own', () => {
    const e = strict();
    ok(e, limit('bob', 'BUY', 150_000n, 20n));
    expect(code(e, limit('alice', 'SELL', 150_000n, 20n, 'POST_ONLY'))).toBe('would_take_liquidity');
    expect(code(e, limit('alice', 'SELL', 149_990n, 30n, 'POST_ONLY'))).toBe('would_take_liquidity');
    expect(ok(e, limit('alice', 'SELL', 150_010n, 20n, 'POST_ONLY')).order).toMatchObject({ status: 'NEW' });
    expect(code(e, limit('bob', 'BUY', 150_010n, 20n, 'POST_ONLY'))).toBe('would_take_liquidity');
    expect(ok(e, limit('bob', 'BUY', 150_000n, 20n, 'POST_ONLY')).order).toMatchObject({ status: 'NEW' });
    // alice's MARKET BUY meets only her own ask: accepted, then self-trade prevention ends it
    fund(e, 'alice', 'USDT', 1_000n * COIN);
    const own = ok(e, market('alice', 'BUY', { quantity: 20n }));
    expect(own.order).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
    const empty = engineWithMarket();
    fund(empty, 'bob', 'USDT', COIN);
    expect(code(empty, market('bob', 'BUY', { quantity: 1n }))).toBe('no_liquidity');
  });

  it('a MARKET BUY costing nothing (only its own ask in the way) is accepted from a user with no quote account', () => {
    const e = engineWithMarket();
    fund(e, 'bob', 'BTC', COIN);
    ok(e, limit('bob', 'SELL', P, 10n));
    const r = ok(e, market('bob', 'BUY', { quantity: 10n }));
    expect(r.order).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
    expect(e.balance('bob', 'SPOT', 'USDT')).toEqual({ available: 0n, frozen: 0n });
    expect(e.order('1')).toMatchObject({ status: 'NEW' });
  });

  it('MARKET GTC behaves as IOC, MARKET FOK by quantity fills completely or not at all', () => {
    const e = engineWithMarket();
    fund(e, 'alice', 'BTC', COIN);
    fund(e, 'bob', 'USDT', 1_000n * COIN);
    ok(e, limit('alice', 'SELL', P, 10n));
    const fok = ok(e, market('bob', 'BUY', { quantity: 11n }, { timeInForce: 'FOK' }));
    expect(fok.order).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
    expect(fok.events.map((x) => x.type)).toEqual(['orderAccepted', 'orderUpdated']);
    const gtc = ok(e, market('bob', 'BUY', { quantity: 11n }, { timeInForce: 'GTC' }));
    expect(gtc.order).toMatchObject({ status: 'EXPIRED', filledQty: 10n, timeInForce: 'GTC' });
    expect(e.depth('BTC/USDT', 5)).toEqual({ bids: [], asks: [] });
    ok(e, limit('alice', 'SELL', P, 10n));
    expect(ok(e, market('bob', 'BUY', { quantity: 10n }, { timeInForce: 'FOK' })).order).toMatchObject({ status: 'FILLED', filledQty: 10n });
    ok(e, limit('alice', 'SELL', P, 10n));
    expect(ok(e, limit('bob', 'BUY', P, 10n, 'FOK')).order).toMatchObject({ status: 'FILLED' });
    // FOK SELL against bids
    ok(e, limit('bob', 'BUY', P, 5n));
    ok(e, limit('bob', 'BUY', P - 1n, 5n));
    expect(ok(e, limit('alice', 'SELL', P, 6n, 'FOK')).order).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
    expect(ok(e, limit('alice', 'SELL', P - 1n, 6n, 'FOK')).order).toMatchObject({ status: 'FILLED', filledQty: 6n, filledQuote: 5n * P + (P - 1n) });
  });

  it('a halted market rejects before looking at the order; a NEW order answers with its accepted view', () => {
    const e = strict();
    ok(e, { type: 'setMarketStatus', ts: 1, symbol: 'BTC/USDT', status: 'HALTED' });
    expect(code(e, odd(limit('bob', 'BUY', 1n, 1n), { side: 'X' }))).toBe('market_halted');
    ok(e, { type: 'setMarketStatus', ts: 2, symbol: 'BTC/USDT', status: 'TRADING' });
    const r = ok(e, limit('bob', 'BUY', 150_000n, 20n));
    expect(r.order).toEqual(r.events[0]!.type === 'orderAccepted' ? r.events[0]!.order : null);
    expect(r.order).toMatchObject({ status: 'NEW', feeAsset: 'BTC', price: 150_000n, quantity: 20n, quoteAmount: null, orderType: 'LIMIT' });
  });
});

describe('more edges', () => {
  it("EXPIRE_MAKER after a fill at a better level: that level's depth change comes before the own maker expires", () => {
    const e = engineWithMarket();
    fund(e, 'alice', 'BTC', COIN);
    fund(e, 'alice', 'USDT', 1_000n * COIN);
    fund(e, 'bob', 'BTC', COIN);
    ok(e, limit('bob', 'SELL', P, 10n)); // 1
    ok(e, limit('alice', 'SELL', P + 1n, 10n)); // 2, own, at the next level
    ok(e, limit('bob', 'SELL', P + 2n, 10n)); // 3
    const r = ok(e, market('alice', 'BUY', { quoteAmount: 1_000n * COIN }, { stp: 'EXPIRE_MAKER' }));
    const seen = r.events
      .filter((x) => x.type !== 'balanceChanged')
      .map((x) =>
        x.type === 'orderUpdated' ? `${x.order.orderId}:${x.order.status}` : x.type === 'depthChanged' ? `depth ${x.side} ${x.price} ${x.quantity}` : x.type,
      );
    expect(seen).toEqual([
      'orderAccepted',
      'trade',
      '1:FILLED',
      `depth SELL ${P} 0`,
      '2:EXPIRED',
      `depth SELL ${P + 1n} 0`,
      'trade',
      '3:FILLED',
      `depth SELL ${P + 2n} 0`,
      '4:EXPIRED', // the book ran out before the money did
    ]);
    expect(r.order).toMatchObject({ filledQty: 20n, filledQuote: 10n * P + 10n * (P + 2n) });
  });

  it('a quote-amount order never has a remaining quantity, also in the snapshot', () => {
    const e = engineWithMarket();
    fund(e, 'alice', 'BTC', COIN);
    fund(e, 'bob', 'USDT', 1_000n * COIN);
    ok(e, limit('alice', 'SELL', P, 10n));
    ok(e, market('bob', 'BUY', { quoteAmount: 5n * P }));
    const rows = (e.snapshot() as unknown as { closedOrders: unknown[][] }).closedOrders;
    const row = rows.find((x) => x[0] === 2)!;
    // [.., status, filledQty, filledQuote, fee, remaining, hold]
    expect(row.slice(14)).toEqual(['FILLED', '5', `${5n * P}`, '1', '0', '0']);
  });

  it('with minQty 0 a zero or negative quantity is still below the minimum', () => {
    const e = engineWithMarket({ minQty: 0n });
    fund(e, 'bob', 'USDT', COIN);
    expect(e.execute(limit('bob', 'BUY', P, 0n)).code).toBe('quantity_below_minimum');
    expect(e.execute(limit('bob', 'BUY', P, -1n)).code).toBe('quantity_below_minimum');
    expect(e.execute(market('bob', 'BUY', { quantity: 0n })).code).toBe('quantity_below_minimum');
    expect(ok(e, limit('bob', 'BUY', P, 1n)).order).toMatchObject({ status: 'NEW' });
  });
});

describe('engine wiring of the spot market', () => {
  it('the book option picks the implementation, the fast book by default', () => {
    const books = [engineWithMarket(), engineWithMarket({}, { book: 'fast' }), engineWithMarket({}, { book: 'naive' })].map((e) => e.bookOf('BTC/USDT'));
    expect(books[0]).toBeInstanceOf(FastOrderBook);
    expect(books[1]).toBeInstanceOf(FastOrderBook);
    expect(books[2]).toBeInstanceOf(NaiveOrderBook);
    const snap = engineWithMarket().snapshot();
    expect(Engine.restore(snap).bookOf('BTC/USDT')).toBeInstanceOf(FastOrderBook);
    expect(Engine.restore(snap, { book: 'naive' }).bookOf('BTC/USDT')).toBeInstanceOf(NaiveOrderBook);
  });

  it('an own maker expired between fills at the same price: one depth change for that level', () => {
    const e = engineWithMarket();
    fund(e, 'alice', 'BTC', COIN);
    fund(e, 'alice', 'USDT', 1_000n * COIN);
    fund(e, 'bob', 'BTC', COIN);
    ok(e, limit('bob', 'SELL', P, 10n)); // 1
    ok(e, limit('alice', 'SELL', P, 10n)); // 2, own
    ok(e, limit('bob', 'SELL', P, 10n)); // 3
    const r = ok(e, limit('alice', 'BUY', P, 20n, 'IOC', { stp: 'EXPIRE_MAKER' }));
    expect(
      r.events
        .filter((x) => x.type !== 'balanceChanged')
        .map((x) =>
          x.type === 'orderUpdated' ? `${x.order.orderId}:${x.order.status}` : x.type === 'depthChanged' ? `depth ${x.price} ${x.quantity}` : x.type,
        ),
    ).toEqual(['orderAccepted', 'trade', '1:FILLED', '2:EXPIRED', 'trade', '3:FILLED', `depth ${P} 0`, '4:FILLED']);
  });
});
