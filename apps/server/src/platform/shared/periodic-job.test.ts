/**
 * Proves startPeriodicJob on fake timers: a run per period with the clock's time, no second run while one is in
 * flight, a report line only when the report says so, a failure logged and the next tick run again, `immediately`
 * runs at start, and stop() ends the ticks.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { startPeriodicJob } from './periodic-job';

/** A log that records its info and error lines. */
function recordingLog() {
  const lines: Array<{ level: 'info' | 'error'; msg: string; fields: Record<string, unknown> }> = [];
  const log = {
    info: (fields: Record<string, unknown>, msg: string) => lines.push({ level: 'info', msg, fields }),
    error: (fields: Record<string, unknown>, msg: string) => lines.push({ level: 'error', msg, fields }),
  } as unknown as FastifyBaseLogger;
  return { log, lines };
}

/** Lets the settled promises of the job run their callbacks. */
const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('startPeriodicJob', () => {
  it('runs once a period with the clock time and logs only what the report asks for', async () => {
    const { log, lines } = recordingLog();
    let t = 1_000;
    const seen: number[] = [];
    const stop = startPeriodicJob({
      everyMs: 100,
      run: async (now) => {
        seen.push(now);
        return seen.length;
      },
      report: (n) => (n === 2 ? { msg: 'second run', fields: { n } } : undefined),
      failure: 'job failed',
      log,
      clock: { now: () => t },
    });
    expect(seen).toEqual([]); // not immediately
    t = 1_100;
    await vi.advanceTimersByTimeAsync(100);
    t = 1_200;
    await vi.advanceTimersByTimeAsync(100);
    await flush();
    expect(seen).toEqual([1_100, 1_200]);
    expect(lines).toEqual([{ level: 'info', msg: 'second run', fields: { n: 2 } }]);
    stop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(seen).toHaveLength(2);
  });

  it('skips ticks while a run is in flight, then runs again', async () => {
    const { log } = recordingLog();
    let release: () => void = () => {};
    let runs = 0;
    const stop = startPeriodicJob({
      everyMs: 10,
      run: () => {
        runs++;
        return new Promise<void>((r) => (release = r));
      },
      failure: 'job failed',
      immediately: true,
      log,
      clock: { now: () => 0 },
    });
    expect(runs).toBe(1); // immediately
    await vi.advanceTimersByTimeAsync(100); // ten ticks while the first run hangs
    expect(runs).toBe(1);
    release();
    await flush();
    await vi.advanceTimersByTimeAsync(10);
    expect(runs).toBe(2);
    stop();
  });

  it('logs a failed run and tries again at the next tick', async () => {
    const { log, lines } = recordingLog();
    let runs = 0;
    const stop = startPeriodicJob({
      everyMs: 10,
      run: async () => {
        runs++;
        if (runs === 1) throw new Error('boom');
        return 'ok';
      },
      report: (r) => ({ msg: `run ${r}` }),
      failure: 'job failed',
      log,
      clock: { now: () => 0 },
    });
    await vi.advanceTimersByTimeAsync(10);
    await flush();
    await vi.advanceTimersByTimeAsync(10);
    await flush();
    stop();
    expect(runs).toBe(2);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['error', 'job failed'],
      ['info', 'run ok'],
    ]);
    expect((lines[0]!.fields.err as Error).message).toBe('boom');
  });
});
