/**
 * GET /futures/data/openInterestHist (Binance "Open Interest Statistics") against the real engine and database
 * (PGlite), fed by the open interest job (domains/market-jobs/open-interest.job.ts) driven with an injected clock:
 * nothing before the first sample, each sample the engine's open interest at its 5-minute boundary (a trade changes
 * the next one), periods as the samples at their multiples, limit/startTime/endTime, Binance's errors for bad input;
 * and CCXT 4.5.84's fetchOpenInterestHistory over it (its binance class unchanged, only the URLs pointed here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import { formatDecimal } from '@exchange/core';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { binanceUrls } from '../../../test/ccxt/ccxt-urls';
import { fundContract, tick } from '../../domains/perp/perp-test-support';
import { startOpenInterestJob } from '../../domains/market-jobs/open-interest.job';
import { openInterestRetention } from '../../domains/market-jobs/open-interest.tables';
import { runRetention } from '../../platform/db/retention';

let t: TestApp;
const SYM = 'BTC/USDT';
const HOUR = 3_600_000;
const MIN5 = 300_000;
let H = 0; // an hour boundary two hours ago: the samples are dated H, H+5m and H+1h
const get = async (url: string) => {
  const r = await t.app.inject({ method: 'GET', url });
  return { status: r.statusCode, body: r.json() as unknown };
};
type Row = { symbol: string; sumOpenInterest: string; sumOpenInterestValue: string; timestamp: number };
const rows = async (q: string) => (await get(`/futures/data/openInterestHist?symbol=BTCUSDT&${q}`)).body as Row[];
/** One check of a fresh job at `ms` on its clock (no timer). */
async function sampleAt(ms: number): Promise<number> {
  const job = startOpenInterestJob({ host: t.ctx.host, db: t.ctx.db, log: t.ctx.log, now: () => ms, intervalMs: 0 });
  const n = await job.tick();
  await job.stop();
  return n;
}
const markOf = () => t.ctx.host.engine.perpMarkState(SYM)!.markPrice!;
const trade = async (qty: string) => {
  await t.ctx.perp.placeOrder('oi-2', { symbol: SYM, side: 'SELL', orderType: 'LIMIT', price: '50000.00', quantity: qty });
  await t.ctx.perp.placeOrder('oi-1', { symbol: SYM, side: 'BUY', orderType: 'MARKET', quantity: qty });
};

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  await tick(t.ctx.host, 5_000_000n, SYM);
  for (const u of ['oi-1', 'oi-2']) await fundContract(t.ctx.host, u, 100_000n);
  H = Math.floor(t.ctx.clock.now() / HOUR) * HOUR - 2 * HOUR;
});
afterAll(async () => {
  await t?.close();
});

