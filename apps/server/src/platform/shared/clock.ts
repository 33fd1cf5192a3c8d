/**
 * The server process's clock (Unix ms): Date.now() plus an offset that only moves forward. The engine port stamps
 * every command's `ts` with it (engine-host.ts, nats-engine-port.ts), and the jobs that act at a moment the engine
 * checks against that `ts` (the OTC time-out job) read it too, so a deadline is judged on one clock.
 *
 * The offset is zero in production. It moves only through the test-only control POST /api/demo/clock/advance (refused
 * in production; demo mode and loopback
 * only), which lets an end-to-end test pass a 15-minute payment window without waiting for it. Time moved forward
 * stays moved (the engine's timestamps are monotonic); the offset lives in memory and is gone after a restart, when
 * the host keeps stamping the last `ts` until the wall clock catches up.
 */

/** A monotonic-offset clock; `now` is a bound function, safe to pass as a callback. */
export interface ServerClock {
  /** Unix ms: the base clock plus the offset. */
  now(): number;
  /** Moves the clock forward by `ms` (a whole, positive number of ms); returns the offset after. Throws RangeError otherwise. */
  advance(ms: number): number;
  /** The total offset so far (ms, 0 unless advanced). */
  readonly offsetMs: number;
}

/** A clock over `base` (default Date.now) with a zero offset. */
export function createServerClock(base: () => number = Date.now): ServerClock {
  let offset = 0;
  return {
    now: () => base() + offset,
    advance(ms: number): number {
      if (!Number.isSafeInteger(ms) || ms <= 0) throw new RangeError(`clock advance must be a positive whole number of ms, got ${ms}`);
      offset += ms;
      return offset;
    },
    get offsetMs() {
      return offset;
    },
  };
}
