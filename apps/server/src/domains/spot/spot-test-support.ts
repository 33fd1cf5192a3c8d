/**
 * Test support for the entrust API tests: a test market of 2 price and 4 quantity decimals with 0.1% fees, a
 * user logged in over HTTP, and a caller sending GET queries or form-encoded POSTs as a named user (or a visitor).
 */
import { expect } from 'vitest';
import type { MarketConfig } from '@exchange/core';
import type { TestApp } from '../../../test/helpers';

/** A TRADING market `base`/USDT: tick 0.01, step and minimum 0.0001, minimum notional one quote unit, fees 1000 ppm. */
export function testMarket(base: string): MarketConfig {
  return {
    symbol: `${base}/USDT`,
    base,
    quote: 'USDT',
    priceDecimals: 2,
    qtyDecimals: 4,
    tickSize: 1n,
    stepSize: 1n,
    minQty: 1n,
    minNotional: 1n,
    makerFeePpm: 1000,
    takerFeePpm: 1000,
    status: 'TRADING',
  };
}

/** A session of a test user. */
export interface TestUser {
  userId: string;
  token: string;
}

/** Creates (once) the e-mail user `mail` and logs in over HTTP; asserts success. */
export async function loginUser(t: TestApp, mail: string): Promise<TestUser> {
  await t.ctx.members.ensureEmailUser(mail, 'secret-pass-1', '');
  const res = await t.app.inject({ method: 'POST', url: '/api/member/member/login', payload: { account: mail, password: 'secret-pass-1' } });
  const body = res.json();
  expect(body.status).toBe('SUCCEED');
  return { userId: body.result.userId, token: body.result.token };
}

/**
 * A caller of the app API as `users[user]` (null: a visitor) in language `lang`: GET with the data as query,
 * POST form-encoded; answers the HTTP status and the parsed envelope.
 */
export function apiCaller(t: () => TestApp, users: Record<string, TestUser>) {
  return async (user: string | null, method: 'GET' | 'POST', path: string, data: Record<string, string> = {}, lang = 'en') => {
    const headers: Record<string, string> = { lang };
    if (user) Object.assign(headers, { token: users[user]!.token, userId: users[user]!.userId });
    const app = t().app;
    const res =
      method === 'GET'
        ? await app.inject({ method, url: `/api/${path}?${new URLSearchParams(data).toString()}`, headers })
        : await app.inject({
            method,
            url: `/api/${path}`,
            headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams(data).toString(),
          });
    return { status: res.statusCode, body: res.json() };
  };
}

/**
 * The `result` of a call that must succeed: `call` as built by apiCaller; the test fails with the whole envelope when
 * its status is not SUCCEED.
 */
export function apiOk(call: ReturnType<typeof apiCaller>) {
  return async (user: string | null, method: 'GET' | 'POST', path: string, data: Record<string, string> = {}) => {
    const r = await call(user, method, path, data);
    expect(r.body.status, JSON.stringify(r.body)).toBe('SUCCEED');
    return r.body.result;
  };
}
