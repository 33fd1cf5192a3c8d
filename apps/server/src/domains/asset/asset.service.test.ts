/**
 * Proves the asset valuation with a real engine behind a real host: the four accounts in order, every asset
 * listed, USDT values from the last trade price of `<COIN>/USDT` (rounded down at the USDT scale), CNY at the
 * configured rate (rounded down to 2 decimals), coins without a USDT price valued 0, and exact totals.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config/env';
import { openDb, type DbHandle } from '../../platform/db/client';
import { createEngineHost, type EngineHost } from '../../platform/engine-host/engine-host';
import { MACHINES, PROJECTIONS, SCHEMA_MODULE } from '../../main/domains';
import { TEST_BTC_USDT, ensureMarket } from '../../platform/engine-host/test-fixtures';
import { createAssetService } from './asset.service';
import { creditDemoFunds } from './demo-faucet';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
let db: DbHandle;
let host: EngineHost;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'asset-test-'));
  db = await openDb({ schemaModule: SCHEMA_MODULE, dataDir: 'memory://' });
  host = await createEngineHost({ projections: PROJECTIONS, machines: MACHINES, config: loadConfig({ NODE_ENV: 'test' }, { dataDir: dir }), db: db.db, log });
  await ensureMarket(host, TEST_BTC_USDT);
  await host.submit({ type: 'addAsset', asset: { code: 'NOPX', scale: 4 } });
});
afterAll(async () => {
  await host.close();
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('asset service', () => {
  it('values balances exactly at the last BTC/USDT price and rounds down for display', async () => {
    expect(await creditDemoFunds(host, '7', log)).toBe('ok');
    expect(await creditDemoFunds(host, '7', log)).toBe('ok'); // idempotent: same ref
    expect(host.engine.balance('7', 'SPOT', 'USDT').available).toBe(10_000n * 100_000_000n);
    // A trade at 30,000.01 USDT sets the last price: user 8 sells 0.001 BTC to user 7.
    await host.submit({ type: 'deposit', userId: '8', asset: 'BTC', account: 'SPOT', amount: 100_000n, from: '@chain' });
    await host.submit({ type: 'deposit', userId: '8', asset: 'NOPX', account: 'OTC', amount: 12_345n, from: '@chain' });
    await host.submit({
      type: 'placeOrder',
      userId: '8',
      symbol: 'BTC/USDT',
      side: 'SELL',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 3_000_001n,
      quantity: 1000n,
    });
    const r = await host.submit({
      type: 'placeOrder',
      userId: '7',
      symbol: 'BTC/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 3_000_001n,
      quantity: 1000n,
    });
    expect(r.order?.status).toBe('FILLED');
    expect(host.engine.lastPrice('BTC/USDT')).toBe(3_000_001n);

    const svc = createAssetService({ config: loadConfig({ NODE_ENV: 'test' }, { dataDir: dir, usdtCnyRate: '7.1234' }), host, log });
    const a = svc.getAssets('7');
    expect(a.accounts.map((x) => x.type)).toEqual(['ASSETS', 'SPOT', 'CONTRACT', 'OTC']);
    const spot = a.accounts[1]!;
    expect(spot.items.map((i) => i.coin).sort()).toEqual(['BTC', 'NOPX', 'USDT']);
    // Bought 0.001 BTC for 30.00001 USDT; taker fee 0.1% in BTC: 0.000001 -> 0.00099900 BTC.
    const btc = spot.items.find((i) => i.coin === 'BTC')!;
    expect(btc).toMatchObject({ available: '0.00099900', frozen: '0.00000000', current: '0.00099900' });
    // 0.000999 x 30000.01 = 29.97000999 USDT; CNY 29.97000999 x 7.1234 = 213.4883691... -> 213.48.
    expect(btc.convertedUsdt).toBe('29.97000999');
    expect(btc.convertedCny).toBe('213.48');
    const usdt = spot.items.find((i) => i.coin === 'USDT')!;
    expect(usdt.current).toBe('9969.99999000');
    expect(usdt.convertedUsdt).toBe('9969.99999000');
    // Total 9999.96999999 USDT; CNY x 7.1234 = 71233.7862979... -> 71233.78.
    expect(spot.totalUsdt).toBe('9999.96999999');
    expect(spot.totalCny).toBe('71233.78');
    expect(a.totalUsdt).toBe('9999.96999999');
    expect(a.usdtCnyRate).toBe('7.1234');

    // A coin with no USDT market counts 0 but is listed with its balance.
    const other = svc.getAssets('8');
    const nopx = other.accounts[3]!.items.find((i) => i.coin === 'NOPX')!;
    expect(nopx).toMatchObject({ current: '1.2345', convertedUsdt: '0.00000000', convertedCny: '0.00' });
  });
});
