/**
 * The audit record of the live index on a real database (PGlite, or PostgreSQL with DATABASE_URL): a tick's result
 * and every input are written and read back exactly (decimal strings, statuses, ages), a repeated (symbol, ts) keeps
 * the first row, and the retention rule deletes ticks older than INDEX_TICKS_KEEP_DAYS (35) and keeps the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { loadConfig } from '../../platform/config/env';
import { DAY_MS, runRetention } from '../../platform/db/retention';
import { applyIndexRule } from './index-rule';
import { indexTicksBetween, insertIndexTicks, latestIndexTick } from './index-price.repository';
import { createIndexComponentsService } from './index-components.service';
import { indexTicksRetention } from './index-price.tables';

const NOW = Date.UTC(2026, 5, 1);
let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ marketMakers: false });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const result = (ts: number) =>
  applyIndexRule(
    [
      { source: 'binance', price: '61685.99000000', volume24h: '600000000', ts: ts - 100 },
      { source: 'okx', price: '74023.1', volume24h: '300000000', ts: ts - 200 },
      { source: 'bybit', price: '61680', volume24h: '100000000', ts: ts - 20_000 },
    ],
    ts,
    { priceDecimals: 2, maxAgeMs: 10_000, jumpBps: 2500, minSources: 2 },
  );

describe('index_price_ticks', () => {
  it('keeps each tick with its inputs exactly, the first row of a (symbol, ts)', async () => {
    const r = result(NOW);
    await insertIndexTicks(t.ctx.db, [{ symbol: 'BTC/USDT', ts: NOW, result: r }]);
    await insertIndexTicks(t.ctx.db, [{ symbol: 'BTC/USDT', ts: NOW, result: { ...r, price: '1.00' } }]);
    const rows = await indexTicksBetween(t.ctx.db, 'BTC/USDT', NOW, NOW + 1);
    // median of 61685.99 and 74023.1 = 67854.545; both 9.09% off, clamped to
    // 65818.90865 and 69890.18135; (6 x 65818.90865 + 3 x 69890.18135) / 9 = 67175.99955
    expect(rows).toEqual([
      {
        symbol: 'BTC/USDT',
        ts: NOW,
        price: '67176.00',
        median: '67854.545',
        stale: false,
        reason: null,
        used: 2,
        inputs: [
          { source: 'binance', price: '61685.99000000', volume24h: '600000000', ts: NOW - 100, ageMs: 100, status: 'clamped', usedPrice: '65818.90865' },
          { source: 'okx', price: '74023.1', volume24h: '300000000', ts: NOW - 200, ageMs: 200, status: 'clamped', usedPrice: '69890.18135' },
          { source: 'bybit', price: '61680', volume24h: '100000000', ts: NOW - 20_000, ageMs: 20_000, status: 'stale', usedPrice: null },
        ],
      },
    ]);
  });
  it('the retention rule deletes ticks older than 35 days only', async () => {
    await insertIndexTicks(t.ctx.db, [
      { symbol: 'ETH/USDT', ts: NOW - 36 * DAY_MS, result: result(NOW - 36 * DAY_MS) },
      { symbol: 'ETH/USDT', ts: NOW - 34 * DAY_MS, result: result(NOW - 34 * DAY_MS) },
    ]);
    const report = await runRetention(t.ctx.db, indexTicksRetention, { retention: loadConfig({}).retention, now: NOW });
    expect(report).toEqual({ index_price_ticks: 1 });
    expect((await indexTicksBetween(t.ctx.db, 'ETH/USDT', 0, NOW)).map((r) => r.ts)).toEqual([NOW - 34 * DAY_MS]);
  });
  it("answers a gateway's components from the last recorded tick, and none on the replay", async () => {
    await insertIndexTicks(t.ctx.db, [
      { symbol: 'SOL/USDT', ts: NOW - 2000, result: result(NOW - 2000) },
      { symbol: 'SOL/USDT', ts: NOW - 1000, result: result(NOW - 1000) },
    ]);
    expect((await latestIndexTick(t.ctx.db, 'SOL/USDT'))?.ts).toBe(NOW - 1000);
    expect(await latestIndexTick(t.ctx.db, 'NONE/USDT')).toBeUndefined();
    const live = createIndexComponentsService({ db: t.ctx.db, mode: 'live' });
    // binance and okx used (clamped) by volume 6:3, bybit stale
    expect(await live.components('SOL/USDT')).toEqual({
      symbol: 'SOL/USDT',
      mode: 'live',
      time: NOW - 1000,
      price: '67176.00',
      stale: false,
      reason: null,
      components: [
        { source: 'binance', price: '61685.99000000', weight: '0.66666666', status: 'clamped' },
        { source: 'okx', price: '74023.1', weight: '0.33333333', status: 'clamped' },
        { source: 'bybit', price: '61680', weight: '0', status: 'stale' },
      ],
    });
    // this process's own tick comes first
    live.set({ symbol: 'SOL/USDT', mode: 'live', time: NOW, price: '1.00', stale: true, reason: 'no_sources', components: [] });
    expect((await live.components('SOL/USDT')).time).toBe(NOW);
    const replay = createIndexComponentsService({ db: t.ctx.db, mode: 'replay' });
    expect(await replay.components('SOL/USDT')).toEqual({ symbol: 'SOL/USDT', mode: 'replay', time: 0, price: '', stale: false, reason: null, components: [] });
  });
});
