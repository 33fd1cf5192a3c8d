/**
 * Every k-line interval Binance lists, on every REST k-line route we serve: spot klines and uiKlines, futures klines,
 * markPriceKlines and continuousKlines (contractType PERPETUAL). From bars of each stored period written to the
 * database as market data writes them (klines table, rows 'SPOT', 'PERP' and 'MARK'), each of the fifteen intervals
 * (1m 3m 5m 15m 30m 1h 2h 4h 6h 8h 12h 1d 3d 1w 1M) answers rows aligned as Binance's (epoch multiples, weeks on
 * Monday 00:00 UTC, calendar months) with close = next open - 1; 1s is -1120 (spot: Binance serves it, we keep no
 * second bars; futures: Binance has none). continuousKlines PERPETUAL equals klines; its other checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { createMarketDataRepository, type KlineRow } from '../../domains/market-data/market-data.repository';

let t: TestApp;
const MIN = 60_000;
const H = 60 * MIN;
const D = 24 * H;
const BASE = Date.UTC(2024, 0, 1); // a Monday
const STORED: Array<[string, number, number]> = [
  ['1min', MIN, 12],
  ['5min', 5 * MIN, 4],
  ['15min', 15 * MIN, 4],
  ['30min', 30 * MIN, 4],
  ['1hour', H, 30],
  ['1day', D, 70],
  ['1week', 7 * D, 3],
];
/** Bars of each stored period from BASE, bar i: open 100+i, high 200+i, low 50, close 101+i, volume 1. */
function rows(type: string): KlineRow[] {
  return STORED.flatMap(([period, ms, n]) =>
    Array.from({ length: n }, (_, i) => ({
      symbol: 'BTC/USDT',
      type,
      period,
      time: BASE + i * ms,
      open: `${100 + i}.00`,
      high: `${200 + i}.00`,
      low: '50.00',
      close: `${101 + i}.00`,
      volume: '1.00000',
      quoteVolume: '0',
    })),
  );
}
const get = async (url: string) => {
  const r = await t.app.inject({ method: 'GET', url });
  return { status: r.statusCode, body: r.json() as unknown };
};
const FIXED: Record<string, number> = {
  '1m': MIN,
  '3m': 3 * MIN,
  '5m': 5 * MIN,
  '15m': 15 * MIN,
  '30m': 30 * MIN,
  '1h': H,
  '2h': 2 * H,
  '4h': 4 * H,
  '6h': 6 * H,
  '8h': 8 * H,
  '12h': 12 * H,
  '1d': D,
  '3d': 3 * D,
};
/** Binance's open and close time of the bar of `interval` that contains `ts`. */
function bucket(interval: string, ts: number): [number, number] {
  if (interval === '1M') {
    const d = new Date(ts);
    return [Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - 1];
  }
  if (interval === '1w') {
    const open = Math.floor((ts - 4 * D) / (7 * D)) * 7 * D + 4 * D;
    return [open, open + 7 * D - 1];
  }
  const ms = FIXED[interval]!;
  const open = Math.floor(ts / ms) * ms;
  return [open, open + ms - 1];
}
const INTERVALS = [...Object.keys(FIXED), '1w', '1M'];
const ROUTES = [
  '/api/v3/klines?symbol=BTCUSDT',
  '/api/v3/uiKlines?symbol=BTCUSDT',
  '/fapi/v1/klines?symbol=BTCUSDT',
  '/fapi/v1/markPriceKlines?symbol=BTCUSDT',
  '/fapi/v1/continuousKlines?pair=BTCUSDT&contractType=PERPETUAL',
];

beforeAll(async () => {
  t = await makeTestApp();
  await createMarketDataRepository(t.ctx.db).upsertKlines([...rows('SPOT'), ...rows('PERP'), ...rows('MARK')]);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('every Binance interval on every REST k-line route', () => {
  it.each(ROUTES)('%s: the fifteen intervals answer aligned rows from the stored bars; 1s is -1120', async (route) => {
    expect(INTERVALS).toHaveLength(15);
    for (const iv of INTERVALS) {
      const { status, body } = await get(`${route}&interval=${iv}&startTime=${BASE}&limit=2`);
      expect(status, `${route} ${iv}`).toBe(200);
      const bars = body as Array<[number, string, string, string, string, string, number]>;
      expect(bars.length, `${route} ${iv}`).toBeGreaterThan(0);
      const [open, close] = bucket(iv, BASE);
      expect(bars[0]![0], `${route} ${iv}`).toBe(open === BASE ? BASE : close + 1); // the first bar opening at or after startTime
      for (const b of bars) {
        expect([b[0], b[6]], `${route} ${iv}`).toEqual(bucket(iv, b[0]));
        expect(b[1], `${route} ${iv}`).toMatch(/^1[0-9]{2}\.00$/); // an open of the stored bars, not invented
        expect(b[3], `${route} ${iv}`).toBe('50.00');
      }
      if (bars.length > 1) expect(bars[1]![0], `${route} ${iv}`).toBe(bars[0]![6] + 1);
    }
    expect(await get(`${route}&interval=1s`)).toEqual({ status: 400, body: { code: -1120, msg: 'Invalid interval.' } });
  });

  it('continuousKlines PERPETUAL equals klines; delivery types have no contract here; bad input is refused', async () => {
    for (const iv of ['1m', '4h', '1M']) {
      const k = await get(`/fapi/v1/klines?symbol=BTCUSDT&interval=${iv}&startTime=${BASE}&limit=3`);
      const c = await get(`/fapi/v1/continuousKlines?pair=BTCUSDT&contractType=PERPETUAL&interval=${iv}&startTime=${BASE}&limit=3`);
      expect(c).toEqual(k);
      expect((c.body as unknown[]).length).toBeGreaterThan(0);
    }
    expect(await get(`/fapi/v1/continuousKlines?pair=BTCUSDT&contractType=CURRENT_QUARTER&interval=1h`)).toEqual({ status: 200, body: [] });
    expect(await get(`/fapi/v1/continuousKlines?pair=BTCUSDT&contractType=WEEKLY&interval=1h`)).toEqual({
      status: 400,
      body: { code: -1130, msg: "Data sent for parameter 'contractType' is not valid." },
    });
    expect((await get(`/fapi/v1/continuousKlines?contractType=PERPETUAL&interval=1h`)).body).toMatchObject({ code: -1102 });
    expect((await get(`/fapi/v1/continuousKlines?pair=BTCUSDT&interval=1h`)).body).toMatchObject({ code: -1102 });
    expect((await get(`/fapi/v1/continuousKlines?pair=NOPEUSDT&contractType=PERPETUAL&interval=1h`)).body).toMatchObject({ code: -1121 });
    expect((await get(`/fapi/v1/continuousKlines?pair=BTCUSDT&contractType=PERPETUAL&interval=7m`)).body).toEqual({ code: -1120, msg: 'Invalid interval.' });
  });
});
