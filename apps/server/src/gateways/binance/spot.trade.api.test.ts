/**
 * Binance spot trading and account endpoints under /api/v3 through app.inject() on PGlite, signed with
 * real HMAC keys verified by ctx.apiKeys: order entry (LIMIT, LIMIT_MAKER, MARKET by quantity and by quoteOrderQty;
 * ACK/RESULT/FULL with fills), order/test, query and cancel by orderId and origClientOrderId, openOrders and
 * cancel-all, allOrders, account, myTrades, capital/config/getall; exact balances after each step; another user's
 * key can neither see nor cancel an order (per endpoint); bad orders get Binance's codes and change nothing; and the
 * same order placed through the app API and through /api/v3 ends identical (status, fills, fees, balances).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDecimal, pow10 } from '@exchange/core';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { apiCaller, loginUser, type TestUser } from '../../domains/spot/spot-test-support';
import { createTestKey, signedCaller, type TestKey } from '../../domains/api-keys/api-keys.test-keys';

let t: TestApp;
const users: Record<string, TestUser> = {};
const keys: Record<string, TestKey> = {};
const call = signedCaller(() => t);
const app = apiCaller(() => t, users);
let usdtScale = 8;

const usdt = (whole: bigint, frac = 0n, digits = 0) => whole * pow10(usdtScale) + frac * pow10(usdtScale - digits);
const bal = (user: string, coin: string) => t.ctx.host.engine.balance(users[user]!.userId, 'SPOT', coin);
const order = (user: string, params: Record<string, string>) => call(keys[user]!, 'POST', '/api/v3/order', { symbol: 'BTCUSDT', ...params });

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  usdtScale = t.ctx.host.engine.asset('USDT')!.scale;
  for (const name of ['alice', 'bob', 'carol', 'dave', 'mm']) {
    users[name] = await loginUser(t, `${name}-spot@example.com`);
    keys[name] = await createTestKey(t, users[name].userId);
  }
  keys.aliceRead = await createTestKey(t, users.alice!.userId, { spotTrade: false });
  for (const name of ['alice', 'mm']) {
    const r = await t.ctx.host.submit({ type: 'deposit', userId: users[name]!.userId, asset: 'BTC', account: 'SPOT', amount: pow10(8), from: '@chain' });
    expect(r.code).toBe('ok');
  }
});
afterAll(async () => {
  await t?.close();
});

describe('Binance spot trading', () => {
  let sellId = 0;
  it('places a LIMIT order (RESULT) and holds the balance', async () => {
    const res = await order('alice', {
      side: 'SELL',
      type: 'LIMIT',
      timeInForce: 'GTC',
      price: '60000.00',
      quantity: '0.01',
      newClientOrderId: 'alice.sell:1/a',
      newOrderRespType: 'RESULT',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      symbol: 'BTCUSDT',
      orderListId: -1,
      clientOrderId: 'alice.sell:1/a',
      price: '60000.00',
      origQty: '0.01000',
      executedQty: '0.00000',
      cummulativeQuoteQty: formatDecimal(0n, usdtScale),
      origQuoteOrderQty: formatDecimal(0n, usdtScale),
      status: 'NEW',
      timeInForce: 'GTC',
      type: 'LIMIT',
      side: 'SELL',
      selfTradePreventionMode: 'EXPIRE_TAKER',
    });
    expect(res.body.fills).toBeUndefined();
    sellId = res.body.orderId;
    expect(typeof sellId).toBe('number');
    expect(t.ctx.host.engine.order(String(sellId))?.userId).toBe(users.alice!.userId);
    expect(bal('alice', 'BTC')).toEqual({ available: pow10(8) - pow10(6), frozen: pow10(6) });
  });

  it('fills a MARKET BUY by quoteOrderQty (FULL with fills) and settles exactly', async () => {
    const res = await order('bob', { side: 'BUY', type: 'MARKET', quoteOrderQty: '300' });
    expect(res.status).toBe(200);
    // 300 USDT at 60000 = 0.005 BTC; taker fee 0.1% in BTC.
    expect(res.body).toMatchObject({
      status: 'FILLED',
      type: 'MARKET',
      executedQty: '0.00500',
      cummulativeQuoteQty: formatDecimal(usdt(300n), usdtScale),
      origQty: '0.00000',
    });
    expect(res.body.origQuoteOrderQty).toBe(formatDecimal(usdt(300n), usdtScale));
    expect(res.body.clientOrderId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(res.body.fills).toEqual([
      { price: '60000.00', qty: '0.00500', commission: formatDecimal(500n, 8), commissionAsset: 'BTC', tradeId: expect.any(Number) },
    ]);
    expect(bal('bob', 'USDT')).toEqual({ available: usdt(10_000n) - usdt(300n), frozen: 0n });
    expect(bal('bob', 'BTC')).toEqual({ available: 500_000n - 500n, frozen: 0n });
    // alice: +300 USDT - 0.3 maker fee, 0.005 BTC still held.
    expect(bal('alice', 'USDT').available).toBe(usdt(10_000n) + usdt(300n) - usdt(0n, 3n, 1));
    expect(bal('alice', 'BTC').frozen).toBe(500_000n);
  });

  it('answers a query by orderId or origClientOrderId to its owner only (-2013 otherwise)', async () => {
    const byId = await call(keys.alice!, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(sellId) });
    expect(byId.body).toMatchObject({
      orderId: sellId,
      status: 'PARTIALLY_FILLED',
      executedQty: '0.00500',
      isWorking: true,
      stopPrice: '0.00',
      icebergQty: '0.00000',
    });
    expect(byId.body.cummulativeQuoteQty).toBe(formatDecimal(usdt(300n), usdtScale));
    const byCid = await call(keys.alice!, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'alice.sell:1/a' });
    expect(byCid.body).toEqual(byId.body);
    const readKey = await call(keys.aliceRead!, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(sellId) });
    expect(readKey.body.orderId).toBe(sellId);
    const noSuch = { code: -2013, msg: 'Order does not exist.' };
    const named: Array<Record<string, string>> = [
      { symbol: 'BTCUSDT', orderId: String(sellId) },
      { symbol: 'BTCUSDT', origClientOrderId: 'alice.sell:1/a' },
    ];
    for (const params of named) {
      const other = await call(keys.bob!, 'GET', '/api/v3/order', params);
      expect([other.status, other.body]).toEqual([400, noSuch]);
    }
    expect((await call(keys.alice!, 'GET', '/api/v3/order', { symbol: 'ETHUSDT', orderId: String(sellId) })).body).toEqual(noSuch);
    expect((await call(keys.alice!, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(sellId), origClientOrderId: 'other' })).body).toEqual(noSuch);
    expect((await call(keys.alice!, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: '99999999' })).body).toEqual(noSuch);
    expect((await call(keys.alice!, 'GET', '/api/v3/order', { symbol: 'BTCUSDT' })).body.code).toBe(-1102);
  });

  it('lists open orders of the owner only', async () => {
    const mine = await call(keys.alice!, 'GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' });
    expect(mine.body.map((o: { orderId: number }) => o.orderId)).toEqual([sellId]);
    expect((await call(keys.alice!, 'GET', '/api/v3/openOrders')).body).toHaveLength(1);
    expect((await call(keys.bob!, 'GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' })).body).toEqual([]);
    expect((await call(keys.bob!, 'GET', '/api/v3/openOrders')).body).toEqual([]);
  });

  it("does not let another user's key cancel an order (-2011), the owner cancels it once", async () => {
    const before = t.ctx.host.engine.stateHash();
    const unknown = { code: -2011, msg: 'Unknown order sent.' };
    const named: Array<Record<string, string>> = [{ orderId: String(sellId) }, { origClientOrderId: 'alice.sell:1/a' }];
    for (const params of named) {
      const res = await call(keys.bob!, 'DELETE', '/api/v3/order', { symbol: 'BTCUSDT', ...params });
      expect([res.status, res.body]).toEqual([400, unknown]);
    }
    expect((await call(keys.bob!, 'DELETE', '/api/v3/openOrders', { symbol: 'BTCUSDT' })).body).toEqual(unknown);
    expect((await call(keys.alice!, 'DELETE', '/api/v3/order', { symbol: 'ETHUSDT', orderId: String(sellId) })).body).toEqual(unknown);
    expect((await call(keys.aliceRead!, 'DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(sellId) })).body.code).toBe(-2015);
    expect((await call(keys.alice!, 'DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(sellId), cancelRestrictions: 'ONLY_NEW' })).body).toEqual({
      code: -2011,
      msg: 'Order was not canceled due to cancel restrictions.',
    });
    expect(t.ctx.host.engine.stateHash()).toBe(before);

    const res = await call(keys.alice!, 'DELETE', '/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'alice.sell:1/a', newClientOrderId: 'cancel-1' });
    expect(res.body).toMatchObject({
      orderId: sellId,
      status: 'CANCELED',
      origClientOrderId: 'alice.sell:1/a',
      clientOrderId: 'cancel-1',
      executedQty: '0.00500',
    });
    expect(bal('alice', 'BTC')).toEqual({ available: pow10(8) - 500_000n, frozen: 0n });
    expect((await call(keys.alice!, 'DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(sellId) })).body).toEqual(unknown);
    // An ended order is still found by a query.
    expect((await call(keys.alice!, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'alice.sell:1/a' })).body).toMatchObject({
      status: 'CANCELED',
      isWorking: false,
    });
  });

  it('cancels all open orders of a symbol', async () => {
    const a = await order('alice', { side: 'SELL', type: 'LIMIT_MAKER', price: '70000', quantity: '0.001' });
    expect(a.body).toEqual({
      symbol: 'BTCUSDT',
      orderId: expect.any(Number),
      orderListId: -1,
      clientOrderId: expect.any(String),
      transactTime: expect.any(Number),
    });
    const b = await order('alice', { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001', newOrderRespType: 'FULL' });
    expect(b.body).toMatchObject({ status: 'NEW', fills: [] });
    const open = await call(keys.alice!, 'GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' });
    expect(open.body.map((o: { type: string; timeInForce: string }) => [o.type, o.timeInForce])).toEqual([
      ['LIMIT_MAKER', 'GTC'],
      ['LIMIT', 'GTC'],
    ]);
    const res = await call(keys.alice!, 'DELETE', '/api/v3/openOrders', { symbol: 'BTCUSDT' });
    expect(res.body.map((o: { orderId: number; status: string }) => [o.orderId, o.status])).toEqual([
      [a.body.orderId, 'CANCELED'],
      [b.body.orderId, 'CANCELED'],
    ]);
    expect(bal('alice', 'BTC').frozen).toBe(0n);
    expect(bal('alice', 'USDT').frozen).toBe(0n);
    expect((await call(keys.alice!, 'DELETE', '/api/v3/openOrders', { symbol: 'BTCUSDT' })).body.code).toBe(-2011);
  });

  it('lists all orders of the owner, oldest first, from an orderId', async () => {
    const all = await call(keys.alice!, 'GET', '/api/v3/allOrders', { symbol: 'BTCUSDT' });
    expect(all.body.map((o: { status: string }) => o.status)).toEqual(['CANCELED', 'CANCELED', 'CANCELED']);
    expect(all.body[0].orderId).toBe(sellId);
    const from = await call(keys.alice!, 'GET', '/api/v3/allOrders', { symbol: 'BTCUSDT', orderId: String(all.body[1].orderId), limit: '1' });
    expect(from.body.map((o: { orderId: number }) => o.orderId)).toEqual([all.body[1].orderId]);
    expect((await call(keys.alice!, 'GET', '/api/v3/allOrders', { symbol: 'BTCUSDT', limit: '1' })).body[0].orderId).toBe(all.body[2].orderId);
    expect((await call(keys.bob!, 'GET', '/api/v3/allOrders', { symbol: 'BTCUSDT' })).body.map((o: { type: string }) => o.type)).toEqual(['MARKET']);
    expect((await call(keys.alice!, 'GET', '/api/v3/allOrders', { symbol: 'BTCUSDT', startTime: '0', endTime: String(2 * 86_400_000) })).body.code).toBe(-1127);
  });

  it("answers myTrades with each user's side only", async () => {
    const a = await call(keys.alice!, 'GET', '/api/v3/myTrades', { symbol: 'BTCUSDT' });
    expect(a.body).toEqual([
      {
        symbol: 'BTCUSDT',
        id: expect.any(Number),
        orderId: sellId,
        orderListId: -1,
        price: '60000.00',
        qty: '0.00500',
        quoteQty: formatDecimal(usdt(300n), usdtScale),
        commission: formatDecimal(usdt(0n, 3n, 1), usdtScale),
        commissionAsset: 'USDT',
        time: expect.any(Number),
        isBuyer: false,
        isMaker: true,
        isBestMatch: true,
      },
    ]);
    const b = await call(keys.bob!, 'GET', '/api/v3/myTrades', { symbol: 'BTCUSDT' });
    expect(b.body).toHaveLength(1);
    expect(b.body[0]).toMatchObject({ id: a.body[0].id, isBuyer: true, isMaker: false, commission: formatDecimal(500n, 8), commissionAsset: 'BTC' });
    expect((await call(keys.alice!, 'GET', '/api/v3/myTrades', { symbol: 'BTCUSDT', orderId: String(b.body[0].orderId) })).body).toEqual([]);
    expect((await call(keys.bob!, 'GET', '/api/v3/myTrades', { symbol: 'BTCUSDT', orderId: String(b.body[0].orderId) })).body).toHaveLength(1);
    expect((await call(keys.carol!, 'GET', '/api/v3/myTrades', { symbol: 'BTCUSDT' })).body).toEqual([]);
    expect((await call(keys.bob!, 'GET', '/api/v3/myTrades', { symbol: 'BTCUSDT', fromId: String(a.body[0].id + 1) })).body).toEqual([]);
    expect((await call(keys.bob!, 'GET', '/api/v3/myTrades', { symbol: 'BTCUSDT', orderId: '1', startTime: '1' })).body.code).toBe(-1128);
  });

  it('answers account with the SPOT balances and the key permissions', async () => {
    const res = await call(keys.alice!, 'GET', '/api/v3/account', { omitZeroBalances: 'true' });
    expect(res.body).toMatchObject({ makerCommission: 10, takerCommission: 10, canTrade: true, accountType: 'SPOT', permissions: ['SPOT'] });
    expect(res.body.commissionRates).toEqual({ maker: '0.00100000', taker: '0.00100000', buyer: '0.00000000', seller: '0.00000000' });
    expect(res.body.balances).toEqual(
      [
        { asset: 'BTC', free: formatDecimal(pow10(8) - 500_000n, 8), locked: formatDecimal(0n, 8) },
        { asset: 'USDT', free: formatDecimal(bal('alice', 'USDT').available, usdtScale), locked: formatDecimal(0n, usdtScale) },
      ].sort((x, y) => t.ctx.host.engine.assets().findIndex((a) => a.code === x.asset) - t.ctx.host.engine.assets().findIndex((a) => a.code === y.asset)),
    );
    const all = await call(keys.aliceRead!, 'GET', '/api/v3/account');
    expect(all.body.canTrade).toBe(false);
    expect(all.body.balances).toHaveLength(t.ctx.host.engine.assets().length);
    expect((await call(null, 'GET', '/api/v3/account')).body.code).toBe(-2014);
  });

  it('answers the commission rates of a market (account/commission) and of every market (sapi tradeFee)', async () => {
    const zero = '0.00000000';
    expect((await call(keys.aliceRead!, 'GET', '/api/v3/account/commission', { symbol: 'BTCUSDT' })).body).toEqual({
      symbol: 'BTCUSDT',
      standardCommission: { maker: '0.00100000', taker: '0.00100000', buyer: zero, seller: zero },
      specialCommission: { maker: zero, taker: zero, buyer: zero, seller: zero },
      taxCommission: { maker: zero, taker: zero, buyer: zero, seller: zero },
      discount: { enabledForAccount: false, enabledForSymbol: false, discountAsset: '', discount: zero },
    });
    expect((await call(keys.alice!, 'GET', '/api/v3/account/commission', {})).body.code).toBe(-1102);
    expect((await call(keys.alice!, 'GET', '/api/v3/account/commission', { symbol: 'NOPEUSDT' })).body.code).toBe(-1121);
    const fees = (await call(keys.aliceRead!, 'GET', '/sapi/v1/asset/tradeFee')).body as Array<{
      symbol: string;
      makerCommission: string;
      takerCommission: string;
    }>;
    expect(fees.map((f) => f.symbol)).toEqual(t.ctx.host.engine.markets().map((m) => m.symbol.replace('/', '')));
    expect(fees.find((f) => f.symbol === 'BTCUSDT')).toEqual({ symbol: 'BTCUSDT', makerCommission: '0.00100000', takerCommission: '0.00100000' });
    expect((await call(keys.alice!, 'GET', '/sapi/v1/asset/tradeFee', { symbol: 'BTCUSDT' })).body).toEqual([
      { symbol: 'BTCUSDT', makerCommission: '0.00100000', takerCommission: '0.00100000' },
    ]);
    expect((await call(null, 'GET', '/sapi/v1/asset/tradeFee')).body.code).toBe(-2014);
  });

  it('answers capital/config/getall with our coins, networks and SPOT balances', async () => {
    const res = await call(keys.alice!, 'GET', '/sapi/v1/capital/config/getall');
    expect(res.status).toBe(200);
    const usdtCoin = res.body.find((c: { coin: string }) => c.coin === 'USDT');
    expect(usdtCoin).toMatchObject({ coin: 'USDT', free: formatDecimal(bal('alice', 'USDT').available, usdtScale), trading: true });
    expect(usdtCoin.networkList[0]).toMatchObject({ network: 'ETH', coin: 'USDT', isDefault: true, withdrawFee: '1' });
    expect(res.body.map((c: { coin: string }) => c.coin).sort()).toEqual(
      t.ctx.host.engine
        .assets()
        .map((a) => a.code)
        .sort(),
    );
  });

  it('validates order/test without placing anything', async () => {
    const before = t.ctx.host.engine.stateHash();
    const ok = await call(keys.carol!, 'POST', '/api/v3/order/test', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      price: '100.00',
      quantity: '1',
    });
    expect([ok.status, ok.body]).toEqual([200, {}]);
    const rates = await call(keys.carol!, 'POST', '/api/v3/order/test', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '1',
      computeCommissionRates: 'true',
    });
    expect(rates.body.standardCommissionForOrder).toEqual({ maker: '0.00100000', taker: '0.00100000' });
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ price: '100.001' }, -1111, "Parameter 'price' has too much precision."],
      [{ price: '0.00' }, -2010, 'Filter failure: PRICE_FILTER'],
      [{ quantity: '0.000001' }, -1111, "Parameter 'quantity' has too much precision."],
      [{ quantity: '0.00001', price: '1.00' }, -2010, 'Filter failure: NOTIONAL'],
    ];
    for (const [fields, code, msg] of cases) {
      const res = await call(keys.carol!, 'POST', '/api/v3/order/test', {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        timeInForce: 'GTC',
        price: '100.00',
        quantity: '1',
        ...fields,
      });
      expect(res.body, JSON.stringify(fields)).toEqual({ code, msg });
    }
    expect(t.ctx.host.engine.stateHash()).toBe(before);
  });

  it('rejects bad orders with Binance codes and changes nothing', async () => {
    const before = t.ctx.host.engine.stateHash();
    const limit = { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '100.00', quantity: '0.1' };
    const cases: Array<[Record<string, string>, number]> = [
      [{ ...limit, symbol: 'NOPEUSDT' }, -1121],
      [{ ...limit, symbol: 'btcusdt' }, -1100],
      [{ ...limit, side: 'buy' }, -1117],
      [{ ...limit, side: '' }, -1102],
      [{ ...limit, type: 'limit' }, -1116],
      [{ ...limit, type: 'STOP_LOSS' }, -1102], // neither stopPrice nor trailingDelta
      [{ ...limit, type: 'TAKE_PROFIT_LIMIT' }, -1102],
      [{ ...limit, timeInForce: 'GTX' }, -1115],
      [{ side: 'BUY', type: 'LIMIT', price: '100', quantity: '1' }, -1102],
      [{ ...limit, price: '' }, -1102],
      [{ ...limit, price: '1e3' }, -1100],
      [{ ...limit, price: '-1' }, -1100],
      [{ ...limit, quantity: 'NaN' }, -1100],
      [{ ...limit, price: '100.001' }, -1111],
      [{ ...limit, quantity: '0.000001' }, -1111],
      [{ ...limit, quantity: '99999999999999999999' }, -1130],
      [{ ...limit, quantity: '1000' }, -2010],
      [{ ...limit, stopPrice: '10' }, -1106],
      [{ ...limit, icebergQty: '0.01' }, -2010],
      [{ ...limit, newClientOrderId: 'has space' }, -1100],
      [{ ...limit, newClientOrderId: 'x'.repeat(37) }, -1100],
      [{ ...limit, newOrderRespType: 'MAXI' }, -1130],
      [{ ...limit, selfTradePreventionMode: 'NONE' }, -1130],
      [{ side: 'BUY', type: 'LIMIT_MAKER', timeInForce: 'GTC', price: '100', quantity: '1' }, -1106],
      [{ side: 'BUY', type: 'MARKET' }, -1102],
      [{ side: 'BUY', type: 'MARKET', quantity: '1', quoteOrderQty: '10' }, -1106],
      [{ side: 'SELL', type: 'MARKET', quoteOrderQty: '10' }, -1014],
      [{ side: 'BUY', type: 'MARKET', quantity: '1', price: '10' }, -1106],
      [{ side: 'BUY', type: 'MARKET', quantity: '1', timeInForce: 'GTC' }, -1106],
      [{ side: 'BUY', type: 'MARKET', quantity: '0.01' }, -2010], // an empty book: no liquidity
    ];
    for (const [params, code] of cases) {
      const res = await order('carol', params);
      expect([res.status, res.body.code], JSON.stringify(params)).toEqual([400, code]);
      expect(typeof res.body.msg).toBe('string');
    }
    expect((await call(keys.aliceRead!, 'POST', '/api/v3/order', { symbol: 'BTCUSDT', ...limit })).body.code).toBe(-2015);
    expect(t.ctx.host.engine.stateHash()).toBe(before);
  });

  it('behaves identically for the same order placed through the app API and through /api/v3', async () => {
    /** The answer of the same taker order through each face, after an equal resting ask of mm. */
    const both = async (fields: { side: 'BUY' | 'SELL'; price: string; qty: string; tif: 'GTC' | 'IOC' }, ask?: { price: string; qty: string }) => {
      if (ask) expect((await order('mm', { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: ask.price, quantity: ask.qty })).status).toBe(200);
      const viaApp = await app('carol', 'POST', 'entrust/entrust/setEntrust', {
        pairsName: 'BTC/USDT',
        side: fields.side,
        orderType: 'LIMIT',
        timeInForce: fields.tif,
        price: fields.price,
        amount: fields.qty,
      });
      expect(viaApp.body.status).toBe('SUCCEED');
      if (ask) expect((await order('mm', { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: ask.price, quantity: ask.qty })).status).toBe(200);
      const viaBinance = await order('dave', { side: fields.side, type: 'LIMIT', timeInForce: fields.tif, price: fields.price, quantity: fields.qty });
      expect(viaBinance.status).toBe(200);
      return { a: viaApp.body.result, b: viaBinance.body };
    };
    const cases = [
      await both({ side: 'BUY', price: '61500.00', qty: '0.004', tif: 'GTC' }, { price: '61000.00', qty: '0.004' }), // FILLED at the maker price
      await both({ side: 'BUY', price: '61500.00', qty: '0.003', tif: 'IOC' }, { price: '61000.00', qty: '0.002' }), // fills 0.002, the rest expires
      await both({ side: 'BUY', price: '50000.00', qty: '0.002', tif: 'GTC' }), // rests, NEW
    ];
    for (const { a, b } of cases) {
      const fee = b.fills.reduce((sum: bigint, f: { commission: string }) => sum + BigInt(f.commission.replace('.', '')), 0n);
      expect([a.status, a.dealAmount, a.dealTotal, BigInt(a.fee.replace('.', ''))]).toEqual([b.status, b.executedQty, b.cummulativeQuoteQty, fee]);
      const appDetail = (await app('carol', 'GET', 'entrust/entrust/getEntrustDetail', { id: a.id })).body.result;
      expect(appDetail.fills.map((f: { price: string; amount: string; fee: string }) => [f.price, f.amount, f.fee])).toEqual(
        b.fills.map((f: { price: string; qty: string; commission: string }) => [f.price, f.qty, f.commission]),
      );
      // Each face reads the other's order the same way.
      const daveInApp = (await app('dave', 'GET', 'entrust/entrust/getEntrustDetail', { id: String(b.orderId) })).body.result;
      expect([daveInApp.status, daveInApp.dealAmount, daveInApp.dealTotal, daveInApp.fee, daveInApp.timeInForce]).toEqual([
        a.status,
        a.dealAmount,
        a.dealTotal,
        a.fee,
        a.timeInForce,
      ]);
      const carolInBinance = (await call(keys.carol!, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: a.id })).body;
      expect([carolInBinance.status, carolInBinance.executedQty, carolInBinance.cummulativeQuoteQty, carolInBinance.timeInForce]).toEqual([
        b.status,
        b.executedQty,
        b.cummulativeQuoteQty,
        b.timeInForce,
      ]);
    }
    expect(cases.map(({ a }) => a.status)).toEqual(['FILLED', 'EXPIRED', 'NEW']);
    for (const coin of ['USDT', 'BTC']) expect(bal('carol', coin)).toEqual(bal('dave', coin));
    expect(bal('carol', 'USDT').frozen).toBe(usdt(100n));
  });
});
