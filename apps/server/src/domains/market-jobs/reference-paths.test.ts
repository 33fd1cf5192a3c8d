/**
 * Proves the reference paths are a deterministic, continuous replay of the real data: equal across instances,
 * symmetric (so continuous) at the ping-pong turning points, exact on real bar OHLC at real bar boundaries, and
 * bars() of every period contain every priceAt sample inside them. Uses the real seed data.
 */
import { describe, expect, it } from 'vitest';
import { parseDecimal } from '@exchange/core';
import { createReferencePaths, parseBars, REPLAY_OFFSET_MS } from './reference-paths';
import type { ReferencePath } from '../market-data/price-source';
import { SeriesPath } from './reference-path';
import type { ReplaySeries } from './bar-series';

const paths = createReferencePaths();
const H4 = 14_400_000;
const NOW = Date.UTC(2026, 10, 22, 3, 17, 41, 250);

/** A price string as an integer count of its last decimal place. */
function units(s: string): bigint {
  const d = s.includes('.') ? (s.split('.')[1] as string).length : 0;
  return parseDecimal(s, d);
}

describe('parseBars', () => {
  it('fills a gap linearly from the previous close to the next open with zero volume and repairs listed prints', () => {
    const csv = ['open_time_ms,open,high,low,close,volume_base', '0,10,12,9,11,1', '180000,14,15,13,14,2', '240000,0.01,15,0.01,14.5,3'].join('\n');
    const cols = parseBars(csv, 60_000, [{ ts: 240000, fields: ['open', 'low'], why: 'test' }]);
    expect([...cols.open]).toEqual([10, 11, 12.5, 14, 14]);
    expect([...cols.close]).toEqual([11, 12.5, 14, 14, 14.5]);
    expect([...cols.high]).toEqual([12, 12.5, 14, 15, 15]);
    expect([...cols.low]).toEqual([9, 11, 12.5, 13, 14]);
    expect([...cols.volume]).toEqual([1, 0, 0, 2, 3]);
  });
  it('refuses a fix that matches no bar', () => {
    expect(() => parseBars('0,1,1,1,1,1', 60_000, [{ ts: 5, fields: ['open'], why: 'x' }])).toThrow(/matches no bar/);
  });
});

