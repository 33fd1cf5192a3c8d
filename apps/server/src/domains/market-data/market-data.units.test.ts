/**
 * Pure units of market data: exact decimal conversion and percent change, bar alignment (weeks from Monday
 * 00:00 UTC), the rolling 24 h window and the depth book's sequence. No database, no engine.
 */
import { describe, expect, it } from 'vitest';
import { divRound, fromUnits, percentChange, rescale, toUnits } from '../../platform/shared/decimal';
import { addTrade, aggregateBars, barOpen, fillFlatBars, flatBar, mergeBars, newBar } from './kline-math';
import { TickerWindow } from './ticker-window';
import { DepthBook } from './depth-book';
import { klineLiteral } from './market-data.repository';
import { CATALOG } from './seed/catalog';

describe('decimal', () => {
  it('parses and formats exactly, rounding half away from zero', () => {
    expect(toUnits('123.45', 2)).toBe(12345n);
    expect(toUnits('0.1', 8)).toBe(10_000_000n);
    expect(toUnits('1.005', 2)).toBe(101n);
    expect(toUnits('1.0049', 2)).toBe(100n);
    expect(toUnits('-1.005', 2)).toBe(-101n);
    expect(toUnits('7', 0)).toBe(7n);
    expect(fromUnits(12345n, 2)).toBe('123.45');
    expect(fromUnits(5n, 8)).toBe('0.00000005');
    expect(fromUnits(-5n, 2)).toBe('-0.05');
    expect(fromUnits(42n, 0)).toBe('42');
    expect(() => toUnits('1e5', 2)).toThrow(RangeError);
    expect(() => toUnits('NaN', 2)).toThrow(RangeError);
    expect(() => toUnits('', 2)).toThrow(RangeError);
  });
  it('rescales and divides with rounding', () => {
    expect(rescale(12345n, 2, 4)).toBe(1234500n);
    expect(rescale(12345n, 4, 2)).toBe(123n);
    expect(rescale(12350n, 4, 2)).toBe(124n);
    expect(divRound(7n, 2n)).toBe(4n);
    expect(divRound(-7n, 2n)).toBe(-4n);
  });
  it('computes the percent change with 2 decimals and a sign', () => {
    expect(percentChange(10000n, 10125n)).toBe('1.25');
    expect(percentChange(10000n, 9875n)).toBe('-1.25');
    expect(percentChange(30000n, 30001n)).toBe('0.00');
    expect(percentChange(3n, 4n)).toBe('33.33');
    expect(percentChange(0n, 4n)).toBe('0.00');
  });
});

describe('k-line bars', () => {
  it('aligns bars to the period, weeks to Monday 00:00 UTC', () => {
    const ts = Date.UTC(2026, 10, 22, 3, 17, 42, 5); // Sunday 2026-11-22
    expect(barOpen('1min', ts)).toBe(Date.UTC(2026, 10, 22, 3, 17));
    expect(barOpen('5min', ts)).toBe(Date.UTC(2026, 10, 22, 3, 15));
    expect(barOpen('15min', ts)).toBe(Date.UTC(2026, 10, 22, 3, 15));
    expect(barOpen('30min', ts)).toBe(Date.UTC(2026, 10, 22, 3, 0));
    expect(barOpen('1hour', ts)).toBe(Date.UTC(2026, 10, 22, 3, 0));
    expect(barOpen('1day', ts)).toBe(Date.UTC(2026, 10, 22));
    expect(barOpen('1week', ts)).toBe(Date.UTC(2026, 10, 16)); // Monday
    expect(new Date(barOpen('1week', Date.UTC(2026, 10, 16))).getUTCDay()).toBe(1);
  });
  it('updates high, low, close and volumes with each trade', () => {
    const b = newBar(0, 100n, 2n, 200n);
    addTrade(b, 105n, 1n, 105n);
    addTrade(b, 98n, 3n, 294n);
    expect(b).toEqual({ time: 0, open: 100n, high: 105n, low: 98n, close: 98n, volume: 6n, quoteVolume: 599n });
  });
  it('aggregates consecutive bars and puts history before a live bar', () => {
    const a = newBar(0, 100n, 2n, 200n);
    addTrade(a, 104n, 1n, 104n);
    const b = newBar(60_000, 103n, 1n, 103n);
    addTrade(b, 97n, 1n, 97n);
    const agg = { time: 0, open: 100n, high: 104n, low: 97n, close: 97n, volume: 5n, quoteVolume: 504n };
    expect(aggregateBars([a, b], 0)).toEqual(agg);
    expect(aggregateBars([], 0)).toBeNull();
    expect(mergeBars(a, b)).toEqual({ ...agg, time: 60_000 });
  });
  it('fills quiet periods with flat bars at the previous close, up to the period now, newest `limit` only', () => {
    const m = 60_000;
    const a = newBar(0, 100n, 2n, 200n);
    addTrade(a, 103n, 1n, 103n);
    const b = newBar(3 * m, 101n, 1n, 101n);
    const filled = fillFlatBars([a, b], m, 5 * m, 100);
    expect(filled.map((x) => x.time)).toEqual([0, m, 2 * m, 3 * m, 4 * m, 5 * m]);
    expect(filled[1]).toEqual({ time: m, open: 103n, high: 103n, low: 103n, close: 103n, volume: 0n, quoteVolume: 0n });
    expect(filled[2]).toEqual(flatBar(2 * m, 103n));
    expect(filled[3]).toBe(b);
    expect(filled[5]).toEqual(flatBar(5 * m, 101n));
    // the newest 3 only; a long gap costs no more than the limit
    expect(fillFlatBars([a, b], m, 5 * m, 3).map((x) => x.time)).toEqual([3 * m, 4 * m, 5 * m]);
    expect(fillFlatBars([a], m, 1_000_000 * m, 2).map((x) => x.time)).toEqual([999_999 * m, 1_000_000 * m]);
    // nothing to carry without a bar; nothing after an until before the last bar
    expect(fillFlatBars([], m, 5 * m, 10)).toEqual([]);
    expect(fillFlatBars([a, b], m, 2 * m, 10).map((x) => x.time)).toEqual([0, m, 2 * m, 3 * m]);
  });
});

