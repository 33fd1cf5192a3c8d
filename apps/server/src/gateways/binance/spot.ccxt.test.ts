/**
 * CCXT 4.5.84 (its binance class unchanged, only the URLs pointed here) parses our spot REST answers: loadMarkets
 * (spot, with fetchCurrencies over /sapi/v1/capital/config/getall since keys are set), fetchTime, fetchTicker(s),
 * fetchOrderBook, fetchTrades, fetchOHLCV, fetchBalance, createOrder (limit, market, with clientOrderId), fetchOrder,
 * fetchOpenOrders, fetchClosedOrders, cancelOrder, fetchMyTrades, with a real HMAC key; stop orders (createOrder with
 * triggerPrice, stopLossPrice or takeProfitPrice: STOP_LOSS_LIMIT, STOP_LOSS, TAKE_PROFIT_LIMIT) pending with their
 * triggerPrice, then triggered and filled. The full CCXT suite is the
 * `ccxt` helper's; this one guards the spot formats.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import { pow10 } from '@exchange/core';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { loginUser } from '../../domains/spot/spot-test-support';
import { createTestKey, type TestKey } from '../../domains/api-keys/api-keys.test-keys';

const PORT = 8130;
let t: TestApp;
let key: TestKey;
let userId = '';
let makerId = '';

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  await t.app.listen({ port: PORT, host: '127.0.0.1' });
  const user = await loginUser(t, 'ccxt-spot@example.com');
  userId = user.userId;
  const maker = await loginUser(t, 'ccxt-maker@example.com');
  makerId = maker.userId;
  key = await createTestKey(t, user.userId);
  const r = await t.ctx.host.submit({ type: 'deposit', userId: maker.userId, asset: 'BTC', account: 'SPOT', amount: pow10(8), from: '@chain' });
  expect(r.code).toBe('ok');
});
afterAll(async () => {
  await t?.close();
});

describe('CCXT against the spot REST API', () => {
  it('loads markets, reads market data, trades and reads its account', async () => {
    const http = `http://127.0.0.1:${PORT}`;
    const ex = new ccxt.binance({
      apiKey: key.apiKey,
      secret: key.secret,
      urls: { api: { public: `${http}/api/v3`, private: `${http}/api/v3`, v1: `${http}/api/v1`, sapi: `${http}/sapi/v1` } },
      options: { fetchMarkets: { types: ['spot'] } },
    });
    await ex.loadMarkets();
    const m = ex.market('BTC/USDT');
    expect(m).toMatchObject({
      id: 'BTCUSDT',
      spot: true,
      active: true,
      precision: { price: 0.01, amount: 0.00001 },
      limits: { amount: { min: 0.00001 }, cost: { min: 5 } },
    });
    expect(ex.currencies.USDT).toMatchObject({ id: 'USDT', active: true });
    expect(Math.abs((await ex.fetchTime())! - Date.now())).toBeLessThan(5000);

    await t.ctx.spot.place(makerId, { pairsName: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', price: '60000.00', amount: '0.01000' });
    await t.ctx.spot.place(makerId, { pairsName: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', price: '60100.00', amount: '0.01000' });

    const market = await ex.createOrder('BTC/USDT', 'market', 'buy', 0.002);
    expect(market).toMatchObject({ symbol: 'BTC/USDT', type: 'market', side: 'buy', status: 'closed', filled: 0.002, cost: 120, average: 60000 });
    expect(market.trades).toHaveLength(1);
    const limit = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50000, { clientOrderId: 'ccxt-limit-1' });
    expect(limit).toMatchObject({ status: 'open', price: 50000, amount: 0.001, filled: 0, clientOrderId: 'ccxt-limit-1' });

    const ticker = await ex.fetchTicker('BTC/USDT');
    expect(ticker).toMatchObject({ symbol: 'BTC/USDT', last: 60000, bid: 50000, ask: 60000, baseVolume: 0.002 });
    const tickers = await ex.fetchTickers(['BTC/USDT', 'ETH/USDT']);
    expect(Object.keys(tickers).sort()).toEqual(['BTC/USDT', 'ETH/USDT']);
    const book = await ex.fetchOrderBook('BTC/USDT', 5);
    expect(book.bids[0]).toEqual([50000, 0.001]);
    expect(book.asks[0]).toEqual([60000, 0.008]);
    expect(book.nonce).toBe(t.ctx.marketData.depth('BTC/USDT', 'SPOT', 1).seq);
    const trades = await ex.fetchTrades('BTC/USDT');
    expect(trades.at(-1)).toMatchObject({ price: 60000, amount: 0.002, side: 'buy', cost: 120 });
    const bars = await ex.fetchOHLCV('BTC/USDT', '1m', undefined, 5);
    // The bar of the trade's minute (a flat bar without volume follows it when the minute has turned since).
    const minute = Math.floor(trades.at(-1)!.timestamp! / 60_000) * 60_000;
    expect(bars.find((b) => b[0] === minute)?.slice(1)).toEqual([60000, 60000, 60000, 60000, 0.002]);

    const balance = await ex.fetchBalance();
    expect(balance.BTC).toMatchObject({ free: 0.002 - 0.000002, used: 0, total: 0.002 - 0.000002 });
    expect(balance.USDT).toMatchObject({ used: 50 });

    const fetched = await ex.fetchOrder(limit.id!, 'BTC/USDT');
    expect(fetched).toMatchObject({ id: limit.id, status: 'open', clientOrderId: 'ccxt-limit-1' });
    expect((await ex.fetchOpenOrders('BTC/USDT')).map((o) => o.id)).toEqual([limit.id]);
    const canceled = await ex.cancelOrder(limit.id!, 'BTC/USDT');
    expect(canceled).toMatchObject({ id: limit.id, status: 'canceled' });
    // fetchClosedOrders: allOrders filtered to CCXT's 'closed' (filled); fetchOrders has the canceled one too.
    expect((await ex.fetchClosedOrders('BTC/USDT')).map((o) => [o.id, o.status])).toEqual([[market.id, 'closed']]);
    expect((await ex.fetchOrders('BTC/USDT')).map((o) => [o.id, o.status])).toEqual([
      [market.id, 'closed'],
      [limit.id, 'canceled'],
    ]);
    const mine = await ex.fetchMyTrades('BTC/USDT');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      order: market.id,
      side: 'buy',
      takerOrMaker: 'taker',
      price: 60000,
      amount: 0.002,
      fee: { cost: 0.000002, currency: 'BTC' },
    });
  });

  it('places stop orders with triggerPrice, stopLossPrice and takeProfitPrice; a trade triggers one, then it is filled', async () => {
    const http = `http://127.0.0.1:${PORT}`;
    const ex = new ccxt.binance({
      apiKey: key.apiKey,
      secret: key.secret,
      urls: { api: { public: `${http}/api/v3`, private: `${http}/api/v3`, v1: `${http}/api/v1`, sapi: `${http}/sapi/v1` } },
      options: { fetchMarkets: { types: ['spot'] } },
    });
    await ex.loadMarkets();
    const d = await t.ctx.host.submit({ type: 'deposit', userId, asset: 'BTC', account: 'SPOT', amount: pow10(6), from: '@chain' });
    expect(d.code).toBe('ok');
    const other = await loginUser(t, 'ccxt-other@example.com');
    // The last price is 60000: a SELL stop at 59000 waits.
    const stop = await ex.createOrder('BTC/USDT', 'limit', 'sell', 0.001, 58000, { triggerPrice: 59000 });
    const stopLoss = await ex.createOrder('BTC/USDT', 'market', 'sell', 0.001, undefined, { stopLossPrice: 55000 });
    const takeProfit = await ex.createOrder('BTC/USDT', 'limit', 'sell', 0.001, 71000, { takeProfitPrice: 70000 });
    const open = await ex.fetchOpenOrders('BTC/USDT');
    const byId = new Map(open.map((o) => [o.id, o]));
    expect(byId.get(stop.id!)).toMatchObject({ status: 'open', price: 58000, amount: 0.001, triggerPrice: 59000 });
    expect(byId.get(stopLoss.id!)).toMatchObject({ status: 'open', triggerPrice: 55000 });
    expect(byId.get(takeProfit.id!)).toMatchObject({ status: 'open', price: 71000, triggerPrice: 70000 });
    expect(open.map((o) => o.info.type).sort()).toEqual(['STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT_LIMIT']);

    // A bid for the triggered order, then a trade at 59000 between two other users.
    await t.ctx.spot.place(other.userId, { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', price: '58000.00', amount: '0.00100' });
    await t.ctx.spot.place(makerId, { pairsName: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', price: '59000.00', amount: '0.00100' });
    await t.ctx.spot.place(other.userId, { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', price: '59000.00', amount: '0.00100' });
    const filled = await ex.fetchOrder(stop.id!, 'BTC/USDT');
    expect(filled).toMatchObject({ id: stop.id, status: 'closed', filled: 0.001, average: 58000, triggerPrice: 59000 });
    for (const o of [stopLoss, takeProfit]) expect(await ex.cancelOrder(o.id!, 'BTC/USDT')).toMatchObject({ id: o.id, status: 'canceled' });
    expect(await ex.fetchOpenOrders('BTC/USDT')).toEqual([]);
  });
});
