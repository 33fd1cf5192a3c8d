/**
 * Property tests of conditional perpetual orders against a model written from Binance USDⓈ-M's published rules, not
 * from perp-conditional.ts: over random mark and last price paths, every pending order triggers in exactly the command
 * after which the model says its condition first holds (STOP BUY price >= stopPrice, SELL <=; TAKE_PROFIT the reverse;
 * TRAILING_STOP_MARKET SELL at price <= highest since activation x (1 - callbackRate), BUY at >= lowest x (1 +
 * callbackRate), activation when the price reaches activationPrice, from placement without one; priceProtect: not
 * while |mark - last| > triggerProtect x mark), at most once, never on a command where it does not hold; placement is
 * refused would_trigger_immediately (-2021) exactly when the model says. Cancelled orders never trigger. The ledger's
 * totals and the clearing identity are checked after every command.
 *
 * How: the book is empty whenever a check runs (each trade is a maker of 1 taken whole by a MARKET taker), so the
 * mark equals the index sent and the last price is the trade price sent: the model knows both without the engine.
 * Triggered orders are MARKET or LIMIT IOC and expire in the empty book (no_liquidity or unfilled), so they never move
 * the price. From a random step on, an engine restored from a snapshot runs beside it and must give the same results
 * and state hash after every command (pending orders, trailing references and trigger state survive a restore). The
 * second property: a user cannot open through conditional orders more than the margin allows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine';
import type { Command, CommandResult } from '../types';
import type { PerpOrderView } from './types';
import { T0, USDT, perpEngine, order } from '../../test/perp-fixture';

const SYM = 'BTC/USDT';
const P = 400_000n;
const PROTECT_PPM = 20_000n; // 2%: often exceeded on the generated paths (the market's triggerProtectPpm below)

/** Runs commands, checking the ledger totals and the clearing identity after each. */
class Runner {
  ts = T0 + 1000;
  /** An engine restored from a snapshot taken mid-stream: it must answer every later command exactly alike. */
  twin: Engine | null = null;
  constructor(
    readonly e: Engine,
    readonly users: string[],
  ) {}
  run(c: Record<string, unknown>): CommandResult {
    const cmd = { ts: this.ts++, ...c } as unknown as Command;
    const r = this.e.execute(cmd);
    if (this.twin !== null) {
      expect(this.twin.execute(cmd)).toEqual(r);
      expect(this.twin.stateHash()).toBe(this.e.stateHash());
    }
    for (const [asset, total] of this.e.assetTotals()) expect(total, `ledger total of ${asset}`).toBe(0n);
    let books = 0n;
    for (const u of [...this.users, '@insurance']) for (const p of this.e.positions(u)) books += p.side === 'LONG' ? p.cost : -p.cost;
    expect(this.e.balance('@clearing', 'SYSTEM', 'USDT').available + books, 'clearing identity').toBe(0n);
    return r;
  }
}

type Type = 'STOP' | 'TAKE_PROFIT' | 'STOP_MARKET' | 'TAKE_PROFIT_MARKET' | 'TRAILING_STOP_MARKET';
type Side = 'BUY' | 'SELL';

/** The model's view of one order, from Binance's rules. */
interface ModelOrder {
  id: string;
  type: Type;
  side: Side;
  stop: bigint | null;
  mark: boolean; // workingType MARK_PRICE
  protect: boolean;
  cbBps: bigint;
  act: bigint | null;
  /** trailing: the working prices seen since activation (null: not activated) */
  seen: bigint[] | null;
  done: boolean;
}

/** Binance's stop condition table. */
function stopHolds(type: Type, side: Side, stop: bigint, p: bigint): boolean {
  if (type === 'STOP' || type === 'STOP_MARKET') return side === 'BUY' ? p >= stop : p <= stop;
  return side === 'BUY' ? p <= stop : p >= stop;
}

/** Whether the order is due at (mark, last), updating its trailing history as Binance's trailing stop describes. */
function modelDue(o: ModelOrder, mark: bigint, last: bigint | null): boolean {
  const p = o.mark ? mark : last;
  if (p === null) return false;
  let holds: boolean;
  if (o.type === 'TRAILING_STOP_MARKET') {
    if (o.seen === null) {
      if (o.act === null || (o.side === 'SELL' ? p >= o.act : p <= o.act)) o.seen = [p];
      return false;
    }
    o.seen.push(p);
    if (o.side === 'SELL') {
      const hi = o.seen.reduce((a, b) => (b > a ? b : a));
      holds = p * 10_000n <= hi * (10_000n - o.cbBps);
    } else {
      const lo = o.seen.reduce((a, b) => (b < a ? b : a));
      holds = p * 10_000n >= lo * (10_000n + o.cbBps);
    }
  } else holds = stopHolds(o.type, o.side, o.stop as bigint, p);
  if (!holds) return false;
  if (o.protect && last !== null) {
    const diff = mark > last ? mark - last : last - mark;
    if (diff * 1_000_000n > mark * PROTECT_PPM) return false;
  }
  return true;
}

