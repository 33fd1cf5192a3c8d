/**
 * The adversary of perpAmendOrder: a user with a small margin balance places resting BUY orders under an ask and
 * then modifies, places and cancels in a random order, trying to hold more resting orders than the margin allows or
 * to free margin while an order stays. Two checks after every command:
 * - against Binance's published rule (USDⓈ-M "Modify Order": the modified order is checked like a new order; open
 *   orders need their initial margin, notional / leverage, from the available balance): the balance never goes
 *   negative, available + frozen is the deposit (nothing fills: every price is under the ask), and the initial margin
 *   of the open orders, sum of price x quantity / leverage, never exceeds the deposit;
 * - amendment is no way around placement: a second engine where the same user places the open orders' current terms
 *   as new orders accepts each modification exactly when the first did and holds exactly the same margin; a refused
 *   modification leaves the state hash as it was.
 *
 * Units (test/perp-fixture.ts): price in 0.1 USDT (400_000n = 40,000.0), quantity in 0.001 BTC, balances 1e-8 USDT;
 * the notional of price p and quantity q is p x q x 10,000 (1e-8 USDT).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../engine';
import type { Command, CommandResult } from '../types';
import type { PerpOrderView } from './types';
import { T0, USDT, perpEngine, order } from '../../test/perp-fixture';

const SYM = 'BTC/USDT';
const P = 400_000n;

type Op = { kind: 'place'; price: bigint; qty: bigint } | { kind: 'amend'; pick: number; price: bigint; qty: bigint } | { kind: 'cancel'; pick: number };

const price = fc.bigInt({ min: P - 20_000n, max: P - 1n });
const qty = fc.bigInt({ min: 1n, max: 400n });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('place' as const), price, qty }),
  fc.record({ kind: fc.constant('amend' as const), pick: fc.nat(), price, qty }),
  fc.record({ kind: fc.constant('amend' as const), pick: fc.nat(), price, qty }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
);

/** A world of the market maker's ask above every generated price and the adversary's deposit. */
function world(depositUsdt: bigint, leverage: number) {
  const e = perpEngine([
    ['mm', 10_000_000n * USDT],
    ['adv', depositUsdt * USDT],
  ]);
  let ts = T0 + 1000;
  const run = (c: Record<string, unknown>): CommandResult => e.execute({ ts: ts++, ...c } as unknown as Command);
  expect(run({ type: 'perpMarkPrice', symbol: SYM, indexPrice: P }).code).toBe('ok');
  expect(run({ type: 'perpSetLeverage', userId: 'adv', symbol: SYM, leverage }).code).toBe('ok');
  expect(run(order('mm', 'SELL', P + 1_000n, 10_000n)).code).toBe('ok');
  return { e, run };
}

const frozenOf = (e: Engine) => e.balance('adv', 'CONTRACT', 'USDT').frozen;

describe('perpAmendOrder, the adversary', () => {
  it('property: modification never holds less than placement would, nor lets open orders exceed the margin', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 20n, max: 3_000n }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(op, { minLength: 1, maxLength: 25 }),
        (deposit, leverage, ops) => {
          const a = world(deposit, leverage);
          for (const o of ops) {
            const open = a.e.perpOpenOrders('adv');
            if (o.kind === 'place') {
              a.run(order('adv', 'BUY', o.price, o.qty));
            } else if (open.length > 0) {
              const target = open[o.pick % open.length] as PerpOrderView;
              if (o.kind === 'cancel') {
                expect(a.run({ type: 'perpCancelOrder', userId: 'adv', orderId: target.orderId }).code).toBe('ok');
              } else {
                // the model: the other open orders and then the new terms, placed fresh by the same user
                const b = world(deposit, leverage);
                for (const other of open) if (other.orderId !== target.orderId) expect(b.run(order('adv', 'BUY', other.price, other.quantity)).code).toBe('ok');
                const fresh = b.run(order('adv', 'BUY', o.price, o.qty));
                const hash = a.e.stateHash();
                const r = a.run({ type: 'perpAmendOrder', userId: 'adv', orderId: target.orderId, price: o.price, quantity: o.qty });
                if (o.price === target.price && o.qty === target.quantity) {
                  expect(r.code).toBe('ok');
                  expect(a.e.stateHash()).toBe(hash);
                } else if (fresh.code === 'ok') {
                  expect(r.code, `modify to ${o.price} x ${o.qty} accepted as a new order is`).toBe('ok');
                  expect(r.perpOrder).toMatchObject({ orderId: target.orderId, price: o.price, quantity: o.qty, status: 'NEW' });
                  expect(frozenOf(a.e)).toBe(frozenOf(b.e));
                } else {
                  expect(r.code, `modify to ${o.price} x ${o.qty} refused as a new order (${fresh.code}) is`).not.toBe('ok');
                  expect(a.e.stateHash()).toBe(hash);
                }
              }
            }
            // Binance's published rule, independent of the engine's formula
            const bal = a.e.balance('adv', 'CONTRACT', 'USDT');
            expect(bal.available).toBeGreaterThanOrEqual(0n);
            expect(bal.available + bal.frozen).toBe(deposit * USDT);
            expect(a.e.position('adv', SYM)).toBeUndefined();
            let initialMargin = 0n;
            for (const x of a.e.perpOpenOrders('adv')) initialMargin += ((x.price ?? 0n) * x.quantity * 10_000n) / BigInt(leverage);
            expect(initialMargin).toBeLessThanOrEqual(deposit * USDT);
            expect(bal.frozen).toBeGreaterThanOrEqual(initialMargin);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
