/**
 * Proves the Binance weights and limits (binance.weights.ts) through the scope's real hooks: X-MBX-USED-WEIGHT-1M
 * counts the IP's weight up per request; over the limit HTTP 429 -1003 with Retry-After and no handler reached;
 * an IP that keeps sending is banned (418, "IP banned until", Retry-After) until the ban ends; other IPs are not
 * affected; the weight per key; order routes count X-MBX-ORDER-COUNT-10S/-1D and refuse -1015 over the limit;
 * exchangeInfo's rateLimits come from the same config; GET depth weighs by its limit (spot 5 to 250, futures 2 to
 * 20, Binance's tables); and on the real app the app's global per-IP budget
 * (RATE_LIMIT_PER_MIN) does not apply to the Binance routes, which answer the weight header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import type { Config } from '../../platform/config/env';
import { hmacHex, keyServiceWithoutSecondFactor, makeTestScope, queryOf, registerEngineUser, type TestScope } from './binance.test-scope';
import { BAN_AFTER_REFUSALS, binanceRateLimits, FIRST_BAN_MS } from './binance.weights';

let t: TestApp;
beforeAll(async () => {
  // The app's own global budget is small: the Binance routes must not spend it.
  t = await makeTestApp({ rateLimitPerMin: 5 });
});
afterAll(async () => {
  await t?.close();
});

/** A test scope over the app's context with other Binance limits. */
async function scopeWith(limits: Partial<Config>): Promise<TestScope> {
  const svc = keyServiceWithoutSecondFactor(t.ctx);
  return makeTestScope({ ...t.ctx, apiKeys: svc, config: { ...t.ctx.config, ...limits } });
}