describe('GET /futures/data/openInterestHist', () => {
  it('answers nothing before the first sample, then each sample at its boundary; a trade changes the next sample', async () => {
    expect(await get('/futures/data/openInterestHist?symbol=BTCUSDT&period=5m')).toEqual({ status: 200, body: [] });
    expect(t.ctx.host.engine.openInterest(SYM)).toBe(0n);
    const markets = t.ctx.host.engine.perpMarkets().filter((m) => m.status === 'TRADING').length;
    expect(await sampleAt(H + 2_000)).toBe(markets);
    await trade('0.10000');
    expect(t.ctx.host.engine.openInterest(SYM)).toBe(10_000n);
    expect(await sampleAt(H + MIN5 + 59_000)).toBe(markets);
    await trade('0.05000');
    expect(await sampleAt(H + HOUR)).toBe(markets);
    const mark = markOf();
    expect(mark).toBe(5_000_000n);
    expect(await rows('period=5m')).toEqual([
      { symbol: 'BTCUSDT', sumOpenInterest: '0.00000', sumOpenInterestValue: '0.0000000', timestamp: H },
      { symbol: 'BTCUSDT', sumOpenInterest: '0.10000', sumOpenInterestValue: '5000.0000000', timestamp: H + MIN5 },
      { symbol: 'BTCUSDT', sumOpenInterest: '0.15000', sumOpenInterestValue: formatDecimal(15_000n * mark, 7), timestamp: H + HOUR },
    ]);
    expect((await rows('period=5m'))[2]!.sumOpenInterestValue).toBe('7500.0000000');
  });

  it('samples a boundary once, only within its first minute; a second sampler of the same boundary changes nothing', async () => {
    expect(await sampleAt(H + MIN5 + 60_000 + MIN5)).toBe(0); // 1 min after H+10m: too late to date a sample at H+10m
    await trade('0.01000');
    expect(await sampleAt(H + HOUR + 30_000)).toBe(t.ctx.host.engine.perpMarkets().filter((m) => m.status === 'TRADING').length); // another job, same boundary
    const last = (await rows('period=5m&limit=1'))[0]!;
    expect(last).toMatchObject({ timestamp: H + HOUR, sumOpenInterest: '0.15000' }); // the first row stays
    expect((await rows('period=5m')).map((r) => r.timestamp)).toEqual([H, H + MIN5, H + HOUR]);
  });

  it('periods keep the samples at their multiples; limit, startTime and endTime select as Binance does', async () => {
    expect((await rows('period=1h')).map((r) => [r.timestamp, r.sumOpenInterest])).toEqual([
      [H, '0.00000'],
      [H + HOUR, '0.15000'],
    ]);
    expect((await rows('period=15m')).map((r) => r.timestamp)).toEqual([H, H + HOUR]);
    expect((await rows('period=1d')).map((r) => r.timestamp)).toEqual([H, H + HOUR].filter((ts) => ts % 86_400_000 === 0)); // midnight UTC only
    expect((await rows('period=5m&limit=2')).map((r) => r.timestamp)).toEqual([H + MIN5, H + HOUR]);
    expect((await rows(`period=5m&limit=2&startTime=${H}`)).map((r) => r.timestamp)).toEqual([H, H + MIN5]);
    expect((await rows(`period=5m&startTime=${H + 1}`)).map((r) => r.timestamp)).toEqual([H + MIN5, H + HOUR]);
    expect((await rows(`period=5m&endTime=${H + MIN5}`)).map((r) => r.timestamp)).toEqual([H, H + MIN5]);
    // Another market was sampled too (its own rows, open interest 0), never mixed into BTCUSDT's.
    const eth = (await get('/futures/data/openInterestHist?symbol=ETHUSDT&period=5m')).body as Row[];
    expect(eth.map((r) => [r.symbol, r.sumOpenInterest, r.timestamp])).toEqual([
      ['ETHUSDT', formatDecimal(0n, t.ctx.host.engine.perpMarket('ETH/USDT')!.qtyDecimals), H],
      ['ETHUSDT', formatDecimal(0n, t.ctx.host.engine.perpMarket('ETH/USDT')!.qtyDecimals), H + MIN5],
      ['ETHUSDT', formatDecimal(0n, t.ctx.host.engine.perpMarket('ETH/USDT')!.qtyDecimals), H + HOUR],
    ]);
  });

  it('bad input answers Binance code and message', async () => {
    expect(await get('/futures/data/openInterestHist?period=5m')).toEqual({
      status: 400,
      body: { code: -1102, msg: "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed." },
    });
    expect((await get('/futures/data/openInterestHist?symbol=NOPEUSDT&period=5m')).body).toMatchObject({ code: -1121 });
    expect((await get('/futures/data/openInterestHist?symbol=BTCUSDT')).body).toMatchObject({ code: -1102 });
    for (const period of ['1m', '3m', '1w', '5M', 'x'])
      expect(await get(`/futures/data/openInterestHist?symbol=BTCUSDT&period=${period}`)).toEqual({
        status: 400,
        body: { code: -1130, msg: "Data sent for parameter 'period' is not valid." },
      });
    expect((await get('/futures/data/openInterestHist?symbol=BTCUSDT&period=5m&limit=501')).body).toMatchObject({ code: -1100 });
    expect((await get(`/futures/data/openInterestHist?symbol=BTCUSDT&period=5m&startTime=${H + 1}&endTime=${H}`)).body).toMatchObject({ code: -1130 });
  });

  it('a sample older than 30 days is neither answered nor kept (the retention rule deletes it)', async () => {
    const old = Math.floor((t.ctx.clock.now() - 31 * 86_400_000) / HOUR) * HOUR;
    expect(await sampleAt(old)).toBeGreaterThan(0);
    expect((await rows(`period=5m&startTime=${old}`)).map((r) => r.timestamp)).toEqual([H, H + MIN5, H + HOUR]);
    const report = await runRetention(t.ctx.db, openInterestRetention, { retention: t.ctx.config.retention, now: t.ctx.clock.now() });
    expect(report).toEqual({ perp_open_interest_samples: t.ctx.host.engine.perpMarkets().filter((m) => m.status === 'TRADING').length });
    expect((await rows(`period=5m&startTime=${old}`)).map((r) => r.timestamp)).toEqual([H, H + MIN5, H + HOUR]);
  });

  it("CCXT's fetchOpenInterestHistory reads the samples", async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address() as { port: number };
    const ex = new ccxt.binance({ urls: binanceUrls(`http://127.0.0.1:${addr.port}`), options: { fetchMarkets: { types: ['linear'] } } });
    await ex.loadMarkets();
    const hist = await ex.fetchOpenInterestHistory('BTC/USDT:USDT', '5m');
    expect(hist.map((h) => [h.symbol, h.timestamp, h.openInterestAmount, h.openInterestValue])).toEqual([
      ['BTC/USDT:USDT', H, 0, 0],
      ['BTC/USDT:USDT', H + MIN5, 0.1, 5000],
      ['BTC/USDT:USDT', H + HOUR, 0.15, 7500],
    ]);
    const hourly = await ex.fetchOpenInterestHistory('BTC/USDT:USDT', '1h', H + 1);
    expect(hourly.map((h) => h.timestamp)).toEqual([H + HOUR]);
  });
});
