/**
 * Binance spot OCO order lists under /api/v3 through app.inject() on PGlite (PostgreSQL with DATABASE_URL), signed with
 * real HMAC keys: POST orderList/oco answers the list (EXEC_STARTED / EXECUTING) with both legs NEW under one hold;
 * openOrders, GET order and GET orderList / openOrderList show the legs with their orderListId; a BUY by another user
 * that fills the LIMIT_MAKER leg cancels the stop leg in the same command (ALL_DONE); a trade between two other users
 * that triggers the stop leg cancels the LIMIT_MAKER leg; DELETE orderList by listClientOrderId cancels both legs and
 * frees the hold; DELETE order on one leg cancels the list; another user's key neither sees nor cancels a list; and
 * bad inputs (-1102, -1106, -1104, -2010 for the price relation and an immediate trigger) change nothing.
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
const oco = (user: string, params: Record<string, string>) => call(keys[user]!, 'POST', '/api/v3/orderList/oco', { symbol: 'BTCUSDT', ...params });
/** A SELL OCO of 0.01 BTC: LIMIT_MAKER above at `above`, STOP_LOSS_LIMIT below (stop `stop`, limit `limit`). */
const sellOco = (above: string, stop: string, limit: string, extra: Record<string, string> = {}) => ({
  side: 'SELL',
  quantity: '0.01',
  aboveType: 'LIMIT_MAKER',
  abovePrice: above,
  belowType: 'STOP_LOSS_LIMIT',
  belowStopPrice: stop,
  belowPrice: limit,
  belowTimeInForce: 'GTC',
  ...extra,
});
async function placed(user: string, params: Record<string, string>) {
  const res = await order(user, params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
async function placedOco(user: string, params: Record<string, string>) {
  const res = await oco(user, params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
/** A trade of 0.001 BTC at `price` between mm (maker SELL) and carol (taker BUY): it moves the last price. */
async function tradeAt(price: string) {
  await placed('mm', { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price, quantity: '0.001' });
  expect((await placed('carol', { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity: '0.001' })).status).toBe('FILLED');
}
const getOrder = async (user: string, orderId: number) =>
  (await call(keys[user]!, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(orderId) })).body;
const getList = (user: string, params: Record<string, string>) => call(keys[user]!, 'GET', '/api/v3/orderList', params);

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  for (const name of ['alice', 'bob', 'carol', 'mm']) {
    users[name] = await loginUser(t, `${name}-oco@example.com`);
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

describe('Binance spot OCO order lists', () => {
  it('places a SELL OCO: both legs open under one hold; a BUY filling the LIMIT_MAKER leg cancels the stop leg', async () => {
    const l = await placedOco(
      'alice',
      sellOco('62000', '59000', '58000', { listClientOrderId: 'alice-l1', aboveClientOrderId: 'a-up', belowClientOrderId: 'a-down' }),
    );
    expect(l).toMatchObject({
      contingencyType: 'OCO',
      listStatusType: 'EXEC_STARTED',
      listOrderStatus: 'EXECUTING',
      listClientOrderId: 'alice-l1',
      symbol: 'BTCUSDT',
    });
    expect(l.orders.map((o: { clientOrderId: string }) => o.clientOrderId)).toEqual(['a-up', 'a-down']);
    const [up, down] = l.orderReports;
    expect(up).toMatchObject({ clientOrderId: 'a-up', orderListId: l.orderListId, type: 'LIMIT_MAKER', status: 'NEW', price: '62000.00', origQty: '0.01000' });
    expect(down).toMatchObject({
      clientOrderId: 'a-down',
      orderListId: l.orderListId,
      type: 'STOP_LOSS_LIMIT',
      status: 'NEW',
      stopPrice: '59000.00',
      workingTime: -1,
    });
    // One hold for the list: the 0.01 BTC once.
    expect(bal('alice', 'BTC').frozen).toBe(pow10(6));
    const open = (await call(keys.alice!, 'GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' })).body;
    expect(open.map((o: { orderListId: number }) => o.orderListId)).toEqual([l.orderListId, l.orderListId]);
    expect((await getOrder('alice', down.orderId)).orderListId).toBe(l.orderListId);
    expect((await getList('alice', { orderListId: String(l.orderListId) })).body).toMatchObject({
      listOrderStatus: 'EXECUTING',
      listClientOrderId: 'alice-l1',
    });
    expect((await getList('alice', { origClientOrderId: 'alice-l1' })).body.orderListId).toBe(l.orderListId);
    expect((await call(keys.alice!, 'GET', '/api/v3/openOrderList')).body.map((x: { orderListId: number }) => x.orderListId)).toEqual([l.orderListId]);

    expect((await placed('carol', { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '62000', quantity: '0.01' })).status).toBe('FILLED');
    expect(await getOrder('alice', up.orderId)).toMatchObject({ status: 'FILLED', orderListId: l.orderListId });
    expect(await getOrder('alice', down.orderId)).toMatchObject({ status: 'CANCELED', orderListId: l.orderListId });
    expect((await getList('alice', { orderListId: String(l.orderListId) })).body).toMatchObject({ listStatusType: 'ALL_DONE', listOrderStatus: 'ALL_DONE' });
    expect((await call(keys.alice!, 'GET', '/api/v3/openOrderList')).body).toEqual([]);
    expect(bal('alice', 'BTC').frozen).toBe(0n);
    const all = (await call(keys.alice!, 'GET', '/api/v3/allOrderList')).body;
    expect(all.map((x: { orderListId: number; listOrderStatus: string }) => [x.orderListId, x.listOrderStatus])).toEqual([[l.orderListId, 'ALL_DONE']]);
    // allOrders reads the projected rows: the legs keep their list id there (order_list_id).
    const rows = (await call(keys.alice!, 'GET', '/api/v3/allOrders', { symbol: 'BTCUSDT' })).body;
    const legIds = new Set([up.orderId, down.orderId]);
    expect(rows.filter((o: { orderId: number }) => legIds.has(o.orderId)).map((o: { orderListId: number }) => o.orderListId)).toEqual([
      l.orderListId,
      l.orderListId,
    ]);
    expect(rows.filter((o: { orderId: number }) => !legIds.has(o.orderId)).every((o: { orderListId: number }) => o.orderListId === -1)).toBe(true);
  });

  it('a trade between two other users triggers the stop leg; the LIMIT_MAKER leg is cancelled', async () => {
    const l = await placedOco('alice', sellOco('63000', '59000', '58000'));
    const [up, down] = l.orderReports;
    await tradeAt('59000');
    expect(await getOrder('alice', up.orderId)).toMatchObject({ status: 'CANCELED', orderListId: l.orderListId });
    const sl = await getOrder('alice', down.orderId);
    expect(sl.type).toBe('STOP_LOSS_LIMIT');
    expect(sl.workingTime).toBeGreaterThan(0);
    expect((await getList('alice', { orderListId: String(l.orderListId) })).body.listOrderStatus).toBe('ALL_DONE');
    // The triggered SELL 0.01 at 58000 rests (no bid): it alone holds the 0.01 BTC.
    expect(bal('alice', 'BTC').frozen).toBe(pow10(6));
    expect((await call(keys.alice!, 'DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(down.orderId) })).status).toBe(200);
    expect(bal('alice', 'BTC').frozen).toBe(0n);
  });

  it('DELETE orderList cancels both legs and frees the hold; another key sees and cancels nothing; a leg cancel ends the list', async () => {
    const l = await placedOco('alice', sellOco('63000', '58000', '57000', { listClientOrderId: 'alice-l3' }));
    expect(bal('alice', 'BTC').frozen).toBe(pow10(6));
    expect((await getList('bob', { orderListId: String(l.orderListId) })).body.code).toBe(-2013);
    expect((await call(keys.bob!, 'GET', '/api/v3/openOrderList')).body).toEqual([]);
    expect((await call(keys.bob!, 'GET', '/api/v3/allOrderList')).body).toEqual([]);
    const bobCancel = await call(keys.bob!, 'DELETE', '/api/v3/orderList', { symbol: 'BTCUSDT', orderListId: String(l.orderListId) });
    expect(bobCancel.body.code).toBe(-2011);
    expect((await call(keys.bob!, 'DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(l.orders[0].orderId) })).body.code).toBe(-2011);
    expect(bal('alice', 'BTC').frozen).toBe(pow10(6));

    const c = await call(keys.alice!, 'DELETE', '/api/v3/orderList', { symbol: 'BTCUSDT', listClientOrderId: 'alice-l3' });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body).toMatchObject({ orderListId: l.orderListId, listStatusType: 'ALL_DONE', listOrderStatus: 'ALL_DONE' });
    expect(c.body.orderReports.map((o: { status: string; orderListId: number }) => [o.status, o.orderListId])).toEqual([
      ['CANCELED', l.orderListId],
      ['CANCELED', l.orderListId],
    ]);
    expect(bal('alice', 'BTC').frozen).toBe(0n);
    expect((await call(keys.alice!, 'DELETE', '/api/v3/orderList', { symbol: 'BTCUSDT', orderListId: String(l.orderListId) })).body.code).toBe(-2011);

    const l2 = await placedOco('alice', sellOco('63000', '58000', '57000'));
    const leg = await call(keys.alice!, 'DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(l2.orders[1].orderId) });
    expect(leg.body).toMatchObject({ status: 'CANCELED', orderListId: l2.orderListId });
    expect(await getOrder('alice', l2.orders[0].orderId)).toMatchObject({ status: 'CANCELED', orderListId: l2.orderListId });
    expect((await getList('alice', { orderListId: String(l2.orderListId) })).body.listOrderStatus).toBe('ALL_DONE');
    expect(bal('alice', 'BTC').frozen).toBe(0n);
  });

  it('refuses bad inputs with Binance codes and changes nothing', async () => {
    const before = t.ctx.host.engine.stateHash();
    const codeOf = async (params: Record<string, string>) => (await oco('alice', params)).body;
    const base = sellOco('63000', '58000', '57000');
    const without = (k: string) => Object.fromEntries(Object.entries(base).filter(([key]) => key !== k));
    expect((await codeOf(without('aboveType'))).code).toBe(-1102);
    expect((await codeOf(without('belowTimeInForce'))).code).toBe(-1102);
    expect((await codeOf(without('quantity'))).code).toBe(-1102);
    expect((await codeOf({ ...base, aboveStopPrice: '64000' })).code).toBe(-1106);
    expect((await codeOf({ ...base, foo: '1' })).code).toBe(-1104);
    expect((await codeOf({ ...base, aboveType: 'STOP_LOSS' })).code).toBe(-2010);
    // LIMIT_MAKER SELL below the last price (59000): Binance's price relation.
    expect(await codeOf(sellOco('58500', '58000', '57000'))).toMatchObject({
      code: -2010,
      msg: 'The relationship of the prices for the orders is not correct.',
    });
    // A stop above the last price would trigger at once.
    expect(await codeOf(sellOco('63000', '59500', '59000'))).toMatchObject({ code: -2010, msg: 'Order would trigger immediately.' });
    expect(await codeOf({ ...base, quantity: '100' })).toMatchObject({ code: -2010, msg: 'Account has insufficient balance for requested action.' });
    expect((await codeOf({ ...base, abovePrice: '63000.001' })).code).toBe(-1111);
    expect((await call(keys.alice!, 'GET', '/api/v3/orderList', {})).body.code).toBe(-1102);
    expect(t.ctx.host.engine.stateHash()).toBe(before);
  });

  it('exchangeInfo says OCO lists are allowed', async () => {
    const info = (await t.app.inject({ method: 'GET', url: '/api/v3/exchangeInfo?symbol=BTCUSDT' })).json();
    expect(info.symbols[0]).toMatchObject({ ocoAllowed: true, otoAllowed: false });
  });
});
