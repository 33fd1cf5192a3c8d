/**
 * Aggregated k-line intervals: buckets aligned as Binance's (epoch multiples; calendar months UTC), exact integer
 * high/low/volume over decimal strings, the bars chosen as Binance's klines choose them (startTime / endTime / limit),
 * and a bucket cut by the start of the source read left out.
 */
import { describe, expect, it } from 'vitest';
import type { Kline, KlinePeriod } from '@exchange/api';
import { KLINE_PERIOD_MS } from '@exchange/api';
import { AGGREGATED_INTERVALS, aggregatedKlines, aggregateKlines } from './bar-aggregate';

const H = 3_600_000;
const D = 86_400_000;
const bar = (time: number, open: string, high: string, low: string, close: string, volume: string): Kline => ({ time, open, high, low, close, volume });

/** A k-line store over `bars` of one period (oldest first): the latest `count` opening before `end`, as the store reads. */
function storeOf(bars: Kline[], period: KlinePeriod) {
  const reads: Array<{ period: KlinePeriod; count: number; end: number | undefined }> = [];
  const read = async (p: KlinePeriod, count: number, end: number | undefined) => {
    reads.push({ period: p, count, end });
    expect(p).toBe(period);
    const before = bars.filter((b) => end === undefined || b.time < end);
    return before.slice(Math.max(0, before.length - count));
  };
  return { read, reads };
}

describe('aggregateKlines', () => {
  it('builds 4h bars from 1h bars exactly: first open, max high, min low, last close, summed volume', () => {
    const h = [
      bar(0, '100.10', '101.00', '99.90', '100.50', '0.10000'),
      bar(H, '100.50', '102.25', '100.00', '101.00', '0.20001'),
      bar(2 * H, '101.00', '101.50', '98.05', '99.00', '0.00009'),
      bar(3 * H, '99.00', '99.50', '98.10', '99.40', '1.00000'),
      bar(4 * H, '99.40', '99.40', '99.40', '99.40', '0.00000'),
    ];
    expect(aggregateKlines(h, AGGREGATED_INTERVALS['4h']!, 2, 5)).toEqual([
      { time: 0, open: '100.10', high: '102.25', low: '98.05', close: '99.40', volume: '1.30010', closeTime: 4 * H - 1 },
      { time: 4 * H, open: '99.40', high: '99.40', low: '99.40', close: '99.40', volume: '0.00000', closeTime: 8 * H - 1 },
    ]);
  });

  it('aligns buckets as Binance: 3d on epoch multiples, 1M on calendar months (February 2024 has 29 days), 8h at 00/08/16 UTC', () => {
    const jan31 = Date.UTC(2024, 0, 31);
    const days = [0, 1, 2, 29, 30].map((i) => bar(jan31 + i * D, '1', '2', '1', '1', '1'));
    const months = aggregateKlines(days, AGGREGATED_INTERVALS['1M']!, 0, 0);
    expect(months.map((m) => [m.time, m.closeTime, m.volume])).toEqual([
      [Date.UTC(2024, 0, 1), Date.UTC(2024, 1, 1) - 1, '1'],
      [Date.UTC(2024, 1, 1), Date.UTC(2024, 2, 1) - 1, '3'],
      [Date.UTC(2024, 2, 1), Date.UTC(2024, 3, 1) - 1, '1'],
    ]);
    expect(AGGREGATED_INTERVALS['3d']!.open(Date.UTC(2024, 0, 31, 13))).toBe(Math.floor(Date.UTC(2024, 0, 31) / (3 * D)) * 3 * D);
    expect(AGGREGATED_INTERVALS['8h']!.open(Date.UTC(2024, 0, 31, 15, 59))).toBe(Date.UTC(2024, 0, 31, 8));
    expect(AGGREGATED_INTERVALS['12h']!.next(Date.UTC(2024, 0, 31, 12))).toBe(Date.UTC(2024, 1, 1));
  });
});

describe('aggregatedKlines', () => {
  // 30 hourly bars from 00:00: close = hour index, volume 1 each.
  const hours = Array.from({ length: 30 }, (_, i) => bar(i * H, String(i), String(i + 1), String(i), String(i), '1'));

  it('latest `limit`, dropping the bucket cut by the start of the read', async () => {
    const s = storeOf(hours.slice(3), '1hour'); // history from 03:00 to 29:00: the first 4h bucket holds one bar, the open one two
    const rows = await aggregatedKlines(s.read, AGGREGATED_INTERVALS['4h']!, { priceDecimals: 0, qtyDecimals: 0 }, { limit: 2 });
    expect(rows.map((r) => [r.time, r.open, r.close, r.volume])).toEqual([
      [24 * H, '24', '27', '4'],
      [28 * H, '28', '29', '2'],
    ]);
    expect(s.reads).toEqual([{ period: '1hour', count: 12, end: undefined }]);
    // A read that reaches the start of history keeps the first (short) bucket: history begins there.
    const all = await aggregatedKlines(s.read, AGGREGATED_INTERVALS['4h']!, { priceDecimals: 0, qtyDecimals: 0 }, { limit: 100 });
    expect(all.map((r) => [r.time, r.volume])).toEqual([
      [0, '1'],
      [4 * H, '4'],
      [8 * H, '4'],
      [12 * H, '4'],
      [16 * H, '4'],
      [20 * H, '4'],
      [24 * H, '4'],
      [28 * H, '2'],
    ]);
  });

  it('from startTime (rounded up to a bucket open) the first `limit`; endTime inclusive of an open time', async () => {
    const s = storeOf(hours, '1hour');
    const iv = AGGREGATED_INTERVALS['6h']!;
    const d = { priceDecimals: 0, qtyDecimals: 0 };
    expect((await aggregatedKlines(s.read, iv, d, { startTime: 1, limit: 2 })).map((r) => r.time)).toEqual([6 * H, 12 * H]);
    expect(s.reads.at(-1)).toEqual({ period: '1hour', count: 12, end: 18 * H });
    expect((await aggregatedKlines(s.read, iv, d, { startTime: 0, endTime: 12 * H, limit: 10 })).map((r) => r.time)).toEqual([0, 6 * H, 12 * H]);
    expect((await aggregatedKlines(s.read, iv, d, { endTime: 12 * H - 1, limit: 1 })).map((r) => [r.time, r.close])).toEqual([[6 * H, '11']]);
    expect(await aggregatedKlines(s.read, iv, d, { startTime: 13 * H, endTime: 17 * H, limit: 10 })).toEqual([]);
  });

  it('reads as many source bars as the buckets need (31 days a month)', async () => {
    const s = storeOf([], '1day');
    await aggregatedKlines(s.read, AGGREGATED_INTERVALS['1M']!, { priceDecimals: 0, qtyDecimals: 0 }, { limit: 2 });
    expect(s.reads).toEqual([{ period: '1day', count: 93, end: undefined }]);
    expect(KLINE_PERIOD_MS['1day']).toBe(D);
  });
});
