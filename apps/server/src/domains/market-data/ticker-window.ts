/**
 * Rolling 24 h window of one market for its ticker (spec section 3 "Pair": updown, volume; plus high/low):
 * one bucket per minute, oldest first, filled from the persisted 1-minute bars at start and from live trades.
 * All values are bigint units (see kline-math.ts).
 */
import { addTrade, newBar, type Bar } from './kline-math';

/** Length of the ticker window: 24 hours in ms. */
export const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** 24 h statistics of a market, integer units; null prices when the window is empty. */
export interface WindowStats {
  open: bigint | null; // first price inside the window
  high: bigint | null;
  low: bigint | null;
  close: bigint | null;
  volume: bigint;
  quoteVolume: bigint;
}

/** Minute buckets covering (now - 24 h, now]. */
export class TickerWindow {
  private buckets: Bar[] = [];

  /** Adds a historical 1-minute bar (bars must come oldest first; older-or-equal times than the last are merged). */
  addBar(bar: Bar): void {
    const last = this.buckets[this.buckets.length - 1];
    if (last && bar.time <= last.time) {
      if (bar.time === last.time) this.buckets[this.buckets.length - 1] = { ...bar };
      return;
    }
    this.buckets.push({ ...bar });
  }

  /**
   * Merges history bars (any order) under the buckets already held: a minute the window already has keeps its
   * bucket (live trades win over history).
   */
  mergeHistory(bars: Bar[]): void {
    const byTime = new Map<number, Bar>();
    for (const b of bars) byTime.set(b.time, { ...b });
    for (const b of this.buckets) byTime.set(b.time, b);
    this.buckets = [...byTime.values()].sort((a, b) => a.time - b.time);
  }

  /** Puts `bar` in place of the minute bucket of its time (or adds it there, in time order). */
  putBar(bar: Bar): void {
    const i = this.buckets.findIndex((b) => b.time >= bar.time);
    if (i < 0) this.buckets.push({ ...bar });
    else if ((this.buckets[i] as Bar).time === bar.time) this.buckets[i] = { ...bar };
    else this.buckets.splice(i, 0, { ...bar });
  }

  /** How many minute buckets the window holds (at most one per minute of the last 24 h once a trade has pruned it). */
  get size(): number {
    return this.buckets.length;
  }

  /**
   * Adds a trade at `ts` (ms, the command time). A trade that opens a new minute also drops the buckets that ended
   * before ts - 24 h: a window whose statistics nobody asks for (a contract listing whose figures come from its
   * perpetual market) stays bounded at 1,440 buckets instead of keeping every minute since the start.
   */
  addTrade(ts: number, price: bigint, qty: bigint, quote: bigint): void {
    const minute = Math.floor(ts / MINUTE_MS) * MINUTE_MS;
    const last = this.buckets[this.buckets.length - 1];
    if (last && last.time === minute) addTrade(last, price, qty, quote);
    else if (!last || last.time < minute) {
      this.buckets.push(newBar(minute, price, qty, quote));
      this.prune(ts);
    } else addTrade(last, price, qty, quote); // a late trade (clock step back): count it in the newest bucket
  }

  /** Drops buckets that ended before now - 24 h. */
  prune(now: number): void {
    const from = now - DAY_MS;
    let i = 0;
    while (i < this.buckets.length && (this.buckets[i] as Bar).time + MINUTE_MS <= from) i++;
    if (i > 0) this.buckets.splice(0, i);
  }

  /** Statistics over (now - 24 h, now]. */
  stats(now: number): WindowStats {
    this.prune(now);
    const s: WindowStats = { open: null, high: null, low: null, close: null, volume: 0n, quoteVolume: 0n };
    for (const b of this.buckets) {
      if (b.time > now) break;
      if (s.open === null) s.open = b.open;
      if (s.high === null || b.high > s.high) s.high = b.high;
      if (s.low === null || b.low < s.low) s.low = b.low;
      s.close = b.close;
      s.volume += b.volume;
      s.quoteVolume += b.quoteVolume;
    }
    return s;
  }
}
