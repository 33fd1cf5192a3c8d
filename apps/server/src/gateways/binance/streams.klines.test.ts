/**
 * Kline streams of every interval the REST klines answer (1m 3m 5m 15m 30m 1h 2h 4h 6h 8h 12h 1d 3d 1w 1M): the
 * live bar of an interval built from a finer stored period (LiveAggregatedBar) with exact values, its alignment as
 * Binance's (3d every third day from the epoch, 1M on the 1st UTC) and x = true once on a bucket's last push; then
 * over a real socket (port 8162) a spot trade pushed on all fifteen streams, each bar aligned as Binance's and equal
 * to the REST klines' bar of the same interval, the 1m and 3m bars exact, the 1m bar closed with x = true; futures
 * kline and continuous kline names of every interval, and an unknown interval refused as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kline } from '@exchange/api';
import type { Command } from '@exchange/core';
import { AGGREGATED_INTERVALS } from '../../domains/market-data/bar-aggregate';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { Client } from '../ws/ws-test-support';
import { LiveAggregatedBar } from './streams.klines';

type Msg = Record<string, unknown>;
const MIN = 60_000;
const H = 60 * MIN;
const D = 24 * H;
const dec = { priceDecimals: 2, qtyDecimals: 5 };
const bar = (time: number, o: string, h: string, l: string, c: string, v: string): Kline => ({ time, open: o, high: h, low: l, close: c, volume: v });

describe('LiveAggregatedBar', () => {
  it('builds the 3d bar from day bars, aligned every third day from 1970-01-01, and closes it once', () => {
    const live = new LiveAggregatedBar(AGGREGATED_INTERVALS['3d']!, dec);
    const d0 = Date.UTC(2024, 0, 3); // day 19725 since the epoch, a multiple of 3: a 3d bucket opens here
    expect(d0 / D).toBe(19_725);
    live.seed([bar(d0 - D, '1.00', '1.00', '1.00', '1.00', '9.00000'), bar(d0, '10.00', '12.00', '9.00', '11.00', '1.00000')], d0 + D + 5);
    expect(live.ready).toBe(true);
    // The first push of the second day: the bucket holds both days (the day before d0 belongs to the previous bucket).
    expect(live.push(bar(d0 + D, '11.00', '15.50', '10.00', '14.00', '0.50000'))).toEqual({
      closed: null,
      current: { time: d0, open: '10.00', high: '15.50', low: '9.00', close: '14.00', volume: '1.50000', closeTime: d0 + 3 * D - 1 },
    });
    // A later state of the same day replaces the earlier one.
    expect(live.push(bar(d0 + D, '11.00', '15.50', '8.00', '8.50', '0.75000')).current).toEqual({
      time: d0,
      open: '10.00',
      high: '15.50',
      low: '8.00',
      close: '8.50',
      volume: '1.75000',
      closeTime: d0 + 3 * D - 1,
    });
    // The first day of the next bucket closes this one (its last state), once.
    const next = live.push(bar(d0 + 3 * D, '8.50', '8.50', '8.50', '8.50', '0.00000'));
    expect(next.closed).toEqual({ time: d0, open: '10.00', high: '15.50', low: '8.00', close: '8.50', volume: '1.75000', closeTime: d0 + 3 * D - 1 });
    expect(next.current).toMatchObject({ time: d0 + 3 * D, closeTime: d0 + 6 * D - 1 });
    expect(live.push(bar(d0 + 3 * D, '8.50', '9.00', '8.50', '9.00', '0.10000')).closed).toBeNull();
    // A stale bar of the closed bucket is ignored.
    expect(live.push(bar(d0 + 2 * D, '1.00', '1.00', '1.00', '1.00', '1.00000'))).toEqual({ closed: null, current: null });
  });

  it('builds the 1M bar on calendar months (the 1st, 00:00 UTC), 29 days in February 2024', () => {
    const live = new LiveAggregatedBar(AGGREGATED_INTERVALS['1M']!, dec);
    const feb = Date.UTC(2024, 1, 1);
    const mar = Date.UTC(2024, 2, 1);
    live.seed([], Date.UTC(2024, 1, 10, 12));
    expect(live.push(bar(Date.UTC(2024, 1, 10), '5.00', '6.00', '4.00', '5.50', '2.00000')).current).toEqual({
      time: feb,
      open: '5.00',
      high: '6.00',
      low: '4.00',
      close: '5.50',
      volume: '2.00000',
      closeTime: mar - 1,
    });
    expect(mar - feb).toBe(29 * D);
    const out = live.push(bar(mar, '5.50', '5.50', '5.50', '5.50', '0.00000'));
    expect(out.closed).toMatchObject({ time: feb, close: '5.50', closeTime: mar - 1 });
    expect(out.current).toMatchObject({ time: mar, closeTime: Date.UTC(2024, 3, 1) - 1 });
  });

  it('keeps the pushes that come before its seed read ends, and they win over the read', () => {
    const live = new LiveAggregatedBar(AGGREGATED_INTERVALS['4h']!, dec);
    const h0 = Date.UTC(2024, 0, 1, 8); // 08:00 UTC opens a 4h bucket
    expect(live.push(bar(h0 + H, '2.00', '3.00', '2.00', '3.00', '1.00000'))).toEqual({ closed: null, current: null });
    live.seed([bar(h0, '1.00', '2.00', '1.00', '2.00', '1.00000'), bar(h0 + H, '2.00', '2.50', '2.00', '2.50', '0.50000')], h0 + H + 10);
    expect(live.current()).toEqual({ time: h0, open: '1.00', high: '3.00', low: '1.00', close: '3.00', volume: '2.00000', closeTime: h0 + 4 * H - 1 });
  });
});

let t: TestApp;
let base: string;
const U = 100_000_000n;
const INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M'];
const FIXED: Record<string, number> = { '1m': MIN, '3m': 3 * MIN, '5m': 5 * MIN, '15m': 15 * MIN, '30m': 30 * MIN, '1h': H };
for (const h of [2, 4, 6, 8, 12]) FIXED[`${h}h`] = h * H;
FIXED['1d'] = D;
FIXED['3d'] = 3 * D;
/** Binance's open and close time of the `interval` bar containing `ts` (written here from Binance's rule, not our code). */
function bucket(interval: string, ts: number): [number, number] {
  if (interval === '1M') {
    const d = new Date(ts);
    return [Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - 1];
  }
  if (interval === '1w') {
    const open = Math.floor((ts - 4 * D) / (7 * D)) * 7 * D + 4 * D; // Monday 1970-01-05
    return [open, open + 7 * D - 1];
  }
  const ms = FIXED[interval]!;
  const open = Math.floor(ts / ms) * ms;
  return [open, open + ms - 1];
}
const submit = async (cmd: Record<string, unknown>) => {
  const r = await t.ctx.host.submit(cmd as unknown as Command);
  expect(r.code).toBe('ok');
};
const next = (c: Client, pred: (m: Msg) => boolean, ms = 5000) => c.next((m) => pred(m as Msg), ms) as Promise<Msg>;
const kOf = (m: Msg) => (m.data as { k: Msg }).k;
const place = (userId: string, side: 'BUY' | 'SELL', price: string, amount: string) =>
  t.ctx.spot.place(userId, { pairsName: 'LTC/USDT', side, orderType: 'LIMIT', price, amount });
