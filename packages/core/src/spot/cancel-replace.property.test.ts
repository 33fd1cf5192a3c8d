/**
 * cancelReplaceOrder against an independent model written from Binance's published rule (spot "Cancel an Existing
 * Order and Send a New Order": the cancel, then the new order; STOP_ON_FAILURE places nothing when the cancel fails,
 * ALLOW_FAILURE places anyway; cancelRestrictions ONLY_NEW / ONLY_PARTIALLY_FILLED cancel only an order of that
 * status) and the spot hold rule (a LIMIT BUY holds price x quantity of the quote; a cancel releases what the order
 * holds). A user with a small deposit places resting BUYs under a market maker's ask, so nothing fills and every
 * order stays NEW, then cancel-replaces them (or orders that are not theirs or do not exist) at random. The model
 * keeps the user's available balance and open orders; for each replace it says which step succeeds: the new order
 * is accepted exactly when its cost is within the available balance plus what the cancelled order released (nothing
 * in between), and the engine must agree on both results, the code, the balance to the unit and the open orders; a
 * replace that succeeds in no step leaves the state hash as it was. Units as test/fixtures.ts (quote units = price
 * units x qty units).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../engine';
import type { CancelReplaceMode } from '../types';
import { COIN, engineWithMarket, fund, limit, nextTs, ok, PX, QTY } from '../../test/fixtures';
import { checkInvariants } from '../../test/invariants';

const ASK = 40_000n * PX;
const price = fc.bigInt({ min: 20_000n * PX, max: ASK - 1n });
const qty = fc.bigInt({ min: 1_000n, max: 200_000n });
type Op =
  | { kind: 'place'; price: bigint; qty: bigint }
  | {
      kind: 'replace';
      pick: number;
      /** 0: one of the user's open orders; 1: an id no order has; 2: the market maker's ask (another user's) */
      target: number;
      byClientId: boolean;
      mode: CancelReplaceMode;
      restriction: 'ONLY_NEW' | 'ONLY_PARTIALLY_FILLED' | undefined;
      price: bigint;
      qty: bigint;
    };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('place' as const), price, qty }),
  fc.record({
    kind: fc.constant('replace' as const),
    pick: fc.nat(),
    target: fc.constantFrom(0, 0, 0, 0, 1, 2),
    byClientId: fc.boolean(),
    mode: fc.constantFrom<CancelReplaceMode>('STOP_ON_FAILURE', 'ALLOW_FAILURE'),
    restriction: fc.constantFrom(undefined, undefined, 'ONLY_NEW' as const, 'ONLY_PARTIALLY_FILLED' as const),
    price,
    qty,
  }),
);

/** The model's open order: its id, client id and what it holds (price x quantity, quote units). */
interface ModelOrder {
  id: string;
  cid: string;
  hold: bigint;
}

describe('cancelReplaceOrder against the published rule', () => {
  it('property: the new order may use exactly the funds the cancelled one held; each mode and restriction as Binance documents', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1_000n, max: 20_000n }), fc.array(op, { minLength: 1, maxLength: 30 }), (depositUsdt, ops) => {
        const e: Engine = engineWithMarket();
        fund(e, 'mm', 'BTC', 10n * COIN);
        const ask = ok(e, limit('mm', 'SELL', ASK, QTY)).order!.orderId;
        fund(e, 'adv', 'USDT', depositUsdt * COIN);
        let available = depositUsdt * COIN;
        let open: ModelOrder[] = [];
        let n = 0;
        for (const o of ops) {
          const cid = `c${++n}`;
          const cost = o.price * o.qty;
          if (o.kind === 'place') {
            const r = e.execute(limit('adv', 'BUY', o.price, o.qty, 'GTC', { clientOrderId: cid }));
            checkInvariants(e, r);
            expect(r.code).toBe(cost <= available ? 'ok' : 'insufficient_balance');
            if (r.code === 'ok') {
              available -= cost;
              open.push({ id: r.order!.orderId, cid, hold: cost });
            }
          } else {
            const target = open.length > 0 && o.target === 0 ? open[o.pick % open.length] : undefined;
            const name =
              target !== undefined
                ? o.byClientId
                  ? { cancelClientOrderId: target.cid }
                  : { cancelOrderId: target.id }
                : o.target === 2
                  ? { cancelOrderId: ask }
                  : o.byClientId
                    ? { cancelClientOrderId: 'none' }
                    : { cancelOrderId: '999999' };
            // the model: the cancel succeeds for the user's own open order unless the restriction asks for another
            // status (nothing fills here, so every order is NEW); the placement is attempted unless STOP_ON_FAILURE
            // stopped it, and succeeds when the cost is within the balance after the cancel
            const cancelOk = target !== undefined && o.restriction !== 'ONLY_PARTIALLY_FILLED';
            const attempted = cancelOk || o.mode === 'ALLOW_FAILURE';
            const after = available + (cancelOk ? target.hold : 0n);
            const placeOk = attempted && cost <= after;
            const hash = e.stateHash();
            const r = e.execute({
              type: 'cancelReplaceOrder',
              ts: nextTs(),
              userId: 'adv',
              symbol: 'BTC/USDT',
              mode: o.mode,
              ...name,
              ...(o.restriction !== undefined ? { cancelRestriction: o.restriction } : {}),
              order: { side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: o.price, quantity: o.qty, clientOrderId: cid },
            });
            checkInvariants(e, r);
            expect(r.cancelReplace).toMatchObject({
              cancelResult: cancelOk ? 'SUCCESS' : 'FAILURE',
              cancelCode: cancelOk ? 'ok' : 'order_not_found',
              cancelRestricted: target !== undefined && !cancelOk,
              newOrderResult: !attempted ? 'NOT_ATTEMPTED' : placeOk ? 'SUCCESS' : 'FAILURE',
              newOrderCode: !attempted ? null : placeOk ? 'ok' : 'insufficient_balance',
            });
            expect(r.code).toBe(cancelOk || placeOk ? 'ok' : 'order_not_found');
            if (!cancelOk && !placeOk) expect(e.stateHash()).toBe(hash);
            if (cancelOk) {
              expect(r.cancelReplace!.canceledOrder).toMatchObject({ orderId: target.id, status: 'CANCELED' });
              open = open.filter((x) => x !== target);
            }
            available = after;
            if (placeOk) {
              expect(r.order).toMatchObject({ clientOrderId: cid, status: 'NEW', price: o.price, quantity: o.qty });
              available -= cost;
              open.push({ id: r.order!.orderId, cid, hold: cost });
            } else expect(r.order).toBeUndefined();
          }
          const held = open.reduce((s, x) => s + x.hold, 0n);
          const b = e.balance('adv', 'SPOT', 'USDT');
          expect([b.available, b.frozen]).toEqual([available, held]);
          expect(b.available + b.frozen).toBe(depositUsdt * COIN);
          expect(e.openOrders('adv').map((x) => x.orderId)).toEqual(open.map((x) => x.id));
          expect(e.openOrders('mm').map((x) => x.orderId)).toEqual([ask]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
