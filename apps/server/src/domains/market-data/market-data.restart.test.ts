/**
 * Restart: a second context over the same data (PGlite directory, or the same PostgreSQL database) seeds nothing
 * twice, and finds the live data of the first run: last price, latest trades (from the projected trades), the
 * persisted 1-minute bar and the 24 h volume.
 */
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { loadConfig } from '../../platform/config/env';
import { createContext } from '../../main/context';
import type { ReferencePaths } from './price-source';
import { fakeReferencePaths } from './fake-reference-paths';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-md-restart-'));
let dbName: string | undefined;

async function databaseUrl(): Promise<string | undefined> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) return undefined;
  dbName = `exch_md_restart_${process.pid}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${dbName}`;
  return url.toString();
}

afterAll(async () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (dbName && process.env.DATABASE_URL) {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
});

describe('market data across a restart', () => {
  it('keeps listings, content, trades, bars and the 24 h window without seeding twice', async () => {
    const url = await databaseUrl();
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: url, LOG_LEVEL: 'silent' }, { dataDir, demoMode: false, marketMakers: false });
    // Only LTC's path (the coin this test trades): backfilling every listing's history (spot and perpetual) took most
    // of a minute on a loaded machine and tested nothing more.
    const fake = fakeReferencePaths(Date.now());
    const paths: ReferencePaths = { get: (b) => (b === 'LTC' ? fake.get(b) : undefined), all: () => fake.all().filter((p) => p.base === 'LTC') };

    const first = await createContext(config);
    // Trades before the history arrives (the bots start before the background backfill): the live bar is flushed
    // first and must not hide the history before it.
    await first.host.submit({ type: 'deposit', userId: 'mm-r-a', asset: 'LTC', account: 'SPOT', amount: 1_000_000_000n, from: '@faucet' });
    await first.host.submit({ type: 'deposit', userId: 'mm-r-b', asset: 'USDT', account: 'SPOT', amount: 1_000_000_000_000n, from: '@faucet' });
    await first.spot.place('mm-r-a', { pairsName: 'LTC/USDT', side: 'SELL', orderType: 'LIMIT', price: '101.23', amount: '2' });
    await first.spot.place('mm-r-b', { pairsName: 'LTC/USDT', side: 'BUY', orderType: 'MARKET', amount: '1.5' });
    await first.marketData.flush();
    await first.marketData.setReferencePaths(paths);
    const history = await first.marketData.klines('LTC/USDT', 'SPOT', '1min', 1500);
    expect(history.length).toBeGreaterThanOrEqual(1500 - 1);
    // The bar of the traded minute keeps the trade's close (the history may add the next minute's bar when the
    // clock crossed a minute between the trade and the backfill).
    const tradedMinute = Math.floor(first.marketData.trades('LTC/USDT', 'SPOT', 1)[0]!.time / 60_000) * 60_000;
    expect(history.find((b) => b.time === tradedMinute)?.close).toBe('101.23');
    const volFirst = first.marketData.pair('LTC/USDT', 'SPOT')!.volume;
    expect(Number(volFirst)).toBeGreaterThan(1000); // fake history: 300 LTC a minute
    const trades1 = first.marketData.trades('LTC/USDT', 'SPOT', 10);
    expect(trades1).toMatchObject([{ price: '101.23', amount: '1.500', side: 'BUY' }]);
    const banners1 = await first.content.banners('en');
    const notices1 = await first.content.notices('en');
    await first.host.projected();
    await first.close();

    const second = await createContext(config);
    try {
      expect(second.host.engine.markets()).toHaveLength(12);
      expect(second.marketData.listings('SPOT')).toHaveLength(12);
      expect(second.marketData.listings('CONTRACT')).toHaveLength(7);
      expect(await second.content.banners('en')).toEqual(banners1);
      expect(await second.content.notices('en')).toEqual(notices1);
      expect(second.marketData.trades('LTC/USDT', 'SPOT', 10)).toEqual(trades1);
      const pair = second.marketData.pair('LTC/USDT', 'SPOT')!;
      expect(pair.price).toBe('101.23');
      // The 24 h volume (history plus the 1.5 LTC traded) is read back from the database; the window may have
      // moved by a minute or two of fake history (300 LTC each) since the first run measured it.
      expect(Math.abs(Number(pair.volume) - Number(volFirst))).toBeLessThanOrEqual(600);
      const minute = Math.floor(trades1[0]!.time / 60_000) * 60_000;
      const atTrade = async () => (await second.marketData.klines('LTC/USDT', 'SPOT', '1min', 5)).find((b) => b.time === minute);
      expect((await atTrade())?.close).toBe('101.23');
      // the traded minute holds the 1.5 LTC traded (and the history of that minute before the first start)
      expect(Number((await atTrade())?.volume)).toBeGreaterThanOrEqual(1.5);
      // Attaching the paths again only fills the gap since the last stored bar; the traded bar stays as it was.
      await second.marketData.setReferencePaths(paths);
      expect((await atTrade())?.close).toBe('101.23');
    } finally {
      await second.close();
    }
  }, 120_000);
});