describe('24 h window', () => {
  it('sums volumes and tracks open/high/low over the last 24 hours only', () => {
    const w = new TickerWindow();
    const day = 86_400_000;
    const now = 10 * day;
    w.addBar(newBar(now - day - 120_000, 50n, 100n, 5000n)); // too old
    w.addBar({ time: now - day + 60_000, open: 100n, high: 120n, low: 90n, close: 110n, volume: 10n, quoteVolume: 1000n });
    w.addTrade(now - 1000, 115n, 2n, 230n);
    w.addTrade(now - 500, 80n, 1n, 80n);
    expect(w.stats(now)).toEqual({ open: 100n, high: 120n, low: 80n, close: 80n, volume: 13n, quoteVolume: 1310n });
    expect(w.stats(now + day).volume).toBe(0n);
  });
  it('stays at 24 hours of minute buckets under three days of trades with no statistics asked (a fed contract listing)', () => {
    const w = new TickerWindow();
    const day = 86_400_000;
    for (let t = 0; t < 3 * day; t += 60_000) w.addTrade(t + 30_000, 100n, 1n, 100n);
    expect(w.size).toBe(1441);
    expect(w.stats(3 * day).volume).toBe(1440n);
  });
  it('puts a bar in place of its minute bucket, in time order', () => {
    const w = new TickerWindow();
    w.addBar(newBar(0, 10n, 1n, 10n));
    w.addBar(newBar(120_000, 12n, 1n, 12n));
    w.putBar(newBar(60_000, 11n, 5n, 55n));
    w.putBar(newBar(0, 9n, 2n, 18n));
    const s = w.stats(120_000);
    expect([s.open, s.volume, s.quoteVolume]).toEqual([9n, 8n, 85n]);
  });
  it('merges history under live buckets', () => {
    const w = new TickerWindow();
    w.addTrade(120_000, 7n, 1n, 7n);
    w.mergeHistory([newBar(60_000, 5n, 1n, 5n), newBar(120_000, 6n, 9n, 54n)]);
    expect(w.stats(180_000)).toMatchObject({ open: 5n, close: 7n, volume: 2n });
  });
});

describe('depth book', () => {
  it('keeps levels sorted and increments seq once per batch', () => {
    const b = new DepthBook();
    b.load({ bids: [{ price: 100n, quantity: 5n }], asks: [{ price: 101n, quantity: 1n }] });
    expect(b.seq).toBe(0);
    expect(
      b.apply([
        { side: 'BUY', price: 99n, quantity: 2n },
        { side: 'SELL', price: 103n, quantity: 4n },
      ]),
    ).toBe(1);
    expect(b.apply([{ side: 'BUY', price: 100n, quantity: 0n }])).toBe(2);
    expect(b.top(10)).toEqual({
      bids: [{ price: 99n, quantity: 2n }],
      asks: [
        { price: 101n, quantity: 1n },
        { price: 103n, quantity: 4n },
      ],
    });
    expect(b.top(1).asks).toEqual([{ price: 101n, quantity: 1n }]);
  });
});

describe('catalogue', () => {
  it('keeps priceDecimals + qtyDecimals <= 8 on every market', () => {
    for (const m of CATALOG) expect(m.priceDecimals + m.qtyDecimals).toBeLessThanOrEqual(8);
  });
  it('refuses k-line literals outside the strict patterns', () => {
    const row = {
      symbol: 'BTC/USDT',
      type: 'SPOT',
      period: '1min',
      time: 60_000,
      open: '1.5',
      high: '2',
      low: '1',
      close: '1.5',
      volume: '3',
      quoteVolume: '4.5',
    };
    expect(klineLiteral(row)).toBe("('BTC/USDT','SPOT','1min',60000,1.5,2,1,1.5,3,4.5)");
    expect(() => klineLiteral({ ...row, symbol: "x'); drop table klines;--" })).toThrow();
    expect(() => klineLiteral({ ...row, open: '1;select' })).toThrow();
  });
});
