/**
 * quoteOrderQty on Binance's spot conditional types (POST /api/v3/order and /api/v3/order/test, signed with a real
 * HMAC key, PGlite): Binance's "Mandatory parameters based on type" takes quoteOrderQty on MARKET only; STOP_LOSS,
 * TAKE_PROFIT and their _LIMIT forms take `quantity`. Sent with any of them, with or without quantity, on either side,
 * it is -1106 "Parameter 'quoteOrderQty' sent when not required." and nothing is placed (the engine's state and the
 * user's open orders unchanged).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pow10 } from '@exchange/core';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { loginUser, type TestUser } from '../../domains/spot/spot-test-support';
import { createTestKey, signedCaller, type TestKey } from '../../domains/api-keys/api-keys.test-keys';

let t: TestApp;
let user: TestUser;
let key: TestKey;
const call = signedCaller(() => t);

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  user = await loginUser(t, 'quote-cond@example.com');
  key = await createTestKey(t, user.userId);
  for (const [asset, amount] of [
    ['BTC', pow10(8)],
    ['USDT', 100_000n * pow10(8)],
  ] as const) {
    const r = await t.ctx.host.submit({ type: 'deposit', userId: user.userId, asset, account: 'SPOT', amount, from: '@chain' });
    expect(r.code).toBe('ok');
  }
});
afterAll(async () => {
  await t?.close();
});

describe('quoteOrderQty on the spot conditional types', () => {
  it('is -1106 on STOP_LOSS, TAKE_PROFIT and their _LIMIT forms, on order and order/test, and places nothing', async () => {
    const before = t.ctx.host.engine.stateHash();
    const types: Array<[string, Record<string, string>]> = [
      ['STOP_LOSS', {}],
      ['TAKE_PROFIT', {}],
      ['STOP_LOSS_LIMIT', { timeInForce: 'GTC', price: '50000' }],
      ['TAKE_PROFIT_LIMIT', { timeInForce: 'GTC', price: '50000' }],
    ];
    let n = 0;
    for (const path of ['/api/v3/order', '/api/v3/order/test'])
      for (const [type, extra] of types)
        for (const side of ['BUY', 'SELL'])
          for (const withQty of [false, true]) {
            const params = { symbol: 'BTCUSDT', side, type, stopPrice: '50000', quoteOrderQty: '100', ...extra, ...(withQty ? { quantity: '0.001' } : {}) };
            const res = await call(key, 'POST', path, params);
            expect([res.status, res.body], `${path} ${JSON.stringify(params)}`).toEqual([
              400,
              { code: -1106, msg: "Parameter 'quoteOrderQty' sent when not required." },
            ]);
            n++;
          }
    expect(n).toBe(32);
    expect(t.ctx.host.engine.stateHash()).toBe(before);
    const open = await call(key, 'GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' });
    expect([open.status, open.body]).toEqual([200, []]);
    // The same order by quantity is taken (the refusal is about quoteOrderQty alone).
    const ok = await call(key, 'POST', '/api/v3/order/test', { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_LOSS', stopPrice: '50000', quantity: '0.001' });
    expect([ok.status, ok.body]).toEqual([200, {}]);
  });
});
