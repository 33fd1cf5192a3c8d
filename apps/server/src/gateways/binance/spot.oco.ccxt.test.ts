/**
 * CCXT 4.5.84 and our OCO lists: its binance class has no unified OCO for spot (`has.createOrderWithTakeProfitAndStopLoss`
 * is false), so a bot calls the implicit API `privatePostOrderListOco`; this proves that call signs and reaches
 * POST /api/v3/orderList/oco, that fetchOpenOrders then parses both legs (info.orderListId the list's id), and that
 * `privateGetOrderList` / `privateDeleteOrderList` answer and cancel the list, after which nothing is open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import { pow10 } from '@exchange/core';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { loginUser } from '../../domains/spot/spot-test-support';
import { createTestKey, type TestKey } from '../../domains/api-keys/api-keys.test-keys';

const PORT = 8131;
let t: TestApp;
let key: TestKey;

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  await t.app.listen({ port: PORT, host: '127.0.0.1' });
  const user = await loginUser(t, 'ccxt-oco@example.com');
  const maker = await loginUser(t, 'ccxt-oco-maker@example.com');
  const taker = await loginUser(t, 'ccxt-oco-taker@example.com');
  key = await createTestKey(t, user.userId);
  for (const u of [user, maker]) {
    const r = await t.ctx.host.submit({ type: 'deposit', userId: u.userId, asset: 'BTC', account: 'SPOT', amount: pow10(8), from: '@chain' });
    expect(r.code).toBe('ok');
  }
  // Last price 60000.
  await t.ctx.spot.place(maker.userId, { pairsName: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', price: '60000.00', amount: '0.00100' });
  await t.ctx.spot.place(taker.userId, { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', price: '60000.00', amount: '0.00100' });
});
afterAll(async () => {
  await t?.close();
});

describe('CCXT and OCO lists', () => {
  it('places an OCO with privatePostOrderListOco, sees both legs open, reads and cancels the list', async () => {
    const http = `http://127.0.0.1:${PORT}`;
    const ex = new ccxt.binance({
      apiKey: key.apiKey,
      secret: key.secret,
      urls: { api: { public: `${http}/api/v3`, private: `${http}/api/v3`, v1: `${http}/api/v1`, sapi: `${http}/sapi/v1` } },
      options: { fetchMarkets: { types: ['spot'] } },
    });
    await ex.loadMarkets();
    expect(ex.has.createOrderWithTakeProfitAndStopLoss).toBe(false);
    const list = await ex.privatePostOrderListOco({
      symbol: 'BTCUSDT',
      side: 'SELL',
      quantity: '0.001',
      aboveType: 'LIMIT_MAKER',
      abovePrice: '62000',
      belowType: 'STOP_LOSS',
      belowStopPrice: '58000',
      listClientOrderId: 'ccxt-list',
    });
    expect(list).toMatchObject({ contingencyType: 'OCO', listOrderStatus: 'EXECUTING', listClientOrderId: 'ccxt-list' });
    const open = await ex.fetchOpenOrders('BTC/USDT');
    expect(open.map((o) => [o.info.type, o.info.orderListId])).toEqual([
      ['LIMIT_MAKER', list.orderListId],
      ['STOP_LOSS', list.orderListId],
    ]);
    expect(open.find((o) => o.info.type === 'STOP_LOSS')).toMatchObject({ status: 'open', triggerPrice: 58000, amount: 0.001 });
    expect(await ex.privateGetOrderList({ orderListId: String(list.orderListId) })).toMatchObject({ listClientOrderId: 'ccxt-list' });
    const canceled = await ex.privateDeleteOrderList({ symbol: 'BTCUSDT', listClientOrderId: 'ccxt-list' });
    expect(canceled).toMatchObject({ listOrderStatus: 'ALL_DONE' });
    expect(await ex.fetchOpenOrders('BTC/USDT')).toEqual([]);
  });
});
