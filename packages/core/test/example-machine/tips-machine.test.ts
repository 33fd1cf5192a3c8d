/**
 * Proves that a machine given by the host (src/machine.ts) runs inside the engine with no edit of the core's root:
 * the worked example's commands are routed, its reads answered, its rejections closed (nothing changes), its repeats
 * idempotent; an engine given it writes the same snapshot and hash as one not given it until its first tip, then its
 * rows under its name, restored only by an engine given it again; the journal's codecs carry its command; the engine
 * refuses a machine that would take a snapshot field, a routed command or a read it has. Against an independent model
 * of the rule (a map of SPOT balances), random tips and deposits by colluding users never take more than a sender holds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCommand, encodeCommand, parseCommand, serializeCommand } from '../../src/codec';
import { Engine, type EngineOptions } from '../../src/engine';
import type { EngineApi } from '../../src/engine-api';
import type { EngineMachine } from '../../src/machine';
import type { Command } from '../../src/types';
import { COIN, engineWithMarket, fund, nextTs, ok } from '../fixtures';
import { tipsMachine } from './tips-machine';

const given: EngineOptions = { machines: [tipsMachine] };

/** An engine with the market, users 1..n registered (user 3 frozen when `frozen`), each holding `usdt` on SPOT. */
function setup(opts: EngineOptions | undefined, n = 3, usdt = 100n * COIN, frozen = false): Engine {
  const e = engineWithMarket({}, opts);
  ok(e, { type: 'genesis', ts: nextTs(), journalId: 'j-tips' });
  for (let i = 1; i <= n; i++) {
    ok(e, { type: 'registerUser', ts: nextTs(), account: `u${i}@example.com`, uniqueKeys: [], profile: frozen && i === 3 ? { frozen: '1' } : {} });
    fund(e, `${i}`, 'USDT', usdt);
  }
  return e;
}

const tip = (userId: string, toUserId: string, amount: bigint, clientId: string, asset = 'USDT'): Command => ({
  type: 'tipSend',
  ts: nextTs(),
  userId,
  toUserId,
  asset,
  amount,
  clientId,
});

