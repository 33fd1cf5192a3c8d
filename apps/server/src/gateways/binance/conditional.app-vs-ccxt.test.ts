/**
 * One user, two doors, one price path: a futures stop-market order placed in the app (contract/placeConditionalOrder)
 * and the same order placed by stock CCXT 4.5.84 (createOrder with stopLossPrice, which CCXT routes to
 * /fapi/v1/algoOrder) wait side by side, both trigger on the trade the test makes through the stop price, fill at the
 * same price, and then read the same in each door's history: the app's conditional history shows both TRIGGERED with
 * the same trigger, working type and fill; CCXT's fetchOrder shows both closed with the same trigger price, fill and
 * average, and its algo view both FINISHED. The two doors are one engine order type (Binance USDⓈ-M "New Algo Order":
 * a CONDITIONAL STOP_MARKET on the contract price, triggered at stopPrice, becoming a MARKET order). The same on spot: a
 * stop-limit SELL from the trade screen (setEntrust with stopType STOP_LOSS) and CCXT's createOrder with triggerPrice
 * (Binance STOP_LOSS_LIMIT) trigger on the trade at the stop price and fill alike. Runs on PGlite, and on PostgreSQL
 * when DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import { pow10 } from '@exchange/core';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { binanceUrls } from '../../../test/ccxt/ccxt-urls';
import { createTestKey } from '../../domains/api-keys/api-keys.test-keys';
import { fundContract, tick } from '../../domains/perp/perp-test-support';
import { apiCaller, apiOk, loginUser, type TestUser } from '../../domains/spot/spot-test-support';

const PERP = 'BTC/USDT:USDT';
const SYM = 'BTC/USDT';
let t: TestApp;
let ex: InstanceType<typeof ccxt.binance>;
const users: Record<string, TestUser> = {};
const ok = apiOk(apiCaller(() => t, users));
let makerId = '';

/** An app conditional order less what differs between two orders by construction (ids and times). */
function appTerms(o: Record<string, unknown>): Record<string, unknown> {
  const { orderId: _i, clientOrderId: _c, createTime: _t, updateTime: _u, triggerTime: _g, ...rest } = o;
  return rest;
}

/** An app spot order less what differs between two orders by construction (ids and the time of placement). */
function spotTerms(o: Record<string, unknown>): Record<string, unknown> {
  const { id: _i, orderId: _o, clientOrderId: _c, createTime: _t, updateTime: _u, fills: _f, ...rest } = o;
  return rest;
}

