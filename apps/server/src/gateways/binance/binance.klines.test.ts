/**
 * Every Binance k-line interval on REST klines, spot and futures: the stored ones as before, the others (3m, 2h, 4h,
 * 6h, 8h, 12h, 3d, 1M) aggregated exactly from stored bars written to the database as market data writes them
 * (klines table), with Binance's alignment (4h at 00/04/08 UTC, 1M on calendar months) and close times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { createMarketDataRepository, type KlineRow } from '../../domains/market-data/market-data.repository';

let t: TestApp;
const H = 3_600_000;
const D = 86_400_000;
const BASE = Date.UTC(2024, 0, 31); // a Wednesday
/** Volume of hour i at 5 decimals: (i + 1) units of 0.00001. */
const vol5 = (units: number) => `0.${String(units).padStart(5, '0')}`;

/** 72 hourly bars from BASE: hour i opens at 100+i, high 200+i.50, low 100-i.25 (so 99.75-i), close 101+i. */
function hourRows(type: string): KlineRow[] {
  return Array.from({ length: 72 }, (_, i) => ({
    symbol: 'BTC/USDT',
    type,
    period: '1hour',
    time: BASE + i * H,
    open: `${100 + i}.00`,
    high: `${200 + i}.50`,
    low: `${99 - i}.75`,
    close: `${101 + i}.00`,
    volume: vol5(i + 1),
    quoteVolume: '0',
  }));
}
/** Four daily bars, Jan 30 to Feb 2 2024. */
function dayRows(type: string): KlineRow[] {
  const d = (day: number, open: string, high: string, low: string, close: string, volume: string): KlineRow => ({
    symbol: 'BTC/USDT',
    type,
    period: '1day',
    time: BASE + day * D,
    open,
    high,
    low,
    close,
    volume,
    quoteVolume: '0',
  });
  return [
    d(-1, '10.00', '12.00', '9.00', '11.00', '1.00000'),
    d(0, '11.00', '15.00', '10.50', '14.00', '2.00000'),
    d(1, '14.00', '14.50', '8.00', '9.00', '0.50000'),
    d(2, '9.00', '20.00', '8.50', '19.00', '0.25000'),
  ];
}

const get = async (url: string) => {
  const r = await t.app.inject({ method: 'GET', url });
  return { status: r.statusCode, body: r.json() as unknown };
};

beforeAll(async () => {
  t = await makeTestApp();
  const repo = createMarketDataRepository(t.ctx.db);
  await repo.upsertKlines([...hourRows('SPOT'), ...dayRows('SPOT'), ...hourRows('PERP'), ...dayRows('PERP')]);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

/** The first six fields and the close time of each row. */
const ohlcv = (rows: unknown) => (rows as unknown[][]).map((r) => [r[0], r[1], r[2], r[3], r[4], r[5], r[6]]);

describe.each([
  ['spot', '/api/v3/klines'],
  ['futures', '/fapi/v1/klines'],
])('%s klines of every Binance interval', (_name, path) => {
  it('4h from the hourly bars, exactly, opening at 00/04/08 UTC', async () => {
    const { status, body } = await get(`${path}?symbol=BTCUSDT&interval=4h&startTime=${BASE}&limit=3`);
    expect(status).toBe(200);
    expect(ohlcv(body)).toEqual([
      [BASE, '100.00', '203.50', '96.75', '104.00', '0.00010', BASE + 4 * H - 1],
      [BASE + 4 * H, '104.00', '207.50', '92.75', '108.00', '0.00026', BASE + 8 * H - 1],
      [BASE + 8 * H, '108.00', '211.50', '88.75', '112.00', '0.00042', BASE + 12 * H - 1],
    ]);
    expect((body as unknown[][])[0]).toHaveLength(12);
  });

  it('12h from a startTime inside a bucket (the next bucket first); endTime bounds the last open time', async () => {
    const { body } = await get(`${path}?symbol=BTCUSDT&interval=12h&startTime=${BASE + 1}&limit=1`);
    expect(ohlcv(body)).toEqual([[BASE + 12 * H, '112.00', '223.50', '76.75', '124.00', vol5(((13 + 24) * 12) / 2), BASE + 24 * H - 1]]);
    const until = await get(`${path}?symbol=BTCUSDT&interval=2h&startTime=${BASE}&endTime=${BASE + 4 * H}`);
    expect((until.body as number[][]).map((r) => r[0])).toEqual([BASE, BASE + 2 * H, BASE + 4 * H]);
  });

  it('1M on calendar months from the daily bars (quiet days are flat bars at the last close)', async () => {
    const { body } = await get(`${path}?symbol=BTCUSDT&interval=1M&startTime=${Date.UTC(2024, 0, 1)}&limit=2`);
    expect(ohlcv(body)).toEqual([
      [Date.UTC(2024, 0, 1), '10.00', '15.00', '9.00', '14.00', '3.00000', Date.UTC(2024, 1, 1) - 1],
      [Date.UTC(2024, 1, 1), '14.00', '20.00', '8.00', '19.00', '0.75000', Date.UTC(2024, 2, 1) - 1],
    ]);
  });

  it('3d on epoch multiples of three days; 3m, 6h, 8h answered; 1s and 7m are -1120', async () => {
    const { body } = await get(`${path}?symbol=BTCUSDT&interval=3d&startTime=${BASE - 3 * D}&limit=2`);
    const opens = (body as number[][]).map((r) => r[0]!);
    expect(opens.every((o) => o % (3 * D) === 0)).toBe(true);
    expect(opens[0]).toBe(Math.floor((BASE - D) / (3 * D)) * 3 * D);
    for (const iv of ['3m', '6h', '8h', '1w', '1d', '1m']) expect((await get(`${path}?symbol=BTCUSDT&interval=${iv}&limit=2`)).status).toBe(200);
    for (const iv of ['1s', '7m']) expect((await get(`${path}?symbol=BTCUSDT&interval=${iv}`)).body).toEqual({ code: -1120, msg: 'Invalid interval.' });
  });
});
