/**
 * Binance spot conditional orders under /api/v3 through app.inject() on PGlite (PostgreSQL with DATABASE_URL), signed
 * with real HMAC keys: each of STOP_LOSS, STOP_LOSS_LIMIT, TAKE_PROFIT and TAKE_PROFIT_LIMIT (with stopPrice, and a
 * trailing one with trailingDelta) is accepted with its type, stopPrice, trailingDelta and workingTime -1 while it
 * waits; openOrders shows it not working; a trade between two other users triggers a stop-limit SELL, which fills
 * under the same orderId with its workingTime set (GET order, allOrders); DELETE answers a pending order with its type
 * and stop price; another user's key neither sees nor cancels it; order/test checks stopPrice and trailingDelta; and
 * Binance's errors (-1102 without stopPrice/trailingDelta, -1106, -2010 "Order would trigger immediately.", TRAILING_DELTA
 * and PRICE_FILTER filter failures, -1111) leave the engine's state unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pow10 } from '@exchange/core';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { loginUser, type TestUser } from '../../domains/spot/spot-test-support';
import { createTestKey, signedCaller, type TestKey } from '../../domains/api-keys/api-keys.test-keys';

let t: TestApp;
const users: Record<string, TestUser> = {};
const keys: Record<string, TestKey> = {};
const call = signedCaller(() => t);

const bal = (user: string, coin: string) => t.ctx.host.engine.balance(users[user]!.userId, 'SPOT', coin);
const order = (user: string, params: Record<string, string>) => call(keys[user]!, 'POST', '/api/v3/order', { symbol: 'BTCUSDT', ...params });
/** An order that must be accepted; answers its body. */
async function placed(user: string, params: Record<string, string>) {
  const res = await order(user, params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
/** A trade of 0.001 BTC at `price` between mm (maker SELL) and carol (taker BUY): it moves the last price. */
async function tradeAt(price: string) {
  await placed('mm', { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price, quantity: '0.001' });
  expect((await placed('carol', { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity: '0.001' })).status).toBe('FILLED');
}

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  for (const name of ['alice', 'bob', 'carol', 'mm']) {
    users[name] = await loginUser(t, `${name}-cond@example.com`);
    keys[name] = await createTestKey(t, users[name].userId);
  }
  for (const name of ['alice', 'mm']) {
    const r = await t.ctx.host.submit({ type: 'deposit', userId: users[name]!.userId, asset: 'BTC', account: 'SPOT', amount: pow10(8), from: '@chain' });
    expect(r.code).toBe('ok');
  }
  await tradeAt('60000');
});
afterAll(async () => {
  await t?.close();
});