describe('binance weights', () => {
  it('lists the configured limits for exchangeInfo', () => {
    expect(binanceRateLimits({ binanceWeightPerMin: 6000, binanceOrdersPer10s: 100, binanceOrdersPerDay: 200000 })).toEqual([
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000 },
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 100 },
      { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: 200000 },
    ]);
    expect(binanceRateLimits({ binanceWeightPerMin: 0, binanceOrdersPer10s: 0, binanceOrdersPerDay: 5 })).toEqual([
      { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: 5 },
    ]);
  });

  it('counts weight per IP, refuses over the limit with 429 -1003, bans an IP that keeps going with 418', async () => {
    const s = await scopeWith({ binanceWeightPerMin: 10 });
    // Start at the beginning of a minute window so the whole sequence falls in one.
    t.ctx.clock.advance(60_000 - (t.ctx.clock.now() % 60_000) + 1);
    const ip = '10.9.0.1';
    const used: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await s.app.inject({ method: 'GET', url: '/api/v3/testPublic', remoteAddress: ip });
      expect(r.statusCode).toBe(200);
      used.push(String(r.headers['x-mbx-used-weight-1m']));
    }
    expect(used).toEqual(['2', '4', '6', '8', '10']);
    const over = await s.app.inject({ method: 'GET', url: '/api/v3/testPublic', remoteAddress: ip });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({
      code: -1003,
      msg: 'Too much request weight used; current limit is 10 request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.',
    });
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(over.headers['x-mbx-used-weight-1m']).toBe('10');
    // Another IP still has its own budget.
    expect((await s.app.inject({ method: 'GET', url: '/api/v3/testPublic', remoteAddress: '10.9.0.2' })).statusCode).toBe(200);
    // Keep sending after the 429: banned.
    let last = over;
    for (let i = 0; i < BAN_AFTER_REFUSALS; i++) last = await s.app.inject({ method: 'GET', url: '/api/v3/testPublic', remoteAddress: ip });
    expect(last.statusCode).toBe(418);
    const body = last.json() as { code: number; msg: string };
    expect(body.code).toBe(-1003);
    const until = Number(/IP banned until (\d+)\./.exec(body.msg)?.[1]);
    expect(until - t.ctx.clock.now()).toBeGreaterThan(FIRST_BAN_MS - 1000);
    expect(until - t.ctx.clock.now()).toBeLessThanOrEqual(FIRST_BAN_MS);
    expect(Number(last.headers['retry-after'])).toBe(FIRST_BAN_MS / 1000);
    // Still banned in the next minute (the weight window reset, the ban did not).
    t.ctx.clock.advance(61_000);
    expect((await s.app.inject({ method: 'GET', url: '/api/v3/testPublic', remoteAddress: ip })).statusCode).toBe(418);
    t.ctx.clock.advance(FIRST_BAN_MS);
    const back = await s.app.inject({ method: 'GET', url: '/api/v3/testPublic', remoteAddress: ip });
    expect(back.statusCode).toBe(200);
    expect(back.headers['x-mbx-used-weight-1m']).toBe('2');
    await s.app.close();
  });

  it('bans a repeat offender longer', async () => {
    const s = await scopeWith({ binanceWeightPerMin: 2 });
    const ip = '10.9.0.3';
    const banLength = async (): Promise<number> => {
      t.ctx.clock.advance(60_000 - (t.ctx.clock.now() % 60_000) + 1);
      let r;
      do r = await s.app.inject({ method: 'GET', url: '/api/v3/testPublic', remoteAddress: ip });
      while (r.statusCode !== 418);
      const until = Number(/until (\d+)/.exec((r.json() as { msg: string }).msg)?.[1]);
      const len = Math.round((until - t.ctx.clock.now()) / 60_000) * 60_000;
      t.ctx.clock.advance(until - t.ctx.clock.now() + 1);
      return len;
    };
    expect(await banLength()).toBe(FIRST_BAN_MS);
    expect(await banLength()).toBe(2 * FIRST_BAN_MS);
    expect(await banLength()).toBe(4 * FIRST_BAN_MS);
    await s.app.close();
  });

  it('counts weight per key and orders per account with their headers; -1003 and -1015 reach no handler', async () => {
    const s = await scopeWith({ binanceWeightPerMin: 1000, binanceOrdersPer10s: 3, binanceOrdersPerDay: 1000 });
    const svc = s.app.ctx.apiKeys;
    const userId = await registerEngineUser(t.ctx, 'weights@example.com');
    const k = await svc.create(userId, { label: 'w', keyType: 'HMAC_SHA256', spotTrade: true }, { ip: '', userAgent: '' });
    t.ctx.clock.advance(10_000 - (t.ctx.clock.now() % 10_000) + 1);
    const order = (ip: string) => {
      const q = queryOf({ timestamp: t.ctx.clock.now() });
      return s.app.inject({
        method: 'POST',
        url: `/api/v3/testOrder?${q}&signature=${hmacHex(k.secretKey!, q)}`,
        headers: { 'x-mbx-apikey': k.key.apiKey },
        remoteAddress: ip,
      });
    };
    const counts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await order(`10.8.0.${i + 1}`);
      expect(r.statusCode, r.body).toBe(200);
      counts.push(`${String(r.headers['x-mbx-order-count-10s'])}/${String(r.headers['x-mbx-order-count-1d'])}`);
    }
    expect(counts).toEqual(['1/1', '2/2', '3/3']);
    const calls = s.calls.order;
    // The account's fourth order in the 10 s window is refused, whichever IP sends it.
    const over = await order('10.8.0.9');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ code: -1015, msg: 'Too many new orders; current limit is 3 orders per 10 SECOND.' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(s.calls.order).toBe(calls);
    t.ctx.clock.advance(10_000);
    const again = await order('10.8.0.9');
    expect(again.statusCode).toBe(200);
    expect(again.headers['x-mbx-order-count-10s']).toBe('1');
    expect(again.headers['x-mbx-order-count-1d']).toBe('4');

    // The key's weight: 20 per account read; the key is refused past 1000 a minute from many IPs.
    t.ctx.clock.advance(60_000 - (t.ctx.clock.now() % 60_000) + 1);
    const read = (ip: string) => {
      const q = queryOf({ timestamp: t.ctx.clock.now() });
      return s.app.inject({
        method: 'GET',
        url: `/api/v3/testAccount?${q}&signature=${hmacHex(k.secretKey!, q)}`,
        headers: { 'x-mbx-apikey': k.key.apiKey },
        remoteAddress: ip,
      });
    };
    for (let i = 0; i < 50; i++) expect((await read(`10.7.${i}.1`)).statusCode).toBe(200);
    const before = s.calls.account;
    const refused = await read('10.7.99.1');
    expect(refused.statusCode).toBe(429);
    expect((refused.json() as { code: number }).code).toBe(-1003);
    expect(s.calls.account).toBe(before);
    await s.app.close();
  });

  it("charges GET depth by its limit as Binance's tables do (spot and futures)", async () => {
    // each request from its own IP: the header is then the weight of that one request
    let n = 0;
    const weight = async (url: string): Promise<number> => {
      const r = await t.app.inject({ method: 'GET', url, remoteAddress: `10.8.${Math.floor(n / 250)}.${(n++ % 250) + 1}` });
      return Number(r.headers['x-mbx-used-weight-1m']);
    };
    const spot: number[] = [];
    for (const q of ['', '&limit=1', '&limit=100', '&limit=101', '&limit=500', '&limit=501', '&limit=1000', '&limit=1001', '&limit=5000', '&limit=x'])
      spot.push(await weight(`/api/v3/depth?symbol=BTCUSDT${q}`));
    expect(spot).toEqual([5, 5, 5, 25, 25, 50, 50, 250, 250, 5]);
    const futures: number[] = [];
    for (const q of ['', '&limit=5', '&limit=50', '&limit=100', '&limit=500', '&limit=1000']) futures.push(await weight(`/fapi/v1/depth?symbol=BTCUSDT${q}`));
    expect(futures).toEqual([10, 2, 2, 5, 10, 20]);
  });

  it('exempts the Binance routes of the real app from the app global per-IP budget', async () => {
    for (let i = 0; i < 12; i++) {
      const r = await t.app.inject({ method: 'GET', url: '/api/v3/ping', remoteAddress: '10.6.0.1' });
      expect(r.statusCode).toBe(200);
      expect(Number(r.headers['x-mbx-used-weight-1m'])).toBeGreaterThanOrEqual(i + 1);
    }
    // The app's routes still spend it.
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await t.app.inject({ method: 'GET', url: '/api/data/data/getMainCurs', remoteAddress: '10.6.0.1' })).statusCode);
    expect(codes).toContain(429);
  });
});
