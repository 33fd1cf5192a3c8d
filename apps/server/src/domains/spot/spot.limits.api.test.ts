/**
 * Proves the bounds on one user's order entry over the API: the per-user order rate
 * limit answers 429 order_rate_limited with a sentence in the user's language and places nothing; the 200 open
 * orders per market cap answers too_many_open_orders; and order ids beyond the database's range (2^63 and up,
 * 20 digits) are "order not found", never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OPEN_ORDERS_PER_MARKET } from '@exchange/core';
import { ensureMarket } from '../../platform/engine-host/test-fixtures';
import { registerEmail } from '../member/member-test-app';
import { makeTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
let user: { token: string; userId: string };

function call(method: 'GET' | 'POST', p: string, body: Record<string, string> = {}, lang: 'en' | 'zh' = 'en') {
  const headers = { token: user.token, userId: user.userId, lang };
  return method === 'GET'
    ? t.app.inject({ method, url: `/api/${p}?${new URLSearchParams(body).toString()}`, headers })
    : t.app.inject({ method, url: `/api/${p}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
}
const limit = (price: string) => ({ pairsName: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', price, amount: '0.1' });

beforeAll(async () => {
  t = await makeTestApp({ orderRatePer10s: 5 });
  await ensureMarket(t.ctx.host);
  user = await registerEmail(t, 'limits@example.com');
  await t.ctx.members.setNickName(user.userId, 'limits');
});
afterAll(async () => {
  await t?.close();
});

describe('order entry bounds', () => {
  it('refuses the 6th order within 10 s with 429 order_rate_limited, in en and zh, placing nothing', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await call('POST', 'entrust/entrust/setEntrust', limit(`${100 + i}`));
      expect(r.json(), r.body).toMatchObject({ status: 'SUCCEED' });
    }
    const en = await call('POST', 'entrust/entrust/setEntrust', limit('110'));
    expect(en.statusCode).toBe(429);
    expect(en.json()).toMatchObject({
      status: 'FAILED',
      errorCode: 'order_rate_limited',
      errorMessage: 'Too many orders: at most 50 every 10 seconds, please slow down',
    });
    const zh = await call('POST', 'entrust/entrust/setEntrust', limit('111'), 'zh');
    expect(zh.json().errorMessage).toBe('下单过于频繁：每10秒最多50笔，请稍后再试');
    expect(t.ctx.host.engine.openOrders(user.userId)).toHaveLength(5);
  });

  it(`answers too_many_open_orders at ${MAX_OPEN_ORDERS_PER_MARKET} open orders on one market`, async () => {
    // Orders worth 10 USDT each (1 BTC at 10 USDT + i ticks), in the market's own units.
    const m = t.ctx.host.engine.market('BTC/USDT')!;
    const price10 = 10n * 10n ** BigInt(m.priceDecimals);
    const oneBtc = 10n ** BigInt(m.qtyDecimals);
    for (let i = t.ctx.host.engine.openOrders(user.userId).length; i < MAX_OPEN_ORDERS_PER_MARKET; i++) {
      const r = await t.ctx.host.submit({
        type: 'placeOrder',
        userId: user.userId,
        symbol: 'BTC/USDT',
        side: 'BUY',
        orderType: 'LIMIT',
        timeInForce: 'GTC',
        price: price10 + BigInt(i) * m.tickSize,
        quantity: oneBtc,
      });
      expect(r.code).toBe('ok');
    }
    const r = await t.ctx.host.submit({
      type: 'placeOrder',
      userId: user.userId,
      symbol: 'BTC/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: price10 - m.tickSize,
      quantity: oneBtc,
    });
    expect(r.code).toBe('too_many_open_orders');
    expect(t.ctx.host.engine.openOrders(user.userId)).toHaveLength(MAX_OPEN_ORDERS_PER_MARKET);
  });

  it('an order id of 2^63 or 20 digits is not found (404), not a server error', async () => {
    for (const id of ['9223372036854775808', '99999999999999999999', '18446744073709551616']) {
      const d = await call('GET', 'entrust/entrust/getEntrustDetail', { id });
      expect(d.statusCode).toBe(404);
      expect(d.json().errorCode).toBe('order_not_found');
      const c = await call('POST', 'entrust/entrust/cancelEntrust', { id });
      expect(c.statusCode).toBe(404);
      expect(c.json().errorCode).toBe('order_not_found');
    }
  });
});