describe('reference paths', () => {
  it('has the ten coins with demo labels only on the modelled ones, and the cross pairs', () => {
    expect(paths.all().map((p) => `${p.base}:${p.provenance.demoData}`)).toEqual([
      'BTC:false',
      'ETH:false',
      'LTC:false',
      'BNB:true',
      'SOL:true',
      'XRP:true',
      'DOGE:true',
      'ADA:true',
      'SUI:true',
      'TON:true',
    ]);
    expect(paths.pair?.('ETH', 'BTC')?.quote).toBe('BTC');
    expect(paths.pair?.('LTC', 'BTC')?.provenance.demoData).toBe(false);
    expect(paths.pair?.('BTC', 'USDT')).toBe(paths.get('BTC'));
    expect(paths.pair?.('XYZ', 'BTC')).toBeUndefined();
  });

  it('is deterministic: a second instance gives the same prices and bars', () => {
    const other = createReferencePaths();
    for (const p of paths.all()) {
      const q = other.get(p.base) as ReferencePath;
      for (let i = 0; i < 20; i++) expect(q.priceAt(NOW + i * 7_777_777)).toBe(p.priceAt(NOW + i * 7_777_777));
      expect(q.bars(300_000, NOW - 3_600_000, NOW)).toEqual(p.bars(300_000, NOW - 3_600_000, NOW));
    }
  });

  it('replays real BTC bars exactly at their boundaries (wall = data + 728 days)', () => {
    const btc = paths.get('BTC') as ReferencePath;
    // Coinbase BTC-USD 2025-10-27T16:00Z: 114965.69, 115808.76, 114773.82, 114950
    const wall = 1761580800000 + REPLAY_OFFSET_MS;
    expect(btc.priceAt(wall)).toBe('114965.69');
    expect(btc.bars(H4, wall, wall + H4)).toEqual([
      { time: wall, open: '114965.69', high: '115808.76', low: '114773.82', close: '114950.00', volume: '1025.47504' },
    ]);
    const minutes = btc.bars(60_000, wall, wall + H4);
    expect(minutes).toHaveLength(240);
    expect(minutes[0]?.open).toBe('114965.69');
    expect(minutes[239]?.close).toBe('114950.00');
    expect(minutes.map((b) => units(b.high)).reduce((a, b) => (a > b ? a : b))).toBe(11580876n);
    expect(minutes.map((b) => units(b.low)).reduce((a, b) => (a < b ? a : b))).toBe(11477382n);
  });

  it('repairs the listed bad prints (BTC 2017-04-15T20:00Z open/low 0.06)', () => {
    const btc = paths.get('BTC') as ReferencePath;
    const wall = 1492286400000 + REPLAY_OFFSET_MS;
    expect(btc.bars(H4, wall, wall + H4)[0]).toMatchObject({ open: '1182.99', high: '1186.60', low: '1178.85', close: '1178.85' });
  });

  it('is continuous at the ping-pong turning points: equal prices at equal distances before and after', () => {
    for (const code of ['BTC', 'ETH', 'LTC']) {
      const p = paths.get(code) as SeriesPath;
      const s = p.series as ReplaySeries;
      const end = s.originTs + s.length * s.barMs;
      const start = s.originTs;
      for (const d of [0, 1, 999, 5_000, 61_234, s.barMs - 1]) {
        expect(p.priceAt(end + d)).toBe(p.priceAt(end - d));
        expect(p.priceAt(start - d)).toBe(p.priceAt(start + d));
      }
      // one second apart across the turning point: within 0.5%
      const a = Number(p.priceAt(end - 1000));
      const b = Number(p.priceAt(end + 1000));
      expect(Math.abs(a - b) / a).toBeLessThan(0.005);
    }
  });

  it('bars of every period contain every priceAt sample inside them and open at priceAt(time)', () => {
    const cases: Array<[ReferencePath, number, number]> = [];
    for (const code of ['BTC', 'LTC', 'BNB', 'DOGE']) {
      const p = paths.get(code) as ReferencePath;
      cases.push([p, 60_000, 30], [p, 900_000, 8], [p, 3_600_000, 6], [p, 86_400_000, 2]);
    }
    const ethBtc = paths.pair?.('ETH', 'BTC') as ReferencePath;
    cases.push([ethBtc, 60_000, 20], [ethBtc, 3_600_000, 4], [ethBtc, 86_400_000, 2]);
    for (const [p, period, n] of cases) {
      const bars = p.bars(period, NOW - n * period, NOW);
      expect(bars.length).toBe(n + 1);
      for (const bar of bars) {
        expect(bar.time % 60_000).toBe(0);
        expect(p.priceAt(bar.time)).toBe(bar.open);
        const lo = units(bar.low);
        const hi = units(bar.high);
        expect(lo <= units(bar.open) && units(bar.open) <= hi).toBe(true);
        expect(lo <= units(bar.close) && units(bar.close) <= hi).toBe(true);
        const step = Math.max(1_000, Math.floor(period / 97));
        for (let t = bar.time; t < bar.time + period; t += step) {
          const v = units(p.priceAt(t));
          if (v < lo || v > hi) throw new Error(`${p.base}/${p.quote} ${period} ${t}: ${p.priceAt(t)} outside ${bar.low}..${bar.high}`);
        }
      }
    }
  });

  it('aligns weekly bars to Monday 00:00 UTC', () => {
    const bars = (paths.get('ETH') as ReferencePath).bars(604_800_000, NOW - 3 * 604_800_000, NOW);
    expect(bars.map((b) => new Date(b.time).getUTCDay())).toEqual([1, 1, 1, 1]);
    expect(bars.every((b) => new Date(b.time).getUTCHours() === 0)).toBe(true);
  });
});
