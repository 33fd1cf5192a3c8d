/**
 * The fixed-window counter of the one rate-limit module (platform/rate-limit: fixed windows, a sliding window, token
 * buckets and slots): a count per key in windows of `windowMs`, either aligned to the epoch (Binance's request weight
 * per minute and orders per 10 s and per day start on the minute, the 10 s and the UTC day: binance.weights.ts) or
 * starting at a key's first event (the app's per-IP budgets: rate-limits.ts). At most `maxKeys` keys are kept; when
 * a new window must be opened beyond that, the key whose window was opened first is forgotten. Times are passed in
 * (Unix ms), so the counter is exact under any clock.
 */

/** How a counter's windows start. */
export type WindowAlignment = 'epoch' | 'first-event';

/** Counts per key in fixed windows. */
export class FixedWindowCounter {
  private readonly windows = new Map<string, { startMs: number; count: number }>();

  constructor(
    /** Length of a window (ms). */
    readonly windowMs: number,
    private readonly alignment: WindowAlignment,
    /** Most keys remembered at once. */
    private readonly maxKeys: number,
  ) {}

  /** The window of `key` at `nowMs`, a new one when its last has ended. */
  private windowOf(key: string, nowMs: number): { startMs: number; count: number } {
    const alignedStart = nowMs - (nowMs % this.windowMs);
    let w = this.windows.get(key);
    const ended = w === undefined || (this.alignment === 'epoch' ? w.startMs !== alignedStart : nowMs - w.startMs >= this.windowMs);
    if (ended) {
      this.windows.delete(key);
      if (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value as string);
      w = { startMs: this.alignment === 'epoch' ? alignedStart : nowMs, count: 0 };
      this.windows.set(key, w);
    }
    return w!;
  }

  /** Adds `n` (0 to read) to `key`'s count in its window at `nowMs`; the count after. */
  add(key: string, n: number, nowMs: number): number {
    const w = this.windowOf(key, nowMs);
    w.count += n;
    return w.count;
  }

  /** Milliseconds from `nowMs` to the end of `key`'s current window (a full window when it has none yet). */
  msToReset(key: string, nowMs: number): number {
    if (this.alignment === 'epoch') return this.windowMs - (nowMs % this.windowMs);
    const w = this.windows.get(key);
    return w === undefined || nowMs - w.startMs >= this.windowMs ? this.windowMs : w.startMs + this.windowMs - nowMs;
  }

  /** Whole seconds (at least 1) from `nowMs` to the end of `key`'s window: a Retry-After. */
  retryAfterS(key: string, nowMs: number): number {
    return Math.max(1, Math.ceil(this.msToReset(key, nowMs) / 1000));
  }

  /** Keys remembered (for tests). */
  get size(): number {
    return this.windows.size;
  }
}
