/**
 * K-lines of intervals market data does not store (Binance's 3m, 2h, 4h, 6h, 8h, 12h, 3d, 1M), aggregated at read
 * time from a stored finer period, exactly: prices and volumes are compared and summed as integers of their decimals
 * (toUnits/fromUnits), never as floating point. Read only: nothing is stored.
 *
 * Alignment as Binance's: minute, hour and day multiples open at multiples of their length since the epoch (UTC),
 * so a 4h bar opens at 00, 04, 08 ... UTC and a 3d bar every third day from 1970-01-01; 1M bars open on the first of
 * each calendar month 00:00 UTC. (1w is stored, opening on Monday 00:00 UTC.)
 */
import type { Kline, KlinePeriod } from '@exchange/api';
import { KLINE_PERIOD_MS } from '@exchange/api';
import { fromUnits, toUnits } from '../../platform/shared/decimal';

/** An interval built from a stored period: the stored `source` period and the interval's bucket arithmetic. */
export interface AggregatedInterval {
  /** The stored period the bars are built from. */
  source: KlinePeriod;
  /** The most source bars one bucket holds (31 days for a month). */
  maxSourceBars: number;
  /** Open time (ms) of the bucket containing `ts` (ms). */
  open(ts: number): number;
  /** Open time (ms) of the bucket after the one opening at `open` (its close time is this minus 1). */
  next(open: number): number;
}

/** A bucket of `ms` milliseconds, aligned on the epoch, built from the stored `source` period. */
function fixed(source: KlinePeriod, ms: number): AggregatedInterval {
  return {
    source,
    maxSourceBars: ms / KLINE_PERIOD_MS[source],
    open: (ts) => Math.floor(ts / ms) * ms,
    next: (open) => open + ms,
  };
}

/** Calendar months (UTC), built from days. */
const MONTH: AggregatedInterval = {
  source: '1day',
  maxSourceBars: 31,
  open(ts) {
    const d = new Date(ts);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  },
  next(open) {
    const d = new Date(open);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  },
};

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Binance's intervals that market data does not store, with the stored period each is built from. */
export const AGGREGATED_INTERVALS: Readonly<Record<string, AggregatedInterval>> = {
  '3m': fixed('1min', 3 * MIN),
  '2h': fixed('1hour', 2 * HOUR),
  '4h': fixed('1hour', 4 * HOUR),
  '6h': fixed('1hour', 6 * HOUR),
  '8h': fixed('1hour', 8 * HOUR),
  '12h': fixed('1hour', 12 * HOUR),
  '3d': fixed('1day', 3 * DAY),
  '1M': MONTH,
};

/** A bar of an aggregated interval: the stored k-line fields and its close time (ms, the next bucket's open - 1). */
export type AggregatedKline = Kline & { closeTime: number };

/**
 * Groups contiguous source bars (oldest first, as the k-line store answers them: quiet periods are flat bars) into
 * buckets of `iv`: first open, highest high, lowest low, last close, summed volume, compared and summed as integers
 * at `priceDecimals` / `qtyDecimals`. Oldest first.
 */
export function aggregateKlines(bars: readonly Kline[], iv: AggregatedInterval, priceDecimals: number, qtyDecimals: number): AggregatedKline[] {
  const out: AggregatedKline[] = [];
  let cur: { time: number; open: bigint; high: bigint; low: bigint; close: bigint; volume: bigint } | undefined;
  const flush = () => {
    if (!cur) return;
    const price = (v: bigint) => fromUnits(v, priceDecimals);
    out.push({
      time: cur.time,
      open: price(cur.open),
      high: price(cur.high),
      low: price(cur.low),
      close: price(cur.close),
      volume: fromUnits(cur.volume, qtyDecimals),
      closeTime: iv.next(cur.time) - 1,
    });
  };
  for (const b of bars) {
    const open = iv.open(b.time);
    const high = toUnits(b.high, priceDecimals);
    const low = toUnits(b.low, priceDecimals);
    const close = toUnits(b.close, priceDecimals);
    const volume = toUnits(b.volume, qtyDecimals);
    if (cur && cur.time === open) {
      if (high > cur.high) cur.high = high;
      if (low < cur.low) cur.low = low;
      cur.close = close;
      cur.volume += volume;
      continue;
    }
    flush();
    cur = { time: open, open: toUnits(b.open, priceDecimals), high, low, close, volume };
  }
  flush();
  return out;
}

/**
 * The bars of an aggregated interval `iv` as Binance's klines choose them: open time in [startTime, endTime] (ms, both
 * inclusive), at most `limit`, the first `limit` from startTime when it is given, else the latest up to endTime (or
 * now). `read(period, count, endExclusive)` is the k-line store's read: the latest `count` bars of `period` opening
 * before `endExclusive` (undefined: up to now), oldest first. A bucket cut by the read's start is left out.
 */
export async function aggregatedKlines(
  read: (period: KlinePeriod, count: number, endExclusive: number | undefined) => Promise<Kline[]>,
  iv: AggregatedInterval,
  decimals: { priceDecimals: number; qtyDecimals: number },
  q: { startTime?: number; endTime?: number; limit: number },
): Promise<AggregatedKline[]> {
  const sourceMs = KLINE_PERIOD_MS[iv.source];
  let end = q.endTime === undefined ? undefined : iv.next(iv.open(q.endTime));
  let start: number | undefined;
  if (q.startTime !== undefined) {
    start = iv.open(q.startTime) === q.startTime ? q.startTime : iv.next(iv.open(q.startTime));
    let byLimit = start;
    for (let i = 0; i < q.limit; i++) byLimit = iv.next(byLimit);
    end = end === undefined ? byLimit : Math.min(end, byLimit);
    if (end <= start) return [];
  }
  const count = start !== undefined && end !== undefined ? (end - start) / sourceMs : (q.limit + 1) * iv.maxSourceBars;
  const bars = await read(iv.source, count, end);
  let groups = aggregateKlines(bars, iv, decimals.priceDecimals, decimals.qtyDecimals);
  // With as many source bars as asked, history may go on before them: the oldest bucket may lack its first bars.
  const first = bars[0];
  if (bars.length >= count && first !== undefined && iv.open(first.time) !== first.time) groups = groups.slice(1);
  if (start !== undefined) return groups.filter((g) => g.time >= start).slice(0, q.limit);
  if (q.endTime !== undefined) groups = groups.filter((g) => g.time <= (q.endTime as number));
  return groups.slice(-q.limit);
}
