/**
 * CommandApplier: the state a stream gives is the same in every process that reads it, whatever the publishers'
 * clocks, junk messages and engine exceptions, and the same after a snapshot is restored in the middle.
 * Checked against an independent model: a plain Engine fed only the commands that had an effect, with `ts` made
 * monotonic by a running maximum.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Engine, serializeCommand, type Command } from '@exchange/core';
import { TEST_BTC_USDT } from '../engine-host/test-fixtures';
import { CommandApplier, serializeBatch } from './applier';

const setup: Command[] = [
  { type: 'genesis', journalId: 'j-test', ts: 1000 } as Command,
  { type: 'addAsset', asset: { code: 'BTC', scale: 8 }, ts: 1000 } as Command,
  { type: 'addAsset', asset: { code: 'USDT', scale: 8 }, ts: 1000 } as Command,
  { type: 'addMarket', market: TEST_BTC_USDT, ts: 1000 } as Command,
  { type: 'deposit', userId: '1', asset: 'USDT', account: 'SPOT', amount: 10n ** 14n, from: '@faucet', ts: 1000 } as Command,
  { type: 'deposit', userId: '2', asset: 'BTC', account: 'SPOT', amount: 10n ** 10n, from: '@faucet', ts: 1000 } as Command,
];

const body = (c: Command) => Buffer.from(serializeCommand(c), 'utf8');

/** A message of the stream: an order, or junk; `faulty` = the engine throws on it. */
type Msg = { kind: 'order'; user: '1' | '2'; price: number; qty: number; ts: number; faulty: boolean } | { kind: 'junk' };

const msgArb: fc.Arbitrary<Msg> = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      user: fc.constantFrom('1' as const, '2' as const),
      price: fc.integer({ min: 4_990_000, max: 5_010_000 }),
      qty: fc.integer({ min: 1, max: 5_000 }),
      ts: fc.integer({ min: 0, max: 5_000 }),
      faulty: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'junk' as const }) },
);

function orderOf(m: Extract<Msg, { kind: 'order' }>, i: number): Command {
  return {
    type: 'placeOrder',
    userId: m.user,
    symbol: 'BTC/USDT',
    side: m.user === '1' ? 'BUY' : 'SELL',
    orderType: 'LIMIT',
    timeInForce: 'GTC',
    price: BigInt(m.price),
    quantity: BigInt(m.qty),
    clientOrderId: `c${i}`,
    ts: m.ts,
  } as Command;
}

describe('CommandApplier', () => {
  it('gives the model state for any stream (clocks out of order, junk, engine exceptions), also across a snapshot', () => {
    fc.assert(
      fc.property(fc.array(msgArb, { maxLength: 60 }), fc.nat(), (msgs, cut) => {
        const faulty = new Set<number>();
        const bodies: Uint8Array[] = setup.map(body);
        msgs.forEach((m, i) => {
          if (m.kind === 'junk') bodies.push(Buffer.from('{not json', 'utf8'));
          else {
            bodies.push(body(orderOf(m, i)));
            if (m.faulty) faulty.add(setup.length + i + 1);
          }
        });
        // The engine "throws" on the faulty orders (known by their client order id, also during a rebuild).
        const faultyCids = new Set(msgs.flatMap((m, i) => (m.kind === 'order' && m.faulty ? [`c${i}`] : [])));
        const exec = (e: Engine, c: Command) => {
          if (c.type === 'placeOrder' && faultyCids.has(c.clientOrderId ?? '')) {
            e.execute(c); // half-applied, then the bug: the applier must undo it
            throw new Error('bug');
          }
          return e.execute(c);
        };
        const applier = new CommandApplier(null, exec);
        const split = bodies.length === 0 ? 0 : cut % (bodies.length + 1);
        let a = applier;
        for (let i = 0; i < bodies.length; i++) {
          if (i === split) {
            // A process that starts from a snapshot taken here continues identically.
            const snap = a.snapshot();
            a = new CommandApplier(JSON.parse(JSON.stringify(snap)) as typeof snap, exec);
          }
          const rs = a.apply(i + 1, bodies[i]!);
          expect(rs).toHaveLength(1);
          const r = rs[0]!;
          if (i >= setup.length) {
            const m = msgs[i - setup.length]!;
            expect(r.cmd === null).toBe(m.kind === 'junk');
            expect(r.result === null).toBe(m.kind === 'junk' || faulty.has(i + 1));
          }
        }

        // The model: only the commands with an effect, ts = running maximum over every parsed command.
        const model = new Engine();
        let lastTs = 0;
        for (const c of setup) {
          lastTs = Math.max(lastTs, c.ts);
          model.execute({ ...c, ts: lastTs } as Command);
        }
        msgs.forEach((m, i) => {
          if (m.kind === 'junk') return;
          lastTs = Math.max(lastTs, m.ts);
          if (!faulty.has(setup.length + i + 1)) model.execute({ ...orderOf(m, i), ts: lastTs } as Command);
        });
        expect(a.lastSeq).toBe(bodies.length);
        expect(a.lastTs).toBe(lastTs);
        expect(a.engine.stateHash()).toBe(model.stateHash());
        for (const v of a.engine.assetTotals().values()) expect(v).toBe(0n);
      }),
      { numRuns: 60 },
    );
  });

  it('a batch message applies its commands in order, as the same commands one message each would', () => {
    const single = new CommandApplier(null);
    setup.forEach((c, i) => single.apply(i + 1, body(c)));
    const batched = new CommandApplier(null);
    const rs = batched.apply(1, Buffer.from(serializeBatch(setup), 'utf8'));
    expect(rs.map((r) => r.result?.code)).toEqual(setup.map(() => 'ok'));
    expect(rs.every((r) => r.seq === 1)).toBe(true);
    expect(batched.engine.stateHash()).toBe(single.engine.stateHash());
    // A batch with an element that is not a command has no effect at all.
    const bad = batched.apply(2, Buffer.from(`[${serializeCommand(setup[4]!)},{"type":1}]`, 'utf8'));
    expect(bad).toEqual([{ seq: 2, cmd: null, result: null }]);
    expect(batched.engine.stateHash()).toBe(single.engine.stateHash());
  });

  it('refuses a gap or a repeat in the sequence (a bug of the reader)', () => {
    const a = new CommandApplier(null);
    a.apply(1, body(setup[0]!));
    expect(() => a.apply(3, body(setup[1]!))).toThrow(/message 3 after 1/);
    expect(() => a.apply(1, body(setup[1]!))).toThrow(/message 1 after 1/);
  });

  it('refuses a snapshot whose state hash does not match', () => {
    const a = new CommandApplier(null);
    a.apply(1, body(setup[0]!));
    const snap = a.snapshot();
    expect(() => new CommandApplier({ ...snap, stateHash: 'x' })).toThrow(/state hash/);
    expect(new CommandApplier(snap).engine.journalId()).toBe('j-test');
  });
});
