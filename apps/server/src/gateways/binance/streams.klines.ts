/**
 * The live bar of a kline stream whose interval market data does not store (3m 2h 4h 6h 8h 12h 3d 1M): built, as
 * the REST klines build it (domains/market-data/bar-aggregate.ts), from the stored finer period's bars, here the
 * states of the current bucket's source bars as market data pushes them (each push is a source bar's whole state,
 * so a later push of the same bar replaces the earlier one). Aligned as Binance's: epoch multiples (4h at 00, 04, 08
 * ... UTC; 3d every third day from 1970-01-01), 1M on calendar months UTC.
 *
 * A new stream first reads the bucket's earlier source bars from the k-line store (`seed`), so its first push carries
 * the bucket's whole history; pushes that arrive before the read ends are kept and win over the read (they are as
 * new or newer). Until then nothing is sent.
 *
 * Units: decimal strings on the wire, compared and summed as integers of the market's decimals (aggregateKlines).
 */
import type { Kline } from '@exchange/api';
import { aggregateKlines, type AggregatedInterval, type AggregatedKline } from '../../domains/market-data/bar-aggregate';

/** What a source bar's push yields: the bucket's bar that this push closed (its last state), and the current bar. */
export interface AggregatedPush {
  closed: AggregatedKline | null;
  current: AggregatedKline | null;
}

/** The current bucket of one aggregated interval of one market. */
export class LiveAggregatedBar {
  /** Open time (ms) of the current bucket; null before the first bar. */
  private bucket: number | null = null;
  /** The current bucket's source bars by open time. */
  private bars = new Map<number, Kline>();
  /** Whether the seed read has ended: pushes are answered from then on. */
  private seeded = false;

  /** `iv` the interval, `decimals` the market's price and quantity decimals. */
  constructor(
    readonly iv: AggregatedInterval,
    private readonly decimals: { priceDecimals: number; qtyDecimals: number },
  ) {}

  /** Whether the seed read has ended. */
  get ready(): boolean {
    return this.seeded;
  }

  /** The bar of the current bucket from its source bars, or null without any. */
  current(): AggregatedKline | null {
    if (this.bars.size === 0) return null;
    const sorted = [...this.bars.values()].sort((a, b) => a.time - b.time);
    return aggregateKlines(sorted, this.iv, this.decimals.priceDecimals, this.decimals.qtyDecimals)[0] ?? null;
  }

  /**
   * The source bars read from the store (oldest first, any time): those of the current bucket (the one of `now`, or
   * the bucket of the pushes already kept when newer) are added where no push has given that bar yet.
   */
  seed(read: readonly Kline[], now: number): void {
    const nowBucket = this.iv.open(now);
    if (this.bucket === null || this.bucket < nowBucket) {
      if (this.bucket !== null) this.bars.clear();
      this.bucket = nowBucket;
    }
    for (const b of read) if (this.iv.open(b.time) === this.bucket && !this.bars.has(b.time)) this.bars.set(b.time, b);
    this.seeded = true;
  }

  /**
   * A pushed state of a source bar: a bar of a later bucket closes the current one (answered in `closed` with its
   * last state); a bar of an older bucket is ignored. Before the seed ended the bar is kept and nothing is answered.
   */
  push(bar: Kline): AggregatedPush {
    const open = this.iv.open(bar.time);
    let closed: AggregatedKline | null = null;
    if (this.bucket !== null && open < this.bucket) return { closed: null, current: null };
    if (this.bucket === null || open > this.bucket) {
      closed = this.bucket === null ? null : this.current();
      this.bars.clear();
      this.bucket = open;
    }
    this.bars.set(bar.time, bar);
    if (!this.seeded) return { closed: null, current: null };
    return { closed, current: this.current() };
  }
}