describe('Binance spot conditional orders', () => {
  let stopLimitId = 0;
  let tpLimitId = 0;
  it('accepts each conditional type with its stop price or trailing delta; workingTime is -1 while it waits', async () => {
    const sl = await placed('alice', {
      side: 'SELL',
      type: 'STOP_LOSS_LIMIT',
      timeInForce: 'GTC',
      price: '58000',
      stopPrice: '59000',
      quantity: '0.01',
      newClientOrderId: 'alice-sl',
      newOrderRespType: 'RESULT',
    });
    expect(sl).toMatchObject({
      symbol: 'BTCUSDT',
      clientOrderId: 'alice-sl',
      type: 'STOP_LOSS_LIMIT',
      status: 'NEW',
      price: '58000.00',
      origQty: '0.01000',
      stopPrice: '59000.00',
      workingTime: -1,
      timeInForce: 'GTC',
    });
    expect(sl.trailingDelta).toBeUndefined();
    stopLimitId = sl.orderId;
    expect(bal('alice', 'BTC').frozen).toBe(pow10(6));

    // Conditional types answer ACK by default (Binance: FULL only for MARKET and LIMIT).
    const tp = await placed('alice', { side: 'SELL', type: 'TAKE_PROFIT', stopPrice: '70000', quantity: '0.002' });
    expect(Object.keys(tp).sort()).toEqual(['clientOrderId', 'orderId', 'orderListId', 'symbol', 'transactTime']);

    const trailing = await placed('bob', { side: 'BUY', type: 'STOP_LOSS', trailingDelta: '100', quantity: '0.001', newOrderRespType: 'FULL' });
    expect(trailing).toMatchObject({ type: 'STOP_LOSS', trailingDelta: 100, status: 'NEW', workingTime: -1, price: '0.00', fills: [] });

    const tpl = await placed('bob', {
      side: 'BUY',
      type: 'TAKE_PROFIT_LIMIT',
      timeInForce: 'GTC',
      price: '50000',
      stopPrice: '55000',
      quantity: '0.001',
      newOrderRespType: 'RESULT',
    });
    expect(tpl).toMatchObject({ type: 'TAKE_PROFIT_LIMIT', stopPrice: '55000.00', price: '50000.00', workingTime: -1, status: 'NEW' });
    tpLimitId = tpl.orderId;

    const open = await call(keys.alice!, 'GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' });
    expect(open.body).toHaveLength(2);
    expect(open.body[0]).toMatchObject({ orderId: stopLimitId, type: 'STOP_LOSS_LIMIT', stopPrice: '59000.00', isWorking: false, workingTime: -1 });
    expect(open.body[1]).toMatchObject({ orderId: tp.orderId, type: 'TAKE_PROFIT', stopPrice: '70000.00', isWorking: false, workingTime: -1 });
    const bobOpen = await call(keys.bob!, 'GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' });
    expect(bobOpen.body.map((o: { type: string }) => o.type)).toEqual(['STOP_LOSS', 'TAKE_PROFIT_LIMIT']);
    expect(bobOpen.body[0].trailingDelta).toBe(100);
  });

  it("another user's key can neither query nor cancel a pending order", async () => {
    const before = t.ctx.host.engine.stateHash();
    expect((await call(keys.bob!, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(stopLimitId) })).body).toEqual({
      code: -2013,
      msg: 'Order does not exist.',
    });
    expect((await call(keys.bob!, 'DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(stopLimitId) })).body).toEqual({
      code: -2011,
      msg: 'Unknown order sent.',
    });
    expect(t.ctx.host.engine.stateHash()).toBe(before);
  });

  it('a trade between two other users triggers the stop-limit: same orderId, filled, workingTime set', async () => {
    await placed('bob', { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '58000', quantity: '0.01' });
    await tradeAt('59500');
    let q = await call(keys.alice!, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(stopLimitId) });
    expect(q.body).toMatchObject({ status: 'NEW', isWorking: false, workingTime: -1 });
    await tradeAt('59000');
    q = await call(keys.alice!, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(stopLimitId) });
    expect(q.body).toMatchObject({
      orderId: stopLimitId,
      clientOrderId: 'alice-sl',
      type: 'STOP_LOSS_LIMIT',
      status: 'FILLED',
      executedQty: '0.01000',
      stopPrice: '59000.00',
      isWorking: false,
    });
    expect(q.body.workingTime).toBeGreaterThanOrEqual(q.body.time);
    const all = await call(keys.alice!, 'GET', '/api/v3/allOrders', { symbol: 'BTCUSDT' });
    const row = all.body.find((o: { orderId: number }) => o.orderId === stopLimitId);
    expect(row).toMatchObject({ type: 'STOP_LOSS_LIMIT', status: 'FILLED', stopPrice: '59000.00', workingTime: q.body.workingTime });
    const trades = await call(keys.alice!, 'GET', '/api/v3/myTrades', { symbol: 'BTCUSDT', orderId: String(stopLimitId) });
    expect(trades.body).toHaveLength(1);
    expect(trades.body[0]).toMatchObject({ price: '58000.00', qty: '0.01000', isMaker: false });
  });

  it('DELETE cancels a pending order and answers its type and stop price', async () => {
    const res = await call(keys.bob!, 'DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(tpLimitId) });
    expect(res.body).toMatchObject({ orderId: tpLimitId, type: 'TAKE_PROFIT_LIMIT', status: 'CANCELED', stopPrice: '55000.00', price: '50000.00' });
    const q = await call(keys.bob!, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(tpLimitId) });
    expect(q.body).toMatchObject({ status: 'CANCELED', type: 'TAKE_PROFIT_LIMIT', stopPrice: '55000.00', workingTime: -1, isWorking: false });
  });

  it('order/test checks the stop price and trailing delta without placing anything', async () => {
    const before = t.ctx.host.engine.stateHash();
    const base = { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', price: '50000', stopPrice: '51000', quantity: '0.01' };
    expect((await call(keys.alice!, 'POST', '/api/v3/order/test', base)).body).toEqual({});
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ stopPrice: '51000.001' }, -1111, "Parameter 'stopPrice' has too much precision."],
      [{ stopPrice: '0' }, -2010, 'Filter failure: PRICE_FILTER'],
      [{ stopPrice: '', trailingDelta: '5' }, -2010, 'Filter failure: TRAILING_DELTA'],
      [{ stopPrice: '', trailingDelta: '2001' }, -2010, 'Filter failure: TRAILING_DELTA'],
      [{ stopPrice: '' }, -1102, "Param 'stopPrice' or 'trailingDelta' must be sent, but both were empty/null!"],
    ];
    for (const [fields, code, msg] of cases) {
      const res = await call(keys.alice!, 'POST', '/api/v3/order/test', { ...base, ...fields });
      expect(res.body, JSON.stringify(fields)).toEqual({ code, msg });
    }
    expect(t.ctx.host.engine.stateHash()).toBe(before);
  });

  it("rejects bad conditional orders with Binance's codes and changes nothing", async () => {
    const before = t.ctx.host.engine.stateHash();
    // The last price is 58000 (alice's fill).
    const sl = { side: 'SELL', type: 'STOP_LOSS', stopPrice: '50000', quantity: '0.001' };
    const sll = { side: 'SELL', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', price: '49000', stopPrice: '50000', quantity: '0.001' };
    const cases: Array<[Record<string, string>, number, string?]> = [
      [{ ...sl, stopPrice: '' }, -1102, "Param 'stopPrice' or 'trailingDelta' must be sent, but both were empty/null!"],
      [{ ...sll, stopPrice: '' }, -1102, "Param 'stopPrice' or 'trailingDelta' must be sent, but both were empty/null!"],
      [{ ...sl, quantity: '' }, -1102],
      [{ ...sll, price: '' }, -1102],
      [{ ...sll, timeInForce: '' }, -1102],
      [{ ...sl, price: '49000' }, -1106],
      [{ ...sl, timeInForce: 'GTC' }, -1106],
      [{ ...sl, quoteOrderQty: '10' }, -1106],
      [{ ...sl, stopPrice: '59000' }, -2010, 'Order would trigger immediately.'],
      [{ ...sl, stopPrice: '58000' }, -2010, 'Order would trigger immediately.'],
      [{ ...sl, type: 'TAKE_PROFIT', stopPrice: '57000' }, -2010, 'Order would trigger immediately.'],
      [{ ...sll, stopPrice: '', trailingDelta: '9' }, -2010, 'Filter failure: TRAILING_DELTA'],
      [{ ...sl, stopPrice: '0.00' }, -2010, 'Filter failure: PRICE_FILTER'],
      [{ ...sl, stopPrice: '50000.001' }, -1111],
      [{ ...sl, quantity: '1000' }, -2010, 'Account has insufficient balance for requested action.'],
    ];
    for (const [params, code, msg] of cases) {
      const res = await order('alice', params);
      expect([res.status, res.body.code], JSON.stringify(params)).toEqual([400, code]);
      if (msg) expect(res.body.msg, JSON.stringify(params)).toBe(msg);
    }
    expect(t.ctx.host.engine.stateHash()).toBe(before);
  });
});