describe('a machine given by the host (the tips example)', () => {
  it('changes no snapshot or hash until its first accepted command', () => {
    const without = setup(undefined);
    const withTips = setup(given);
    expect(withTips.snapshot()).toEqual(without.snapshot());
    expect(withTips.stateHash()).toBe(without.stateHash());
    expect(withTips.execute(tip('1', '1', COIN, 'x')).code).toBe('tip_to_self');
    expect(withTips.stateHash()).toBe(without.stateHash());
  });

  it('routes its command, moves the money through the ledger and answers its read', () => {
    const e = setup(given);
    const r = e.execute(tip('1', '2', 30n * COIN, 'a'));
    expect(r.code).toBe('ok');
    expect(r.events.map((ev) => ev.type)).toEqual(['tipSent', 'balanceChanged', 'balanceChanged']);
    expect(e.balance('1', 'SPOT', 'USDT').available).toBe(70n * COIN);
    expect(e.balance('2', 'SPOT', 'USDT').available).toBe(130n * COIN);
    const api: EngineApi = e;
    expect(api.tipsSent('1')).toEqual({ count: 1, total: { USDT: 30n * COIN } });
    expect(api.tipsSent('2')).toBeUndefined();
    expect([...e.assetTotals().values()].every((t) => t === 0n)).toBe(true);
  });

  it('answers each rejection of its closed list and changes nothing; a repeat moves nothing', () => {
    const e = setup(given, 3, 100n * COIN, true);
    ok(e, tip('1', '2', COIN, 'first'));
    const before = e.stateHash();
    const cases: [Command, string][] = [
      [tip('1', '9', COIN, 'b'), 'user_not_found'],
      [tip('1', '1', COIN, 'b'), 'tip_to_self'],
      [tip('3', '1', COIN, 'b'), 'account_frozen'],
      [tip('1', '2', COIN, 'b', 'DOGE'), 'asset_not_found'],
      [tip('1', '2', 0n, 'b'), 'amount_invalid'],
      [tip('1', '2', -COIN, 'b'), 'amount_invalid'],
      [tip('1', '2', 100n * COIN, 'b'), 'insufficient_balance'],
    ];
    for (const [cmd, code] of cases) {
      const r = e.execute(cmd);
      expect([r.code, r.events]).toEqual([code, []]);
    }
    const repeat = e.execute(tip('1', '2', COIN, 'first'));
    expect([repeat.code, repeat.events]).toEqual(['ok', []]);
    expect(e.stateHash()).toBe(before);
  });

  it('keeps its rows under its name, restored only by an engine given it again', () => {
    const e = setup(given);
    ok(e, tip('1', '2', 5n * COIN, 'a'));
    ok(e, tip('2', '1', 2n * COIN, 'b'));
    const snap = JSON.parse(JSON.stringify(e.snapshot())) as ReturnType<Engine['snapshot']>;
    expect(Object.keys(snap).at(-1)).toBe('tips');
    const back = Engine.restore(snap, given);
    expect(back.stateHash()).toBe(e.stateHash());
    expect(back.tipsSent('2')).toEqual({ count: 1, total: { USDT: 2n * COIN } });
    // the restored state runs on: a repeat of an accepted client id still moves nothing
    expect(back.execute(tip('1', '2', 5n * COIN, 'a')).events).toEqual([]);
    expect(() => Engine.restore(snap)).toThrow(/machine tips, which the engine was not given/);
  });

  it('replays from its journal to the same state, through the journal codecs', () => {
    const journal: Command[] = [];
    const e = setup(given);
    const record = (c: Command) => {
      journal.push(c);
      return e.execute(c);
    };
    record(tip('1', '2', 3n * COIN, 'a'));
    record(tip('2', '3', 1n * COIN, 'b'));
    record(tip('3', '3', 1n * COIN, 'c'));
    for (const c of journal) {
      expect(decodeCommand(encodeCommand(c))).toEqual(c);
      expect(parseCommand(serializeCommand(c))).toEqual(c);
    }
    const replay = setup(given);
    for (const c of journal) replay.execute(decodeCommand(encodeCommand(c)));
    expect(replay.stateHash()).toBe(e.stateHash());
  });

  it('refuses a machine that takes a snapshot field, a routed command or a read the engine has', () => {
    const named = (name: string): EngineMachine => ({ ...tipsMachine, name });
    expect(() => new Engine({ machines: [named('perp')] })).toThrow(/may not be named/);
    expect(() => new Engine({ machines: [tipsMachine, tipsMachine] })).toThrow(/may not be named/);
    expect(() => new Engine({ machines: [{ ...tipsMachine, commands: ['placeOrder'] }] })).toThrow(/placeOrder is routed to two machines/);
    expect(() => new Engine({ machines: [{ ...tipsMachine, reads: ['balance'] }] })).toThrow(/read balance/);
  });

  it('colluding users never send more than they hold (an independent model of the rule)', () => {
    const users = ['1', '2', '3'];
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('tip' as const),
        from: fc.constantFrom(...users),
        to: fc.constantFrom(...users),
        amount: fc.bigInt(-2n, 150n),
        id: fc.nat(5),
      }),
      fc.record({ kind: fc.constant('deposit' as const), to: fc.constantFrom(...users), amount: fc.bigInt(1n, 50n) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const e = setup(given, 3, 100n);
        // the model: SPOT balances and the accepted (sender, client id) pairs, from the rule in tips-machine.ts
        const spot = new Map(users.map((u) => [u, 100n]));
        const seen = new Set<string>();
        for (const o of ops) {
          if (o.kind === 'deposit') {
            fund(e, o.to, 'USDT', o.amount);
            spot.set(o.to, spot.get(o.to)! + o.amount);
            continue;
          }
          const r = e.execute(tip(o.from, o.to, o.amount, `c${o.id}`));
          const repeat = seen.has(`${o.from}/${o.id}`);
          const accepted = o.from !== o.to && o.amount > 0n && (repeat || spot.get(o.from)! >= o.amount);
          expect(r.code === 'ok').toBe(accepted);
          if (accepted && !repeat) {
            seen.add(`${o.from}/${o.id}`);
            spot.set(o.from, spot.get(o.from)! - o.amount);
            spot.set(o.to, spot.get(o.to)! + o.amount);
          }
        }
        for (const u of users) expect(e.balance(u, 'SPOT', 'USDT').available).toBe(spot.get(u));
        expect(e.assetTotals().get('USDT')).toBe(0n);
      }),
      { numRuns: 200 },
    );
  });
});
