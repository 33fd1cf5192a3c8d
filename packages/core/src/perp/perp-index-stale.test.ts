/**
 * A perpetual market paused on a stale index (perpMarkPrice with indexStale: the live index has fewer live sources
 * than its minimum). The rule, as Binance applies it: its price index gives a source that stops updating or deviates
 * weight zero (Binance Futures "Price Index" FAQ), and when no trusted index is left the mark price keeps its last value
 * and nothing is liquidated on it; new risk is refused with Binance's reduce-only mode (USDⓈ-M error -4400
 * TRADING_QUANTITATIVE_RULE "only reduceOnly order is allowed"): reduce-only and closing orders and cancels still go.
 *
 * Checked here: the mark, index, basis and premium hold while stale and resume on the next fresh tick; opening or
 * increasing orders (LIMIT, MARKET, conditional, amend upwards) are refused with index_stale; reduce-only orders,
 * closing orders of at most the position's size (kept reduce-only) and cancels are accepted; no liquidation on a
 * stale tick, whatever its informative price; the pause is part of the snapshot and the state hash and replays.
 * A property test runs random sequences against an independent model of the pause.
 *
 * Units (test/perp-fixture.ts): price in 0.1 USDT (400_000n = 40,000.0), quantity in 0.001 BTC.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCommand, encodeCommand } from '../codec';
import { Engine } from '../engine';
import type { Command, CommandResult } from '../types';
import { T0, USDT, ev, order, perpEngine } from '../../test/perp-fixture';

const SYM = 'BTC/USDT';
const P = 400_000n;

function world() {
  const e = perpEngine([
    ['mm', 10_000_000n * USDT],
    ['a', 10_000n * USDT],
    ['b', 10_000n * USDT],
  ]);
  const journal: Command[] = [];
  let ts = T0 + 1000;
  const run = (c: Record<string, unknown>): CommandResult => {
    const cmd = { ts: ts++, ...c } as unknown as Command;
    journal.push(cmd);
    const r = e.execute(cmd);
    for (const [asset, total] of e.assetTotals()) expect(total, `ledger total of ${asset}`).toBe(0n);
    return r;
  };
  const tick = (indexPrice: bigint, indexStale?: boolean) =>
    run({ type: 'perpMarkPrice', symbol: SYM, indexPrice, ...(indexStale === undefined ? {} : { indexStale }) });
  return { e, run, tick, journal, now: () => ts };
}

describe('perpMarkPrice with a stale index', () => {
  it('holds the mark and index, pauses the market from the first stale tick, and a fresh tick resumes it', () => {
    const { e, tick } = world();
    expect(tick(P).code).toBe('ok');
    const before = e.perpMarkState(SYM);
    expect(before?.indexStale).toBe(false);
    expect(before?.indexStaleSince).toBe(null);
    const r = tick(P / 2n, true);
    expect(r.code).toBe('ok');
    const s1 = e.perpMarkState(SYM);
    expect(s1?.markPrice).toBe(P);
    expect(s1?.indexPrice).toBe(P);
    expect(s1?.markTs).toBe(before?.markTs);
    expect(s1?.indexStale).toBe(true);
    const since = s1?.indexStaleSince as number;
    expect(since).toBeGreaterThan(0);
    expect(ev(r, 'markPrice')[0]?.state.indexStale).toBe(true);
    // a second stale tick (even with no price: 0n) keeps the first tick's time
    expect(tick(0n, true).code).toBe('ok');
    expect(e.perpMarkState(SYM)?.indexStaleSince).toBe(since);
    expect(e.perpMarkState(SYM)?.markPrice).toBe(P);
    // a fresh tick (flag absent: old journals) resumes
    expect(tick(P + 100n).code).toBe('ok');
    const s2 = e.perpMarkState(SYM);
    expect(s2?.indexStale).toBe(false);
    expect(s2?.indexStaleSince).toBe(null);
    expect(s2?.markPrice).toBe(P + 100n);
  });

  it('refuses a malformed flag and a zero index on a fresh tick (invalid_config)', () => {
    const { tick, run } = world();
    expect(tick(0n).code).toBe('invalid_config');
    expect(tick(0n, false).code).toBe('invalid_config');
    expect(tick(-1n, true).code).toBe('invalid_config');
    expect(run({ type: 'perpMarkPrice', symbol: SYM, indexPrice: P, indexStale: 'yes' }).code).toBe('invalid_config');
    expect(tick(P, false).code).toBe('ok');
  });

  it('refuses orders that open or increase a position with index_stale; closing, reduce-only and cancels go', () => {
    const { e, run, tick } = world();
    tick(P);
    // a is long 10 (bought from mm's ask); mm keeps both sides quoted
    expect(run(order('mm', 'SELL', P + 10n, 1_000n)).code).toBe('ok');
    expect(run(order('mm', 'BUY', P - 10n, 1_000n)).code).toBe('ok');
    expect(run(order('a', 'BUY', null, 10n)).code).toBe('ok');
    const resting = run(order('a', 'BUY', P - 500n, 5n)).perpOrder?.orderId as string;
    expect(e.position('a', SYM)?.size).toBe(10n);
    tick(P, true);
    // opening (b has no position) and increasing (a is long) are refused, whatever the order type
    expect(run(order('b', 'BUY', P - 100n, 5n)).code).toBe('index_stale');
    expect(run(order('b', 'SELL', null, 5n)).code).toBe('index_stale');
    expect(run(order('a', 'BUY', null, 1n)).code).toBe('index_stale');
    // the other side for more than the position would flip it: refused; reduce-only is never refused for the pause
    expect(run(order('a', 'SELL', P + 100n, 11n)).code).toBe('index_stale');
    expect(run(order('b', 'SELL', null, 5n, { reduceOnly: true })).code).toBe('reduce_only_rejected');
    // conditional orders: opening refused, closing accepted
    expect(run(order('b', 'BUY', null, 5n, { condition: 'STOP_MARKET', stopPrice: P + 1_000n })).code).toBe('index_stale');
    expect(run(order('a', 'SELL', null, 0n, { condition: 'STOP_MARKET', stopPrice: P - 1_000n, closePosition: true })).code).toBe('ok');
    // amend: an opening order may not grow or move, it may shrink
    expect(run({ type: 'perpAmendOrder', userId: 'a', orderId: resting, price: P - 400n, quantity: 5n }).code).toBe('index_stale');
    expect(run({ type: 'perpAmendOrder', userId: 'a', orderId: resting, price: P - 500n, quantity: 6n }).code).toBe('index_stale');
    expect(run({ type: 'perpAmendOrder', userId: 'a', orderId: resting, price: P - 500n, quantity: 4n }).code).toBe('ok');
    expect(run({ type: 'perpCancelOrder', userId: 'a', orderId: resting }).code).toBe('ok');
    // a closing order without the flag is accepted and kept reduce-only (no margin held)
    const close = run(order('a', 'SELL', P + 200n, 4n));
    expect(close.code).toBe('ok');
    expect(close.perpOrder?.reduceOnly).toBe(true);
    expect(close.perpOrder?.hold).toBe(0n);
    expect(run(order('a', 'SELL', null, 3n, { reduceOnly: true })).code).toBe('ok');
    expect(e.position('a', SYM)?.size).toBe(7n);
    expect(e.position('b', SYM)).toBeUndefined();
    // resumed: b may open
    tick(P);
    expect(run(order('b', 'BUY', null, 5n)).code).toBe('ok');
    expect(e.position('b', SYM)?.size).toBe(5n);
  });

  it('expires a conditional order that triggers while paused and would open a position (index_stale)', () => {
    const { e, run, tick } = world();
    tick(P);
    expect(run(order('mm', 'SELL', P + 10n, 1_000n)).code).toBe('ok');
    expect(run(order('mm', 'BUY', P - 10n, 1_000n)).code).toBe('ok');
    expect(run(order('a', 'SELL', null, 10n)).code).toBe('ok'); // a short 10; last price P - 10
    const stop = run(order('b', 'BUY', null, 5n, { condition: 'STOP_MARKET', stopPrice: P + 5n }));
    expect(stop.code).toBe('ok');
    tick(P, true);
    // a closes part of its short at the ask: the last price P + 10 crosses b's stop, whose opening order is refused
    expect(run(order('a', 'BUY', null, 5n, { reduceOnly: true })).code).toBe('ok');
    const o = e.perpOrder(stop.perpOrder?.orderId as string);
    expect(o?.status).toBe('EXPIRED');
    expect(o?.condition?.expireReason).toBe('index_stale');
    expect(e.position('b', SYM)).toBeUndefined();
  });

  it('liquidates nobody on a stale tick, whatever its price; the fresh tick after it does', () => {
    const { e, run, tick } = world();
    tick(P);
    run({ type: 'perpSetLeverage', userId: 'a', symbol: SYM, leverage: 100 });
    run({ type: 'perpSetMarginMode', userId: 'a', symbol: SYM, marginMode: 'ISOLATED' });
    expect(run(order('mm', 'SELL', P, 100n)).code).toBe('ok');
    expect(run(order('a', 'BUY', null, 100n)).code).toBe('ok');
    // 40,000 -> 30,000: far past a 100x long's liquidation price
    const stale = tick(300_000n, true);
    expect(ev(stale, 'liquidated')).toHaveLength(0);
    expect(e.position('a', SYM)?.size).toBe(100n);
    expect(e.perpMarkState(SYM)?.markPrice).toBe(P);
    const fresh = tick(300_000n);
    expect(ev(fresh, 'liquidated').map((l) => l.userId)).toEqual(['a']);
  });

  it('keeps the pause in the snapshot and the state hash; a replay of the journal gives the same hash', () => {
    const { e, tick, run, journal } = world();
    tick(P);
    const fresh = e.snapshot();
    expect(JSON.stringify(fresh)).not.toContain('indexStaleSince');
    const h0 = e.stateHash();
    tick(P, true);
    expect(e.stateHash()).not.toBe(h0);
    const restored = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())) as ReturnType<Engine['snapshot']>);
    expect(restored.stateHash()).toBe(e.stateHash());
    expect(restored.perpMarkState(SYM)?.indexStale).toBe(true);
    expect(run(order('b', 'BUY', null, 5n)).code).toBe('index_stale');
    const base = perpEngine([
      ['mm', 10_000_000n * USDT],
      ['a', 10_000n * USDT],
      ['b', 10_000n * USDT],
    ]);
    // the journal's encoding keeps the flag (a record round-trips exactly)
    const staleTick = journal.find((c) => c.type === 'perpMarkPrice' && c.indexStale === true) as Command;
    expect(decodeCommand(encodeCommand(staleTick))).toEqual(staleTick);
    for (const c of journal) base.execute(decodeCommand(encodeCommand(c)));
    expect(base.stateHash()).toBe(e.stateHash());
  });
});

type Op =
  | { kind: 'tick'; stale: boolean; delta: bigint }
  | { kind: 'place'; user: 'a' | 'b'; side: 'BUY' | 'SELL'; market: boolean; off: bigint; qty: bigint; reduceOnly: boolean }
  | { kind: 'cancel'; user: 'a' | 'b'; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('tick' as const), stale: fc.boolean(), delta: fc.bigInt({ min: -2_000n, max: 2_000n }) }),
  fc.record({
    kind: fc.constant('place' as const),
    user: fc.constantFrom('a' as const, 'b' as const),
    side: fc.constantFrom('BUY' as const, 'SELL' as const),
    market: fc.boolean(),
    off: fc.bigInt({ min: -300n, max: 300n }),
    qty: fc.bigInt({ min: 1n, max: 30n }),
    reduceOnly: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('place' as const),
    user: fc.constantFrom('a' as const, 'b' as const),
    side: fc.constantFrom('BUY' as const, 'SELL' as const),
    market: fc.boolean(),
    off: fc.bigInt({ min: -300n, max: 300n }),
    qty: fc.bigInt({ min: 1n, max: 30n }),
    reduceOnly: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('cancel' as const), user: fc.constantFrom('a' as const, 'b' as const), pick: fc.nat() }),
);

describe('the pause, against an independent model', () => {
  it('property: while paused no order placed in the pause opens or grows a position, the mark holds, and replay agrees', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 40 }), (ops) => {
        const { e, run, tick, journal, now } = world();
        tick(P);
        run(order('mm', 'SELL', P + 50n, 5_000n));
        run(order('mm', 'BUY', P - 50n, 5_000n));
        // the model: paused iff the last tick was stale; the mark it holds; the orders that may still open a position
        // (resting, not reduce-only, placed before the pause)
        let paused = false;
        let heldMark = e.perpMarkState(SYM)?.markPrice as bigint;
        let index = P;
        const size = (u: string): bigint => {
          const p = e.position(u, SYM);
          return p === undefined ? 0n : p.side === 'LONG' ? p.size : -p.size;
        };
        const abs = (v: bigint) => (v < 0n ? -v : v);
        const mayOpen = (u: string) => e.perpOpenOrders(u, SYM).some((o) => !o.reduceOnly && o.createdTs < pausedSince);
        let pausedSince = 9_007_199_254_740_991;
        for (const op of ops) {
          const before = { a: size('a'), b: size('b') };
          const couldOpen = { a: mayOpen('a'), b: mayOpen('b') };
          if (op.kind === 'tick') {
            index = index + op.delta > 1_000n ? index + op.delta : index;
            const ts = now();
            const r = tick(index, op.stale);
            expect(r.code).toBe('ok');
            if (op.stale) {
              expect(ev(r, 'liquidated')).toHaveLength(0);
              if (!paused) pausedSince = ts;
              paused = true;
              expect(e.perpMarkState(SYM)?.markPrice).toBe(heldMark);
            } else {
              paused = false;
              pausedSince = 9_007_199_254_740_991;
              heldMark = e.perpMarkState(SYM)?.markPrice as bigint;
            }
          } else if (op.kind === 'place') {
            const price = op.market ? null : (e.perpMarkState(SYM)?.markPrice as bigint) + op.off;
            const r = run(order(op.user, op.side, price, op.qty, op.reduceOnly ? { reduceOnly: true } : {}));
            const pos = before[op.user];
            const closes = pos !== 0n && pos > 0n === (op.side === 'SELL') && op.qty <= abs(pos);
            if (paused && !op.reduceOnly && !closes) expect(r.code).toBe('index_stale');
            if (r.code === 'index_stale') expect(paused).toBe(true);
            if (paused && r.code === 'ok') expect(r.perpOrder?.reduceOnly).toBe(true);
          } else {
            const open = e.perpOpenOrders(op.user, SYM);
            const o = open.length === 0 ? undefined : open[op.pick % open.length];
            if (o !== undefined) expect(run({ type: 'perpCancelOrder', userId: op.user, orderId: o.orderId }).code).toBe('ok');
          }
          const st = e.perpMarkState(SYM);
          expect(st?.indexStale).toBe(paused);
          if (paused) {
            expect(st?.markPrice).toBe(heldMark);
            for (const u of ['a', 'b'] as const) if (!couldOpen[u]) expect(abs(size(u)) <= abs(before[u]), `${u} grew while paused`).toBe(true);
          }
        }
        const replay = perpEngine([
          ['mm', 10_000_000n * USDT],
          ['a', 10_000n * USDT],
          ['b', 10_000n * USDT],
        ]);
        for (const c of journal) replay.execute(c);
        expect(replay.stateHash()).toBe(e.stateHash());
        expect(Engine.restore(JSON.parse(JSON.stringify(e.snapshot())) as ReturnType<Engine['snapshot']>).stateHash()).toBe(e.stateHash());
      }),
      { numRuns: 150 },
    );
  });
});
