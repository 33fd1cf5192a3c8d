/**
 * K-line periods and bar arithmetic: bar alignment (weeks to Monday 00:00 UTC as ReferencePaths does) and the
 * in-memory bar that live trades update. Prices are bigint price units (10^-priceDecimals quote), volumes bigint
 * qty units (10^-qtyDecimals base), quote volumes bigint quote asset units (10^-8).
 */
import { KLINE_PERIOD_MS, type KlinePeriod } from '@exchange/api';

/** Every period of the spec (section 2, quotes detail), shortest first. */
export const PERIODS: readonly KlinePeriod[] = ['1min', '5min', '15min', '30min', '1hour', '1day', '1week'];

/** 1970-01-01 was a Thursday; Monday 1970-01-05 00:00 UTC is 4 days later. */
const MONDAY_OFFSET_MS = 4 * 86_400_000;

/** Open time (ms) of the `period` bar containing `ts` (ms). Weeks start Monday 00:00 UTC, days at 00:00 UTC. */
export function barOpen(period: KlinePeriod, ts: number): number {
  const ms = KLINE_PERIOD_MS[period];
  if (period === '1week') return Math.floor((ts - MONDAY_OFFSET_MS) / ms) * ms + MONDAY_OFFSET_MS;
  return Math.floor(ts / ms) * ms;
}

/** One bar in integer units. */
export interface Bar {
  time: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint; // qty units
  quoteVolume: bigint; // quote asset units
}

/** A new bar at `time` opened by a trade at `price` of `qty` (qty units) worth `quote` (quote units). */
export function newBar(time: number, price: bigint, qty: bigint, quote: bigint): Bar {
  return { time, open: price, high: price, low: price, close: price, volume: qty, quoteVolume: quote };
}

/** Adds a trade to `bar` in place: high/low/close and volumes. */
export function addTrade(bar: Bar, price: bigint, qty: bigint, quote: bigint): void {
  if (price > bar.high) bar.high = price;
  if (price < bar.low) bar.low = price;
  bar.close = price;
  bar.volume += qty;
  bar.quoteVolume += quote;
}

/**
 * A bar in which nothing traded: open = high = low = close = the previous bar's close, no volume (Binance draws a
 * quiet minute the same way, so the chart has no gap).
 */
export function flatBar(time: number, prevClose: bigint): Bar {
  return { time, open: prevClose, high: prevClose, low: prevClose, close: prevClose, volume: 0n, quoteVolume: 0n };
}

/**
 * The newest `limit` bars of a series with every gap filled by flat bars (`flatBar`): `bars` sorted oldest first,
 * all aligned to `periodMs`; flat bars also follow the last bar up to and including `untilOpen` (the open of the
 * period now, or of the last period before an exclusive end time) when that is later. Works backwards from the
 * newest bar, so a long gap costs at most `limit` bars.
 */
export function fillFlatBars(bars: readonly Bar[], periodMs: number, untilOpen: number, limit: number): Bar[] {
  const out: Bar[] = [];
  const last = bars[bars.length - 1];
  if (!last || limit <= 0) return out;
  for (let t = untilOpen; t > last.time && out.length < limit; t -= periodMs) out.push(flatBar(t, last.close));
  for (let i = bars.length - 1; i >= 0 && out.length < limit; i--) {
    const b = bars[i] as Bar;
    out.push(b);
    const prev = bars[i - 1];
    if (prev) for (let t = b.time - periodMs; t > prev.time && out.length < limit; t -= periodMs) out.push(flatBar(t, prev.close));
  }
  return out.reverse();
}

/** One bar at `time` from consecutive bars (oldest first): first open, highest high, lowest low, last close, summed volumes; null for none. */
export function aggregateBars(bars: readonly Bar[], time: number): Bar | null {
  const first = bars[0];
  const last = bars[bars.length - 1];
  if (!first || !last) return null;
  const out: Bar = { ...first, time, close: last.close };
  for (const b of bars.slice(1)) {
    if (b.high > out.high) out.high = b.high;
    if (b.low < out.low) out.low = b.low;
    out.volume += b.volume;
    out.quoteVolume += b.quoteVolume;
  }
  return out;
}

/** `earlier` followed by `later` in one bar at later's time: earlier's open, the extremes of both, later's close, summed volumes. */
export function mergeBars(earlier: Bar, later: Bar): Bar {
  return {
    time: later.time,
    open: earlier.open,
    high: earlier.high > later.high ? earlier.high : later.high,
    low: earlier.low < later.low ? earlier.low : later.low,
    close: later.close,
    volume: earlier.volume + later.volume,
    quoteVolume: earlier.quoteVolume + later.quoteVolume,
  };
}

/** Adds a price observation without volume (contract listings follow their index price). */
export function addTick(bar: Bar, price: bigint): void {
  addTrade(bar, price, 0n, 0n);
}
