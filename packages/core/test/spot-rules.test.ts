// Proves spot rules at their edges, with exact amounts (units as in fixtures.ts: BTC/USDT, price
// 0.01, qty 0.000001 BTC, both assets scale 8, so quote units = price * qty and base units = qty * 100;
// maker fee 0.1%, taker fee 0.2%): self-trade prevention of a MARKET BUY by quote amount acts only on
// an own maker it can still buy from; the statuses of quote-amount buys; the hold and its release
// for every order type; which fee rate each side pays; rounding of fees; rejection precedence.
import { describe, expect, it } from 'vitest';
import type { Engine } from '../src/engine';
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