type Action =
  | { kind: 'mark'; k: number }
  | { kind: 'trade'; k: number; buy: boolean }
  | { kind: 'place'; type: Type; side: Side; k: number; mark: boolean; protect: boolean; cb: number; act: boolean; close: boolean }
  | { kind: 'cancel'; pick: number };

const grid = (k: number): bigint => P + BigInt(k) * 1_000n;
const arbAction: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('mark' as const), k: fc.integer({ min: -20, max: 20 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('trade' as const), k: fc.integer({ min: -20, max: 20 }), buy: fc.boolean() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      type: fc.constantFrom<Type>('STOP', 'TAKE_PROFIT', 'STOP_MARKET', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'),
      side: fc.constantFrom<Side>('BUY', 'SELL'),
      k: fc.integer({ min: -20, max: 20 }),
      mark: fc.boolean(),
      protect: fc.boolean(),
      cb: fc.constantFrom(10, 50, 100, 200, 500),
      act: fc.boolean(),
      close: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
);

describe('conditional orders against the Binance model', () => {
  it('property: each order triggers exactly when the model says, at most once; -2021 exactly when the model says', () => {
    fc.assert(
      fc.property(fc.array(arbAction, { minLength: 20, maxLength: 60 }), fc.nat(), (actions, splitAt) => {
        const e = perpEngine(
          [
            ['mm', 1_000_000n * USDT],
            ['tk', 1_000_000n * USDT],
            ['c', 1_000_000n * USDT],
          ],
          { triggerProtectPpm: 20_000 },
        );
        const w = new Runner(e, ['mm', 'tk', 'c']);
        let mark = P;
        let last: bigint | null = null;
        const model: ModelOrder[] = [];
        /** After a command at `ts`: the model's due orders have workingTs ts, the others are unchanged. */
        const check = (ts: number): void => {
          for (const o of model) {
            if (o.done) continue;
            const due = modelDue(o, mark, last);
            const v = e.perpOrder(o.id) as PerpOrderView;
            if (due) {
              expect(v.condition?.workingTs, `${o.type} ${o.side} ${String(o.stop)} due at mark ${mark} last ${String(last)}`).toBe(ts);
              o.done = true;
            } else {
              expect(v.condition?.workingTs, `${o.type} ${o.side} ${String(o.stop)} not due at mark ${mark} last ${String(last)}`).toBeNull();
              expect(v.status).toBe('NEW');
            }
          }
          // an order triggered earlier keeps its trigger time (at most once)
        };
        expect(w.run({ type: 'perpMarkPrice', symbol: SYM, indexPrice: mark }).code).toBe('ok');
        const workingTsOf = new Map<string, number>();
        for (const [i, a] of actions.entries()) {
          if (i === splitAt % actions.length) {
            w.twin = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())));
            expect(w.twin.stateHash()).toBe(e.stateHash());
          }
          if (a.kind === 'mark') {
            mark = grid(a.k);
            const ts = w.ts;
            expect(w.run({ type: 'perpMarkPrice', symbol: SYM, indexPrice: mark }).code).toBe('ok');
            expect(e.perpMarkState(SYM)?.markPrice).toBe(mark);
            check(ts);
          } else if (a.kind === 'trade') {
            const px = grid(a.k);
            let ts = w.ts;
            expect(w.run(order('mm', a.buy ? 'SELL' : 'BUY', px, 1n)).code).toBe('ok');
            check(ts);
            ts = w.ts;
            expect(w.run(order('tk', a.buy ? 'BUY' : 'SELL', null, 1n)).code).toBe('ok');
            last = px;
            expect(e.perpMarkState(SYM)?.lastPrice).toBe(px);
            check(ts);
          } else if (a.kind === 'place') {
            const trailing = a.type === 'TRAILING_STOP_MARKET';
            const limit = a.type === 'STOP' || a.type === 'TAKE_PROFIT';
            const close = a.close && (a.type === 'STOP_MARKET' || a.type === 'TAKE_PROFIT_MARKET');
            const px = grid(a.k);
            const cmd = order('c', a.side, limit ? px : null, close ? 0n : 1n, {
              condition: a.type,
              workingType: a.mark ? 'MARK_PRICE' : 'CONTRACT_PRICE',
              ...(limit ? { timeInForce: 'IOC' } : {}),
              ...(trailing ? { callbackRateBps: a.cb } : { stopPrice: px, priceProtect: a.protect }),
              ...(trailing && a.act ? { activationPrice: px } : {}),
              ...(close ? { closePosition: true } : {}),
            });
            // -2021 from the rule: the condition (a trailing order's activation) already holds at the working price
            const p = a.mark ? mark : last;
            const immediate = p !== null && (trailing ? a.act && (a.side === 'SELL' ? px <= p : px >= p) : stopHolds(a.type, a.side, px, p));
            const ts = w.ts;
            const r = w.run(cmd);
            if (immediate) {
              expect(r.code).toBe('would_trigger_immediately');
              expect(r.events).toEqual([]);
            } else {
              expect(r.code).toBe('ok');
              const v = r.perpOrder as PerpOrderView;
              expect(v.condition?.workingTs).toBeNull();
              model.push({
                id: v.orderId,
                type: a.type,
                side: a.side,
                stop: trailing ? null : px,
                mark: a.mark,
                protect: !trailing && a.protect,
                cbBps: BigInt(a.cb),
                act: trailing && a.act ? px : null,
                // without an activation price Binance starts from the price at placement
                seen: trailing && !a.act && p !== null ? [p] : null,
                done: false,
              });
            }
            check(ts);
          } else {
            const live = model.filter((o) => !o.done);
            if (live.length === 0) continue;
            const o = live[a.pick % live.length] as ModelOrder;
            const r = w.run({ type: 'perpCancelOrder', userId: 'c', orderId: o.id });
            expect(r.code).toBe('ok');
            expect(r.perpOrder?.status).toBe('CANCELED');
            o.done = true;
          }
          for (const o of model) {
            const wt = (e.perpOrder(o.id) as PerpOrderView).condition?.workingTs ?? null;
            if (wt !== null) {
              const prev = workingTsOf.get(o.id);
              if (prev !== undefined) expect(wt).toBe(prev);
              workingTsOf.set(o.id, wt);
            }
          }
        }
        // nothing holds margin for user c: every triggered order ended in the empty book, pending ones hold nothing
        expect(e.balance('c', 'CONTRACT', 'USDT')).toEqual({ available: 1_000_000n * USDT, frozen: 0n });
      }),
      { numRuns: 80 },
    );
  });

  it('property (adversary): conditional orders never open more than the margin allows', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 50n, max: 5_000n }),
        fc.array(fc.record({ qty: fc.bigInt({ min: 1n, max: 800n }), limit: fc.boolean() }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 20 }),
        (depositUsdt, orders, leverage) => {
          const e = perpEngine([
            ['mm', 10_000_000n * USDT],
            ['adv', depositUsdt * USDT],
          ]);
          const w = new Runner(e, ['mm', 'adv']);
          expect(w.run({ type: 'perpMarkPrice', symbol: SYM, indexPrice: P }).code).toBe('ok');
          expect(w.run({ type: 'perpSetLeverage', userId: 'adv', symbol: SYM, leverage }).code).toBe('ok');
          expect(w.run(order('mm', 'SELL', P + 1_000n, 10_000n)).code).toBe('ok');
          const ids: string[] = [];
          for (const o of orders) {
            const c = o.limit
              ? order('adv', 'BUY', P + 1_000n, o.qty, { condition: 'STOP', stopPrice: P + 500n, workingType: 'MARK_PRICE' })
              : order('adv', 'BUY', null, o.qty, { condition: 'STOP_MARKET', stopPrice: P + 500n, workingType: 'MARK_PRICE' });
            const r = w.run(c);
            expect(r.code).toBe('ok');
            ids.push((r.perpOrder as PerpOrderView).orderId);
          }
          expect(e.balance('adv', 'CONTRACT', 'USDT')).toEqual({ available: depositUsdt * USDT, frozen: 0n });
          expect(w.run({ type: 'perpMarkPrice', symbol: SYM, indexPrice: P + 500n }).code).toBe('ok');
          const b = e.balance('adv', 'CONTRACT', 'USDT');
          expect(b.available).toBeGreaterThanOrEqual(0n);
          const pos = e.position('adv', SYM);
          const cost = pos?.cost ?? 0n;
          // Binance's rule: initial margin (notional / leverage) plus the fee must fit the balance: the position's
          // notional never exceeds deposit x leverage
          expect(cost).toBeLessThanOrEqual(depositUsdt * USDT * BigInt(leverage));
          expect(pos === undefined || pos.side === 'LONG').toBe(true);
          // every order either filled whole (the book is deep) or expired at the trigger before any fill: the margin
          // check (or the leverage bracket of the position it would make)
          let filled = 0n;
          expect(e.perpOpenOrders('adv')).toEqual([]);
          const views = ids.map((id) => e.perpOrder(id) as PerpOrderView);
          for (const v of views) {
            expect(v.condition?.workingTs).not.toBeNull();
            if (v.status === 'FILLED') filled += v.filledQty;
            else {
              expect(v).toMatchObject({ status: 'EXPIRED', filledQty: 0n });
              expect(['insufficient_balance', 'leverage_too_high']).toContain(v.condition?.expireReason);
            }
          }
          expect(pos?.size ?? 0n).toBe(filled);
          // the first order is placed whenever its own cost fits the untouched balance (a model of Binance's cost)
          const q0 = orders[0]?.qty as bigint;
          const notional0 = (P + 1_000n) * q0 * 10_000n;
          const cost0 = (notional0 + BigInt(leverage) - 1n) / BigInt(leverage) + (notional0 * 500n + 999_999n) / 1_000_000n + 500n * q0 * 10_000n;
          if (cost0 <= depositUsdt * USDT) expect(views[0]?.status).toBe('FILLED');
          else expect(views[0]?.status).toBe('EXPIRED');
        },
      ),
      { numRuns: 60 },
    );
  });
});
