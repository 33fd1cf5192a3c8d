/**
 * cancelReplaceOrder (Binance spot POST /api/v3/order/cancelReplace as one command), with exact balances: the new
 * order may use the funds the cancelled one held (a placement that fails as a separate command succeeds here); each
 * mode's outcome (STOP_ON_FAILURE places nothing after a failed cancel, ALLOW_FAILURE places anyway, a placement
 * refused after a cancel leaves the order cancelled); a command that changes nothing leaves the state hash as it was;
 * the command survives the journal's encodings and a snapshot round trip. Units as test/fixtures.ts: price 0.01 USDT,
 * qty 0.000001 BTC, both assets scale 8 (quote units = price x qty, base units = qty x 100).
 */
import { describe, expect, it } from 'vitest';
import { decodeCommand, encodeCommand, parseCommand, serializeCommand } from '../codec';
import { Engine } from '../engine';
import type { CancelReplaceNewOrder, Command, CommandResult } from '../types';
import { COIN, engineWithMarket, fund, limit, market, nextTs, ok, PX, QTY } from '../../test/fixtures';
import { checkInvariants } from '../../test/invariants';

const bal = (e: Engine, user: string, asset: string): [bigint, bigint] => {
  const b = e.balance(user, 'SPOT', asset);
  return [b.available, b.frozen];
};

type Extra = Partial<Omit<Extract<Command, { type: 'cancelReplaceOrder' }>, 'type' | 'ts' | 'order'>>;
const replace = (userId: string, order: CancelReplaceNewOrder, extra: Extra): Command => ({
  type: 'cancelReplaceOrder',
  ts: nextTs(),
  userId,
  symbol: 'BTC/USDT',
  mode: 'STOP_ON_FAILURE',
  order,
  ...extra,
});
const buy = (price: bigint, quantity: bigint, timeInForce: 'GTC' | 'POST_ONLY' = 'GTC'): CancelReplaceNewOrder => ({
  side: 'BUY',
  orderType: 'LIMIT',
  timeInForce,
  price,
  quantity,
});
const run = (e: Engine, cmd: Command): CommandResult => {
  const r = e.execute(cmd);
  checkInvariants(e, r);
  return r;
};

/** bob holds exactly 15,000 USDT for a BUY of 0.5 BTC at 30,000.00 (order "1"), nothing else. */
function bobsBid(): Engine {
  const e = engineWithMarket();
  fund(e, 'bob', 'USDT', 15_000n * COIN);
  ok(e, limit('bob', 'BUY', 30_000n * PX, QTY / 2n, 'GTC', { clientOrderId: 'b1' }));
  expect(bal(e, 'bob', 'USDT')).toEqual([0n, 15_000n * COIN]);
  return e;
}

