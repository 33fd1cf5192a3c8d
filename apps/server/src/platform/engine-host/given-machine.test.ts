/**
 * Proves that a machine a domain module brings (DomainModule.machine, @exchange/core machine.ts) is given to every
 * engine a host or a replica makes: the embedded host runs its commands, recovers its state from a snapshot and from
 * the journal after it, and refuses to start without it when a snapshot holds its state (a replay from an older state
 * would refuse its acknowledged commands); the scale-out replica's applier applies it from a snapshot; `machinesOf`
 * collects the modules' machines in order.
 */
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Command, CommandResult, EngineMachine, MachineHost, MachineState } from '@exchange/core';
import { MemoryFs } from './memory-fs';
import { MemoryProjectionStore } from '../db/projection-store';
import { createEngineHost, type EngineHost } from './engine-host';
import { CommandApplier } from '../engine-port/applier';
import { machinesOf } from '../domain-module';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

/** A counter per user: `counterAdd` adds `n` (1..100) to the user's count; the read `counterOf`. */
class CounterState implements MachineState {
  readonly counts = new Map<string, number>();
  get isEmpty(): boolean {
    return this.counts.size === 0;
  }
  counterOf(userId: string): number {
    return this.counts.get(userId) ?? 0;
  }
  execute(command: Command, host: MachineHost): CommandResult {
    const cmd = command as unknown as { ts: number; userId: string; n: number };
    if (!Number.isInteger(cmd.n) || cmd.n < 1 || cmd.n > 100) return { code: 'amount_invalid', events: [] };
    this.counts.set(cmd.userId, this.counterOf(cmd.userId) + cmd.n);
    return { code: 'ok', events: host.events };
  }
  rows(): [string, number][] {
    return [...this.counts].sort(([a], [b]) => (a < b ? -1 : 1));
  }
}
const counterMachine: EngineMachine<CounterState> = {
  name: 'counter',
  commands: ['counterAdd'],
  reads: ['counterOf'],
  create: () => new CounterState(),
  restore: (rows) => {
    const s = new CounterState();
    for (const [u, n] of rows as [string, number][]) s.counts.set(u, n);
    return s;
  },
};

const add = (userId: string, n: number) => ({ type: 'counterAdd', userId, n }) as unknown as Parameters<EngineHost['submit']>[0];
const counterOf = (host: { engine: unknown }, userId: string) => (host.engine as { counterOf(u: string): number }).counterOf(userId);

let clock = 1_800_000_000_000;
const store = new MemoryProjectionStore();
function open(fs: MemoryFs, machines: readonly EngineMachine[], snapshotEvery = 4): Promise<EngineHost> {
  return createEngineHost({
    config: { dataDir: '/data', snapshotEvery },
    fs,
    store,
    projections: [],
    machines,
    log,
    now: () => ++clock,
    projectorFlushMs: 5,
    newJournalId: () => 'given-machine',
  });
}

describe('a machine given by a domain module', () => {
  it('runs in the embedded host and comes back from its snapshot and journal', async () => {
    const fs = new MemoryFs();
    const host = await open(fs, [counterMachine]);
    for (const n of [1, 2, 3, 4, 5, 6]) expect((await host.submit(add('7', n))).code).toBe('ok');
    expect((await host.submit(add('7', 0))).code).toBe('amount_invalid');
    expect(counterOf(host, '7')).toBe(21);
    const hash = host.engine.stateHash();
    await host.projected();
    await host.close();

    const again = await open(fs, [counterMachine]);
    expect(again.recovery.snapshotSeq).toBeGreaterThan(0); // restored from a snapshot, then the journal after it
    expect(counterOf(again, '7')).toBe(21);
    expect(again.engine.stateHash()).toBe(hash);
    await again.close();

    // Without the machine the snapshot cannot be restored; the host must not fall back to an older state.
    await expect(open(fs, [])).rejects.toThrow(/machine counter, which the engine was not given/);
  });

  it('is applied by the scale-out replica from a snapshot', () => {
    const a = new CommandApplier(null, undefined, [counterMachine]);
    const body = (c: object) => new TextEncoder().encode(JSON.stringify({ ts: 1, ...c }));
    a.apply(1, body({ type: 'genesis', journalId: 'j' }));
    expect(a.apply(2, body({ type: 'counterAdd', userId: '1', n: 5 }))[0]!.result!.code).toBe('ok');
    const snap = a.snapshot();
    const b = new CommandApplier(snap, undefined, [counterMachine]);
    expect(counterOf(b, '1')).toBe(5);
    expect(b.apply(3, body({ type: 'counterAdd', userId: '1', n: 2 }))[0]!.result!.code).toBe('ok');
    expect(counterOf(b, '1')).toBe(7);
    expect(() => new CommandApplier(snap)).toThrow(/machine counter/);
  });

  it('is collected from the modules that bring one, in order', () => {
    const other = { ...counterMachine, name: 'other' };
    expect(machinesOf([{ name: 'a' }, { name: 'b', machine: counterMachine }, { name: 'c', machine: other }])).toEqual([counterMachine, other]);
  });
});
