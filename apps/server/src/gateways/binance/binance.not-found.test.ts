/**
 * Unknown paths under Binance's prefixes answer Binance's 404 `{ code: -1020, msg }`, never the web app's HTML page
 * (the app is built here with a web build, so its single-page fallback is live) nor the app's envelope; CCXT reads
 * them as BadRequest, not ExchangeNotAvailable. And GET /sapi/v1/system/status (CCXT's fetchStatus) follows the
 * exchange's readiness.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { binanceUrls } from '../../../test/ccxt/ccxt-urls';

const PORT = 8143;
let t: TestApp;
let webDist = '';

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-web-'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>app</title>');
  t = await makeTestApp({ webDist });
  await t.app.listen({ port: PORT, host: '127.0.0.1' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe('unknown paths under the Binance prefixes', () => {
  it('the web app still answers its own paths with its page (the fallback is live in this app)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/trade/BTC_USDT' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });

  it.each([
    ['GET', '/fapi/v1/openInterestHist'],
    ['GET', '/fapi/v2/nothing'],
    ['GET', '/fapi'],
    ['POST', '/fapi/v1/multiAssetsMargin'],
    ['GET', '/sapi/v1/margin/account'],
    ['GET', '/dapi/v1/depth?symbol=BTCUSD_PERP'],
    ['GET', '/eapi/v1/exchangeInfo'],
    ['GET', '/papi/v1/balance'],
    ['GET', '/futures/data/topLongShortAccountRatio?symbol=BTCUSDT&period=5m'],
    ['GET', '/api/v1/exchangeInfo'],
    ['GET', '/api/v3/nothing'],
    ['PUT', '/api/v3/order'],
  ])('%s %s: 404 with Binance -1020', async (method, url) => {
    const res = await t.app.inject({ method: method as 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toEqual({ code: -1020, msg: 'This operation is not supported.' });
  });

  it("leaves the app's own /api paths to the app's envelope", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing/here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errorCode: 'not_found' });
  });

  it('CCXT raises BadRequest (not ExchangeNotAvailable) for a route we do not serve', async () => {
    const ex = new ccxt.binance({ urls: binanceUrls(`http://127.0.0.1:${PORT}`) });
    const err = await ex.fapiDataGetTopLongShortAccountRatio({ symbol: 'BTCUSDT', period: '5m' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ccxt.BadRequest);
    expect(err).not.toBeInstanceOf(ccxt.ExchangeNotAvailable);
    expect(String(err)).toContain('-1020');
  });
});

describe('GET /sapi/v1/system/status', () => {
  it('answers 0 "normal" while the exchange is ready, through CCXT fetchStatus too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sapi/v1/system/status' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 0, msg: 'normal' });
    const ex = new ccxt.binance({ urls: binanceUrls(`http://127.0.0.1:${PORT}`) });
    expect(await ex.fetchStatus()).toMatchObject({ status: 'ok' });
  });

  it('answers 1 "system maintenance" when the engine host no longer takes commands', async () => {
    const other = await makeTestApp();
    try {
      expect((await other.app.inject({ method: 'GET', url: '/sapi/v1/system/status' })).json()).toEqual({ status: 0, msg: 'normal' });
      await other.ctx.host.close();
      expect(other.ctx.host.ready).toBe(false);
      const res = await other.app.inject({ method: 'GET', url: '/sapi/v1/system/status' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 1, msg: 'system maintenance' });
    } finally {
      await other.close();
    }
  }, 60_000);
});
