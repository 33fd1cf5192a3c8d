/**
 * The Binance scope: public routes answer Binance's shapes, and an error anywhere under it is Binance's
 * `{ code, msg }` body with its HTTP status, never the app's envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../../test/helpers';

describe('binance scope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers ping and time in Binance shapes', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v3/ping' })).json()).toEqual({});
    const before = Date.now();
    const time = (await t.app.inject({ method: 'GET', url: '/fapi/v1/time' })).json() as { serverTime: number };
    expect(time.serverTime).toBeGreaterThanOrEqual(before - 1);
    expect(time.serverTime).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('answers a bad character with -1100 in Binance error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v3/ping?x=%00' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: -1100, msg: "Illegal characters found in parameter 'x'." });
  });
});
