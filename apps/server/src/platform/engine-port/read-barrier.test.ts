/**
 * The waiting primitives of read-your-writes across gateways (read-barrier.ts): SeqGate wakes a waiter when the
 * replica's applied sequence number reaches its target, in target order, or answers false at its timeout; freshReader
 * gives every caller a value read after its call with at most one request in flight.
 */
import { describe, expect, it } from 'vitest';
import { freshReader, SeqGate } from './read-barrier';

describe('SeqGate', () => {
  it('resolves a reached target at once, and others only when advance reaches them, in target order', async () => {
    const gate = new SeqGate(5);
    const woken: number[] = [];
    expect(await gate.wait(5)).toBe(true);
    const waits = [9, 7, 12, 7].map((seq) => gate.wait(seq).then((r) => woken.push(seq) && r));
    expect(gate.waiting).toBe(4);
    gate.advance(6);
    await Promise.resolve();
    expect(woken).toEqual([]);
    gate.advance(8);
    await new Promise((r) => setImmediate(r));
    expect(woken).toEqual([7, 7]);
    expect(gate.waiting).toBe(2);
    gate.advance(4); // lower than applied: no change
    expect(gate.applied).toBe(8);
    gate.advance(12);
    expect(await Promise.all(waits)).toEqual([true, true, true, true]);
    expect(woken).toEqual([7, 7, 9, 12]);
    expect(gate.waiting).toBe(0);
  });

  it('answers false at the timeout, removing the waiter; a later advance does not touch it', async () => {
    const gate = new SeqGate(0);
    const t0 = performance.now();
    const late = gate.wait(3, 60);
    const kept = gate.wait(2, 10_000);
    expect(await late).toBe(false);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
    expect(gate.waiting).toBe(1);
    gate.advance(3);
    expect(await kept).toBe(true);
    expect(gate.waiting).toBe(0);
  });

  it('close answers every waiter false', async () => {
    const gate = new SeqGate(1);
    const w = [gate.wait(2), gate.wait(3, 10_000)];
    gate.close();
    expect(await Promise.all(w)).toEqual([false, false]);
  });
});

describe('freshReader', () => {
  it('one request in flight; callers during it share the next one, sent after it, and see its newer value', async () => {
    let value = 10;
    const started: number[] = [];
    const pending: Array<() => void> = [];
    const read = freshReader(
      () =>
        new Promise<number>((resolve) => {
          const at = value; // the value the server holds when the request reaches it
          started.push(at);
          pending.push(() => resolve(at));
        }),
    );
    const first = read();
    expect(started).toEqual([10]);
    value = 11; // a command acknowledged after the first request was sent
    const second = read();
    const third = read();
    expect(started).toEqual([10]); // still one in flight
    pending.shift()!();
    expect(await first).toBe(10);
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([10, 11]); // the next request went out once the first settled
    pending.shift()!();
    expect(await second).toBe(11);
    expect(await third).toBe(11);
    // Nothing in flight: a call sends at once.
    value = 12;
    const fourth = read();
    expect(started).toEqual([10, 11, 12]);
    pending.shift()!();
    expect(await fourth).toBe(12);
  });

  it('a failed request rejects its callers only; the next call sends a new request', async () => {
    let n = 0;
    const read = freshReader(async () => {
      n++;
      if (n === 1) throw new Error('no answer');
      return n;
    });
    await expect(read()).rejects.toThrow('no answer');
    expect(await read()).toBe(2);
  });
});