/** A CCXT order less what differs between two orders by construction, and less `info` (compared field by field). */
function ccxtTerms(o: Record<string, unknown>): Record<string, unknown> {
  const { id: _i, clientOrderId: _c, timestamp: _t, datetime: _d, lastTradeTimestamp: _l, lastUpdateTimestamp: _u, info: _n, trades: _r, ...rest } = o;
  return rest;
}

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  users.u = await loginUser(t, 'two-doors@example.com');
  makerId = (await t.ctx.members.ensureEmailUser('two-doors-maker@example.com', 'secret-pass-1', '')).userId;
  await fundContract(t.ctx.host, users.u.userId, 10_000n);
  await fundContract(t.ctx.host, makerId, 1_000_000n);
  const c = await createTestKey(t, users.u.userId, { spotTrade: true, futuresTrade: true });
  ex = new ccxt.binance({ apiKey: c.apiKey, secret: c.secret, urls: binanceUrls(address) });
  await ex.loadMarkets();
  expect(await tick(t.ctx.host, 5_000_000n, SYM)).toBe(5_000_000n);
  // The only liquidity: a bid at 48,900 and an ask at 50,010. The user opens a long of 0.020 at 50,010.
  await t.ctx.perp.placeOrder(makerId, { symbol: SYM, side: 'BUY', orderType: 'LIMIT', price: '48900', quantity: '1' });
  await t.ctx.perp.placeOrder(makerId, { symbol: SYM, side: 'SELL', orderType: 'LIMIT', price: '50010', quantity: '1' });
  expect(await ok('u', 'POST', 'contract/contract/placeOrder', { symbol: SYM, side: 'BUY', orderType: 'MARKET', quantity: '0.020' })).toMatchObject({
    status: 'FILLED',
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('a conditional order through the app and through CCXT on one price path', () => {
  it('both wait, both trigger on the same trade, and each door shows the two alike', async () => {
    const inApp = await ok('u', 'POST', 'contract/contract/placeConditionalOrder', {
      symbol: SYM,
      side: 'SELL',
      type: 'STOP_MARKET',
      stopPrice: '49000',
      workingType: 'CONTRACT_PRICE',
      reduceOnly: 'true',
      quantity: '0.010',
    });
    const viaCcxt = await ex.createOrder(PERP, 'market', 'sell', 0.01, undefined, { stopLossPrice: 49000, reduceOnly: true });
    const ids = [inApp.orderId as string, viaCcxt.id!];
    expect(ids[0]).not.toBe(ids[1]);

    // Waiting: the app lists both alike; CCXT lists both alike among its trigger orders.
    const open = await ok('u', 'GET', 'contract/contract/getConditionalOrders', { tab: 'open' });
    expect(open.records.map((r: { orderId: string }) => r.orderId).sort()).toEqual([...ids].sort());
    const [a0, b0] = ids.map((id) => open.records.find((r: { orderId: string }) => r.orderId === id));
    expect(appTerms(a0)).toEqual(appTerms(b0));
    expect(a0).toMatchObject({
      state: 'PENDING',
      type: 'STOP_MARKET',
      stopPrice: '49000.00',
      workingType: 'CONTRACT_PRICE',
      reduceOnly: true,
      quantity: '0.01000',
    });
    const waiting = await ex.fetchOpenOrders(PERP, undefined, undefined, { trigger: true });
    expect(waiting.map((o) => o.id).sort()).toEqual([...ids].sort());
    const [c0, d0] = ids.map((id) => waiting.find((o) => o.id === id)!);
    expect(ccxtTerms(c0 as never)).toEqual(ccxtTerms(d0 as never));
    expect(c0).toMatchObject({ status: 'open', side: 'sell', amount: 0.01, triggerPrice: 49000, reduceOnly: true });

    // One tick short: a trade at 49,100 (above the stop) triggers neither.
    await t.ctx.perp.placeOrder(makerId, { symbol: SYM, side: 'BUY', orderType: 'LIMIT', price: '49100', quantity: '0.001' });
    const seller = (await t.ctx.members.ensureEmailUser('two-doors-seller@example.com', 'secret-pass-1', '')).userId;
    await fundContract(t.ctx.host, seller, 1_000_000n);
    await t.ctx.perp.placeOrder(seller, { symbol: SYM, side: 'SELL', orderType: 'MARKET', quantity: '0.001' });
    expect((await ok('u', 'GET', 'contract/contract/getConditionalOrders', { tab: 'open' })).total).toBe(2);

    // The price the test moves: a sale into the bid at 48,900 makes the last price 48,900 <= 49,000.
    await t.ctx.perp.placeOrder(seller, { symbol: SYM, side: 'SELL', orderType: 'MARKET', quantity: '0.050' });
    expect(t.ctx.host.engine.position(users.u!.userId, SYM)).toBeUndefined();

    // The app's history: both TRIGGERED, the same trigger, working type and fill.
    const hist = await ok('u', 'GET', 'contract/contract/getConditionalOrders', { tab: 'history' });
    const [a1, b1] = ids.map((id) => hist.records.find((r: { orderId: string }) => r.orderId === id));
    expect(a1).toMatchObject({ state: 'TRIGGERED', orderStatus: 'FILLED', stopPrice: '49000.00', workingType: 'CONTRACT_PRICE', expireReason: '' });
    expect(appTerms(a1)).toEqual(appTerms(b1));
    expect(a1.triggerTime).toBeGreaterThan(0);
    expect(b1.triggerTime).toBe(a1.triggerTime);
    // The app's order history has the two fills at 48,900.
    const done = await ok('u', 'GET', 'contract/contract/getOrders', { tab: 'history' });
    const fills = ids.map((id) => done.records.find((r: { orderId: string }) => r.orderId === id));
    for (const f of fills) expect(f).toMatchObject({ status: 'FILLED', filledQty: '0.01000', avgPrice: '48900.00' });

    // CCXT's history: both closed, the same trigger price, fill and average; the algo view FINISHED for both.
    const [c1, d1] = await Promise.all(ids.map((id) => ex.fetchOrder(id, PERP)));
    expect(c1).toMatchObject({ status: 'closed', filled: 0.01, average: 48900, triggerPrice: 49000, reduceOnly: true, side: 'sell' });
    expect(ccxtTerms(c1 as never)).toEqual(ccxtTerms(d1 as never));
    const [c2, d2] = await Promise.all(ids.map((id) => ex.fetchOrder(id, PERP, { trigger: true })));
    expect(c2!.info).toMatchObject({ algoStatus: 'FINISHED', orderType: 'STOP_MARKET', triggerPrice: '49000.00', workingType: 'CONTRACT_PRICE' });
    expect(d2!.info).toMatchObject({ algoStatus: 'FINISHED', orderType: 'STOP_MARKET', triggerPrice: '49000.00', workingType: 'CONTRACT_PRICE' });
    expect(await ex.fetchOpenOrders(PERP, undefined, undefined, { trigger: true })).toEqual([]);
  });

  it('on spot: a stop-limit from the trade screen and one from CCXT trigger on the same trade and read alike', async () => {
    const spot = new ccxt.binance({ apiKey: ex.apiKey, secret: ex.secret, urls: ex.urls, options: { fetchMarkets: { types: ['spot'] } } });
    await spot.loadMarkets();
    const deposit = async (userId: string, asset: string, amount: bigint) =>
      expect((await t.ctx.host.submit({ type: 'deposit', userId, asset, account: 'SPOT', amount, from: '@chain' })).code).toBe('ok');
    const mover = (await t.ctx.members.ensureEmailUser('two-doors-mover@example.com', 'secret-pass-1', '')).userId;
    await deposit(users.u!.userId, 'BTC', pow10(6)); // 0.01 BTC
    await deposit(makerId, 'USDT', 100_000n * pow10(8));
    await deposit(mover, 'BTC', pow10(6));
    await deposit(mover, 'USDT', 100_000n * pow10(8));
    // The last price 60,000: the maker lifts the mover's ask.
    await t.ctx.spot.place(mover, { pairsName: SYM, side: 'SELL', orderType: 'LIMIT', price: '60000.00', amount: '0.00100' });
    await t.ctx.spot.place(makerId, { pairsName: SYM, side: 'BUY', orderType: 'LIMIT', price: '60000.00', amount: '0.00100' });

    const inApp = await ok('u', 'POST', 'entrust/entrust/setEntrust', {
      pairsName: SYM,
      side: 'SELL',
      orderType: 'LIMIT',
      price: '58000',
      amount: '0.001',
      stopType: 'STOP_LOSS',
      stopPrice: '59000',
    });
    const viaCcxt = await spot.createOrder(SYM, 'limit', 'sell', 0.001, 58000, { triggerPrice: 59000 });
    const ids = [inApp.id as string, viaCcxt.id!];
    const open = await ok('u', 'GET', 'entrust/entrust/getEntrustList', { type: 'current', pairsName: SYM });
    const [a0, b0] = ids.map((id) => open.records.find((r: { id: string }) => r.id === id));
    expect(a0).toMatchObject({ status: 'NEW', stopType: 'STOP_LOSS', stopPrice: '59000.00', triggerState: 'PENDING', price: '58000.00' });
    expect(spotTerms(a0)).toEqual(spotTerms(b0));
    const waiting = await spot.fetchOpenOrders(SYM);
    const [c0, d0] = ids.map((id) => waiting.find((o) => o.id === id)!);
    expect(c0).toMatchObject({ status: 'open', side: 'sell', price: 58000, amount: 0.001, triggerPrice: 59000 });
    expect(ccxtTerms(c0 as never)).toEqual(ccxtTerms(d0 as never));

    // The price the test moves: the maker's bid at 59,000 is hit, so the last price is 59,000 <= 59,000; the two
    // triggered limit sells then meet the maker's bid at 58,000.
    await t.ctx.spot.place(makerId, { pairsName: SYM, side: 'BUY', orderType: 'LIMIT', price: '58000.00', amount: '0.01000' });
    await t.ctx.spot.place(makerId, { pairsName: SYM, side: 'BUY', orderType: 'LIMIT', price: '59000.00', amount: '0.00100' });
    await t.ctx.spot.place(mover, { pairsName: SYM, side: 'SELL', orderType: 'MARKET', amount: '0.00100' });

    const [a1, b1] = await Promise.all(ids.map((id) => ok('u', 'GET', 'entrust/entrust/getEntrustDetail', { id })));
    expect(a1).toMatchObject({ status: 'FILLED', stopType: 'STOP_LOSS', stopPrice: '59000.00', triggerState: 'TRIGGERED' });
    expect(a1.fills).toHaveLength(1);
    expect(a1.fills[0]).toMatchObject({ price: '58000.00', role: 'TAKER' });
    expect(spotTerms(a1)).toEqual(spotTerms(b1));
    const history = await ok('u', 'GET', 'entrust/entrust/getEntrustList', { type: 'history', pairsName: SYM });
    const [a2, b2] = ids.map((id) => history.records.find((r: { id: string }) => r.id === id));
    expect(a2).toMatchObject({ status: 'FILLED', triggerState: 'TRIGGERED', workingTime: a1.workingTime });
    expect(spotTerms(a2)).toEqual(spotTerms(b2));

    const [c1, d1] = await Promise.all(ids.map((id) => spot.fetchOrder(id, SYM)));
    expect(c1).toMatchObject({ status: 'closed', filled: 0.001, average: 58000, triggerPrice: 59000, price: 58000, side: 'sell' });
    expect(ccxtTerms(c1 as never)).toEqual(ccxtTerms(d1 as never));
  });
});