const trade = async (price: string, amount: string) => {
  await place('kl-a', 'SELL', price, amount);
  await place('kl-b', 'BUY', price, amount);
};

beforeAll(async () => {
  t = await makeTestApp();
  await t.app.listen({ port: 8162, host: '127.0.0.1' });
  base = 'ws://127.0.0.1:8162';
  for (const id of ['kl-a', 'kl-b']) {
    await submit({ type: 'deposit', userId: id, asset: 'LTC', account: 'SPOT', amount: 1000n * U, from: '@faucet' });
    await submit({ type: 'deposit', userId: id, asset: 'USDT', account: 'SPOT', amount: 10_000_000n * U, from: '@faucet' });
  }
});
afterAll(async () => {
  await t?.close();
});

describe('kline streams of every interval', () => {
  it('push a spot trade on all fifteen intervals, aligned as Binance, equal to the REST bars; 1m and 3m exact; x once closed', async () => {
    await trade('70.00', '1.000');
    const c = await Client.open(`${base}/stream?streams=${INTERVALS.map((i) => `ltcusdt@kline_${i}`).join('/')}`);
    await new Promise((r) => setTimeout(r, 300)); // the aggregated streams' seed reads end
    // A fresh 3-minute bucket, 1 s in: the 1m and 3m bars hold only what follows.
    const now = t.ctx.clock.now();
    t.ctx.clock.advance(3 * MIN - (now % (3 * MIN)) + 1_000);
    const at = t.ctx.clock.now();
    // The quiet minute's flat bar (at the last close) opens the minute before the trade does.
    const flat = await next(c, (m) => m.stream === 'ltcusdt@kline_1m' && kOf(m).t === bucket('1m', at)[0], 5000);
    expect(kOf(flat)).toMatchObject({ o: '70.00', c: '70.00', v: '0.000', x: false });
    await trade('71.50', '2.000');
    await trade('69.25', '0.500');
    for (const interval of INTERVALS) {
      const m = await next(c, (x) => x.stream === `ltcusdt@kline_${interval}` && kOf(x).c === '69.25', 5000);
      const [open, close] = bucket(interval, at);
      const k = kOf(m);
      expect(m.data).toMatchObject({ e: 'kline', s: 'LTCUSDT' });
      expect(k).toMatchObject({ t: open, T: close, s: 'LTCUSDT', i: interval, f: -1, L: -1, n: 0, x: false, q: '0', V: '0', Q: '0', B: '0' });
      const rest = (await t.app.inject({ method: 'GET', url: `/api/v3/klines?symbol=LTCUSDT&interval=${interval}&limit=1` })).json() as unknown[][];
      expect([k.t, k.o, k.h, k.l, k.c, k.v, k.T], interval).toEqual(rest[0]!.slice(0, 7));
      if (interval === '1m' || interval === '3m') expect([k.o, k.h, k.l, k.c, k.v], interval).toEqual(['70.00', '71.50', '69.25', '69.25', '2.500']);
    }
    // The next minute closes the 1m bar: its last state once more with x = true.
    t.ctx.clock.advance(MIN);
    const closed = await next(c, (m) => m.stream === 'ltcusdt@kline_1m' && kOf(m).x === true && kOf(m).t === bucket('1m', at)[0], 5000);
    expect(kOf(closed)).toMatchObject({ t: bucket('1m', at)[0], o: '70.00', h: '71.50', l: '69.25', c: '69.25', v: '2.500', x: true });
    c.close();
  });

  it('serve futures kline and continuous kline streams of every interval; an unknown interval keeps its error', async () => {
    const c = await Client.open(`${base}/fstream/ws`);
    const names = INTERVALS.flatMap((i) => [`btcusdt@kline_${i}`, `BTCUSDT_PERPETUAL@continuousKline_${i}`]);
    c.send({ method: 'SUBSCRIBE', params: names, id: 1 });
    expect(await next(c, (m) => m.id === 1)).toEqual({ result: null, id: 1 });
    c.send({ method: 'LIST_SUBSCRIPTIONS', id: 2 });
    const listed = ((await next(c, (m) => m.id === 2)).result as string[]).slice().sort();
    expect(listed).toEqual(INTERVALS.flatMap((i) => [`btcusdt@kline_${i}`, `btcusdt_perpetual@continuousKline_${i}`]).sort());
    c.send({ method: 'SUBSCRIBE', params: ['btcusdt@kline_1s'], id: 3 });
    expect(await next(c, (m) => m.id === 3)).toEqual({ error: { code: 2, msg: "Invalid request: invalid stream name 'btcusdt@kline_1s'" }, id: 3 });
    c.send({ method: 'SUBSCRIBE', params: ['btcusdt_perpetual@continuousKline_7m'], id: 4 });
    expect(await next(c, (m) => m.id === 4)).toMatchObject({ error: { code: 2 } });
    c.close();
    const s = await Client.open(`${base}/ws`);
    s.send({ method: 'SUBSCRIBE', params: ['ltcusdt@kline_2d'], id: 5 });
    expect(await next(s, (m) => m.id === 5)).toEqual({ error: { code: 2, msg: "Invalid request: invalid stream name 'ltcusdt@kline_2d'" }, id: 5 });
    s.send({ method: 'SUBSCRIBE', params: ['ltcusdt_perpetual@continuousKline_1m'], id: 6 }); // futures only
    expect(await next(s, (m) => m.id === 6)).toMatchObject({ error: { code: 2 } });
    s.close();
  });
});