describe('cancelReplaceOrder', () => {
  it('cancels and places against the released hold in one command: 0.4 BTC at 37,500.00 takes the 15,000 USDT the old order held', () => {
    const e = bobsBid();
    // As a separate placement it is refused: the funds are still held by order 1.
    expect(e.execute(limit('bob', 'BUY', 37_500n * PX, 400_000n)).code).toBe('insufficient_balance');
    const r = run(e, replace('bob', buy(37_500n * PX, 400_000n), { cancelOrderId: '1' }));
    expect(r.code).toBe('ok');
    expect(r.cancelReplace).toMatchObject({
      cancelResult: 'SUCCESS',
      cancelCode: 'ok',
      cancelRestricted: false,
      newOrderResult: 'SUCCESS',
      newOrderCode: 'ok',
    });
    expect(r.cancelReplace!.canceledOrder).toMatchObject({ orderId: '1', clientOrderId: 'b1', status: 'CANCELED', price: 3_000_000n, quantity: 500_000n });
    expect(r.order).toMatchObject({ orderId: '2', status: 'NEW', price: 3_750_000n, quantity: 400_000n });
    expect(r.events.map((x) => x.type)).toEqual(['orderUpdated', 'depthChanged', 'orderAccepted', 'depthChanged', 'balanceChanged']);
    expect(r.events[4]).toMatchObject({ owner: 'bob', asset: 'USDT', available: 0n, frozen: 15_000n * COIN });
    expect(bal(e, 'bob', 'USDT')).toEqual([0n, 15_000n * COIN]);
    expect(e.openOrders('bob').map((o) => o.orderId)).toEqual(['2']);
    expect(e.depth('BTC/USDT', 5)).toEqual({ bids: [{ price: 3_750_000n, quantity: 400_000n }], asks: [] });
    // again, the rest of the hold back to available
    const r2 = run(e, replace('bob', buy(20_000n * PX, 100_000n), { cancelOrderId: '2' }));
    expect(r2.cancelReplace!.canceledOrder).toMatchObject({ orderId: '2', status: 'CANCELED' });
    expect(bal(e, 'bob', 'USDT')).toEqual([13_000n * COIN, 2_000n * COIN]);
  });

  it('STOP_ON_FAILURE: an order it cannot cancel places nothing and changes nothing (code of the cancel, NOT_ATTEMPTED)', () => {
    const e = bobsBid();
    fund(e, 'carol', 'USDT', 50_000n * COIN);
    const hash = e.stateHash();
    const cases: Array<[string, Extra, boolean]> = [
      ['bob', { cancelOrderId: '99' }, false],
      ['bob', { cancelClientOrderId: 'nope' }, false],
      ['carol', { cancelOrderId: '1' }, false],
      ['carol', { cancelClientOrderId: 'b1' }, false],
      ['bob', { cancelOrderId: '1', cancelClientOrderId: 'other' }, false],
      ['bob', { cancelOrderId: '1', cancelRestriction: 'ONLY_PARTIALLY_FILLED' }, true],
    ];
    for (const [user, extra, restricted] of cases) {
      const r = run(e, replace(user, buy(29_000n * PX, 100_000n), extra));
      expect([r.code, r.events, r.order]).toEqual(['order_not_found', [], undefined]);
      expect(r.cancelReplace).toEqual({
        cancelResult: 'FAILURE',
        cancelCode: 'order_not_found',
        cancelRestricted: restricted,
        canceledOrder: null,
        newOrderResult: 'NOT_ATTEMPTED',
        newOrderCode: null,
      });
      expect(e.stateHash()).toBe(hash);
    }
    // ONLY_NEW on a NEW order cancels it
    expect(run(e, replace('bob', buy(29_000n * PX, 100_000n), { cancelOrderId: '1', cancelRestriction: 'ONLY_NEW' })).cancelReplace?.cancelResult).toBe(
      'SUCCESS',
    );
    expect(bal(e, 'bob', 'USDT')).toEqual([12_100n * COIN, 2_900n * COIN]);
  });

  it('ALLOW_FAILURE: a failed cancel still places the new order; both failing changes nothing', () => {
    const e = bobsBid();
    fund(e, 'carol', 'USDT', 3_000n * COIN);
    const r = run(e, replace('carol', buy(29_000n * PX, 100_000n), { mode: 'ALLOW_FAILURE', cancelOrderId: '1' }));
    expect(r.code).toBe('ok');
    expect(r.cancelReplace).toMatchObject({ cancelResult: 'FAILURE', cancelCode: 'order_not_found', newOrderResult: 'SUCCESS', newOrderCode: 'ok' });
    expect(r.order).toMatchObject({ orderId: '2', userId: 'carol', status: 'NEW' });
    expect(bal(e, 'carol', 'USDT')).toEqual([100n * COIN, 2_900n * COIN]);
    expect(bal(e, 'bob', 'USDT')).toEqual([0n, 15_000n * COIN]);
    const hash = e.stateHash();
    const both = run(e, replace('carol', buy(29_000n * PX, 100_000n), { mode: 'ALLOW_FAILURE', cancelOrderId: '1' }));
    expect([both.code, both.events]).toEqual(['order_not_found', []]);
    expect(both.cancelReplace).toMatchObject({ cancelResult: 'FAILURE', newOrderResult: 'FAILURE', newOrderCode: 'insufficient_balance' });
    expect(e.stateHash()).toBe(hash);
  });

  it('a placement refused after the cancel leaves the order cancelled and its hold released (the partial failure)', () => {
    const e = bobsBid();
    fund(e, 'alice', 'BTC', COIN);
    ok(e, limit('alice', 'SELL', 31_000n * PX, QTY));
    const r = run(e, replace('bob', buy(31_000n * PX, 100_000n, 'POST_ONLY'), { cancelOrderId: '1' }));
    expect(r.code).toBe('ok');
    expect(r.cancelReplace).toMatchObject({ cancelResult: 'SUCCESS', newOrderResult: 'FAILURE', newOrderCode: 'would_take_liquidity' });
    expect(r.order).toBeUndefined();
    expect(r.events.map((x) => x.type)).toEqual(['orderUpdated', 'depthChanged', 'balanceChanged']);
    expect(bal(e, 'bob', 'USDT')).toEqual([15_000n * COIN, 0n]);
    expect(e.openOrders('bob')).toEqual([]);
  });

  it('ONLY_PARTIALLY_FILLED replaces a partly filled SELL with the base it still holds; the new order may trade', () => {
    const e = engineWithMarket();
    fund(e, 'alice', 'BTC', COIN);
    fund(e, 'bob', 'USDT', 100_000n * COIN);
    ok(e, limit('alice', 'SELL', 30_000n * PX, QTY));
    ok(e, market('bob', 'BUY', { quantity: 400_000n }));
    expect(bal(e, 'alice', 'BTC')).toEqual([0n, 60_000_000n]);
    ok(e, limit('bob', 'BUY', 29_000n * PX, 100_000n));
    const r = run(
      e,
      replace(
        'alice',
        { side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: 29_000n * PX, quantity: 600_000n },
        { cancelOrderId: '1', cancelRestriction: 'ONLY_PARTIALLY_FILLED' },
      ),
    );
    expect(r.cancelReplace).toMatchObject({ cancelResult: 'SUCCESS', newOrderResult: 'SUCCESS' });
    expect(r.cancelReplace!.canceledOrder).toMatchObject({ orderId: '1', status: 'CANCELED', filledQty: 400_000n });
    // alice made 12,000 USDT less the 0.1% maker fee (12), then takes bob's bid for 0.1 BTC: 2,900 less 0.2% (5.8)
    expect(r.order).toMatchObject({ orderId: '4', status: 'PARTIALLY_FILLED', filledQty: 100_000n });
    expect(bal(e, 'alice', 'BTC')).toEqual([0n, 50_000_000n]);
    expect(bal(e, 'alice', 'USDT')).toEqual([12_000n * COIN - 12n * COIN + 2_900n * COIN - 580_000_000n, 0n]);
  });

  it('refuses a malformed command or an unknown market before either step', () => {
    const e = bobsBid();
    const hash = e.stateHash();
    const bad: Array<[Command, string]> = [
      [{ ...replace('bob', buy(1n, 1n), { cancelOrderId: '1' }), mode: 'SOMETIMES' } as unknown as Command, 'invalid_order'],
      [replace('bob', buy(1n, 1n), {}), 'invalid_order'],
      [{ ...replace('bob', buy(1n, 1n), { cancelOrderId: '1' }), cancelRestriction: 'NEVER' } as unknown as Command, 'invalid_order'],
      [{ ...replace('bob', buy(1n, 1n), { cancelOrderId: '1' }), order: null } as unknown as Command, 'invalid_order'],
      [replace('bob', buy(1n, 1n), { cancelOrderId: '1', symbol: 'ETH/USDT' }), 'market_not_found'],
    ];
    for (const [cmd, code] of bad) {
      const r = run(e, cmd);
      expect([r.code, r.events, r.cancelReplace]).toEqual([code, [], undefined]);
    }
    expect(e.stateHash()).toBe(hash);
  });

  it('survives the journal encodings and a snapshot round trip (a restored engine gives the same state hash)', () => {
    const e = bobsBid();
    const cmd = replace(
      'bob',
      { ...buy(37_500n * PX, 400_000n), clientOrderId: 'b2', stp: 'NONE' },
      { cancelOrderId: '1', cancelClientOrderId: 'b1', cancelRestriction: 'ONLY_NEW' },
    );
    expect(decodeCommand(encodeCommand(cmd))).toEqual(cmd);
    expect(parseCommand(serializeCommand(cmd))).toEqual(cmd);
    const twin = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())) as ReturnType<Engine['snapshot']>);
    expect(run(e, cmd).code).toBe('ok');
    expect(run(twin, decodeCommand(encodeCommand(cmd))).code).toBe('ok');
    expect(twin.stateHash()).toBe(e.stateHash());
    expect(Engine.restore(JSON.parse(JSON.stringify(e.snapshot())) as ReturnType<Engine['snapshot']>).stateHash()).toBe(e.stateHash());
    // a retry of the same command: the cancel fails, STOP_ON_FAILURE places nothing
    expect(run(e, { ...cmd, ts: nextTs() }).cancelReplace).toMatchObject({ cancelResult: 'FAILURE', newOrderResult: 'NOT_ATTEMPTED' });
  });
});
