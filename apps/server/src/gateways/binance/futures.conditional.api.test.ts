/**
 * Binance USDⓈ-M conditional orders through POST /fapi/v1/order against the real engine and database (PGlite): a
 * STOP_MARKET waits as an open order (stopPrice, workingType, origType shown), another key neither reads nor cancels it,
 * a mark-price move triggers it and it fills under the same orderId; a STOP (LIMIT) on the contract price is triggered
 * by a trade between two users; a TRAILING_STOP_MARKET shows activatePrice and priceRate and is cancelled; Binance's
 * errors (-2021 would trigger, -1102 missing stopPrice or callbackRate, -2007 callbackRate out of 0.1..10, -1106 a
 * parameter the type does not take) change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { createTestUserKey, signedCaller, type BinanceAnswer, type TestUserKey } from '../../domains/api-keys/api-keys.test-keys';
import { fundContract, tick } from '../../domains/perp/perp-test-support';
import { createPerpRepository } from '../../domains/perp/perp.repository';
import { rowToPerpOrderView } from '../../domains/perp/perp.format';

let t: TestApp;
const SYM = 'BTC/USDT';
const px = (v: number) => BigInt(v) * 100n;
type Key = TestUserKey;
const keys: Record<'A' | 'B', Key> = {} as never;

type Res = BinanceAnswer;
/** A signed request of `k` (api-keys.test-keys.ts signedCaller). */
const call = signedCaller(() => t);
const order = (k: Key, params: Record<string, string>) => call(k, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', ...params });
const list = (r: Res) => r.body as unknown as Array<Record<string, unknown>>;
const pendingOf = (k: Key) => t.ctx.host.engine.perpOpenOrders(k.userId).filter((o) => o.condition && o.condition.workingTs === null);

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  for (const name of ['A', 'B'] as const) {
    keys[name] = await createTestUserKey(t, `fut-cond-${name}@example.com`, { spotTrade: false, futuresTrade: true });
    await fundContract(t.ctx.host, keys[name].userId, 100_000n);
  }
  await t.ctx.host.projected();
  await tick(t.ctx.host, px(50_000), SYM);
});
afterAll(async () => {
  await t?.close();
});

describe('/fapi/v1/order conditional types', () => {
  it('refuses bad conditional orders with Binance errors and changes nothing', async () => {
    const base = { side: 'SELL', type: 'STOP_MARKET', quantity: '0.01', stopPrice: '48000', workingType: 'MARK_PRICE' };
    const bad: Array<[Record<string, string>, number]> = [
      [{ ...base, stopPrice: '51000' }, -2021],
      [{ ...base, stopPrice: '' }, -1102],
      [{ ...base, quantity: '' }, -1102],
      [{ ...base, price: '48000' }, -1106],
      [{ ...base, callbackRate: '1' }, -1106],
      [{ ...base, workingType: 'INDEX_PRICE' }, -1100],
      [{ ...base, stopPrice: '48000.001' }, -1111],
      [{ ...base, side: 'BUY', type: 'TAKE_PROFIT_MARKET', stopPrice: '50500' }, -2021],
      [{ ...base, type: 'STOP', price: '47000', timeInForce: 'GTX' }, -1115],
      [{ ...base, type: 'STOP' }, -1102],
      [{ side: 'SELL', type: 'TRAILING_STOP_MARKET', quantity: '0.01' }, -1102],
      [{ side: 'SELL', type: 'TRAILING_STOP_MARKET', quantity: '0.01', callbackRate: '0.05' }, -2007],
      [{ side: 'SELL', type: 'TRAILING_STOP_MARKET', quantity: '0.01', callbackRate: '10.1' }, -2007],
      [{ side: 'SELL', type: 'TRAILING_STOP_MARKET', quantity: '0.01', callbackRate: '1', stopPrice: '48000' }, -1106],
      [{ side: 'SELL', type: 'STOP_MARKET', stopPrice: '48000', closePosition: 'true', quantity: '0.01' }, -1106],
    ];
    const hash = t.ctx.host.engine.stateHash();
    for (const [params, code] of bad) {
      const r = await order(keys.A, params);
      expect([r.body.code, JSON.stringify(params)], JSON.stringify(r.body)).toEqual([code, JSON.stringify(params)]);
      expect(r.status).toBe(400);
    }
    expect((await order(keys.A, { ...base, stopPrice: '51000' })).body.msg).toBe('Order would immediately trigger.');
    expect(t.ctx.host.engine.stateHash()).toBe(hash);
    expect(t.ctx.host.engine.perpOpenOrders(keys.A.userId)).toHaveLength(0);
  });

  it('a STOP_MARKET waits as an open order, only its owner sees it, and a mark-price move triggers it under the same orderId', async () => {
    const r = await order(keys.A, {
      side: 'SELL',
      type: 'STOP_MARKET',
      quantity: '0.01',
      stopPrice: '48000',
      workingType: 'MARK_PRICE',
      newClientOrderId: 'stop-1',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      status: 'NEW',
      type: 'STOP_MARKET',
      origType: 'STOP_MARKET',
      stopPrice: '48000.00',
      workingType: 'MARK_PRICE',
      priceProtect: false,
      closePosition: false,
      reduceOnly: false,
      origQty: '0.01000',
      price: '0',
      timeInForce: 'GTC',
      clientOrderId: 'stop-1',
    });
    const orderId = r.body.orderId as number;
    const open = list(await call(keys.A, 'GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' }));
    expect(open.map((o) => [o.orderId, o.type, o.stopPrice])).toEqual([[orderId, 'STOP_MARKET', '48000.00']]);
    expect((await call(keys.A, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', origClientOrderId: 'stop-1' })).body).toMatchObject({ orderId, status: 'NEW' });
    // B neither reads nor cancels it.
    expect(list(await call(keys.B, 'GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' }))).toEqual([]);
    expect((await call(keys.B, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId })).body.code).toBe(-2013);
    expect((await call(keys.B, 'DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId })).body.code).toBe(-2011);
    expect(t.ctx.host.engine.perpOrder(String(orderId))?.status).toBe('NEW');
    // B's bid gives the triggered MARKET sell its liquidity; the mark falling to 48000 or below triggers it.
    expect((await order(keys.B, { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '49000', quantity: '0.01' })).status).toBe(200);
    const mark = await tick(t.ctx.host, px(47_900), SYM);
    expect(mark <= px(48_000)).toBe(true);
    const after = await call(keys.A, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId });
    expect(after.body).toMatchObject({
      orderId,
      status: 'FILLED',
      type: 'STOP_MARKET',
      origType: 'STOP_MARKET',
      stopPrice: '48000.00',
      executedQty: '0.01000',
    });
    expect(t.ctx.host.engine.position(keys.A.userId, SYM)).toMatchObject({ side: 'SHORT', size: 1000n });
    expect(list(await call(keys.A, 'GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' }))).toEqual([]);
    // allOrders reads ended orders from the projected rows: the trigger columns keep the type and stop price.
    const all = list(await call(keys.A, 'GET', '/fapi/v1/allOrders', { symbol: 'BTCUSDT' }));
    expect(all.filter((o) => o.orderId === orderId).map((o) => [o.status, o.type, o.origType, o.stopPrice, o.workingType])).toEqual([
      ['FILLED', 'STOP_MARKET', 'STOP_MARKET', '48000.00', 'MARK_PRICE'],
    ]);
    const row = await createPerpRepository(t.ctx.db).order(String(orderId));
    expect(rowToPerpOrderView(row!)).toEqual(t.ctx.host.engine.perpOrder(String(orderId)) ?? rowToPerpOrderView(row!));
    expect(rowToPerpOrderView(row!).condition).toMatchObject({ type: 'STOP_MARKET', stopPrice: px(48_000), workingType: 'MARK_PRICE', expireReason: null });
    expect(rowToPerpOrderView(row!).condition!.workingTs).toBeGreaterThan(0);
  });

  it('a STOP (LIMIT) on the contract price is triggered by a trade between two users and fills at its limit', async () => {
    // Last price 49000 now. A BUY STOP triggers when the last price reaches 49500.
    const r = await order(keys.A, { side: 'BUY', type: 'STOP', quantity: '0.01', price: '49600', stopPrice: '49500', timeInForce: 'GTC' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 'NEW', type: 'STOP', stopPrice: '49500.00', price: '49600.00', workingType: 'CONTRACT_PRICE', timeInForce: 'GTC' });
    const orderId = r.body.orderId as number;
    expect((await order(keys.B, { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '49550', quantity: '0.02' })).status).toBe(200);
    // Not triggered yet: nothing traded at 49500 or above.
    expect(t.ctx.host.engine.perpOrder(String(orderId))?.condition?.workingTs).toBeNull();
    const taker = await order(keys.A, { side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '49550', quantity: '0.01' });
    expect(taker.body).toMatchObject({ status: 'FILLED' });
    const after = await call(keys.A, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId });
    expect(after.body).toMatchObject({ orderId, status: 'FILLED', type: 'STOP', executedQty: '0.01000' });
  });

  it('a TRAILING_STOP_MARKET shows activatePrice and priceRate; DELETE cancels it and B cannot', async () => {
    const r = await order(keys.A, {
      side: 'SELL',
      type: 'TRAILING_STOP_MARKET',
      quantity: '0.01',
      callbackRate: '1.5',
      activationPrice: '52000',
      reduceOnly: 'true',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      status: 'NEW',
      type: 'TRAILING_STOP_MARKET',
      activatePrice: '52000.00',
      priceRate: '1.5',
      stopPrice: '0',
      reduceOnly: true,
    });
    const orderId = r.body.orderId as number;
    expect((await call(keys.B, 'DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId })).body.code).toBe(-2011);
    const del = await call(keys.A, 'DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId });
    expect(del.body).toMatchObject({ orderId, status: 'CANCELED', type: 'TRAILING_STOP_MARKET', priceRate: '1.5' });
    await t.ctx.host.projected();
    const row = await createPerpRepository(t.ctx.db).order(String(orderId));
    expect(rowToPerpOrderView(row!)).toMatchObject({
      status: 'CANCELED',
      reduceOnly: true,
      condition: {
        type: 'TRAILING_STOP_MARKET',
        stopPrice: null,
        workingType: 'CONTRACT_PRICE',
        priceProtect: false,
        closePosition: false,
        callbackRateBps: 150,
        activationPrice: px(52_000),
        trailingRef: null,
        workingTs: null,
        expireReason: null,
      },
    });
    expect(t.ctx.host.engine.perpOpenOrders(keys.A.userId)).toHaveLength(0);
  });

  it('the algo endpoints: POST, GET, openAlgoOrders, allAlgoOrders, DELETE and algoOpenOrders; another key sees and cancels nothing', async () => {
    const a = await call(keys.A, 'POST', '/fapi/v1/algoOrder', {
      algoType: 'CONDITIONAL',
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'STOP_MARKET',
      quantity: '0.01',
      triggerPrice: '45000',
      workingType: 'MARK_PRICE',
      clientAlgoId: 'algo-1',
    });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body).toMatchObject({
      clientAlgoId: 'algo-1',
      algoType: 'CONDITIONAL',
      orderType: 'STOP_MARKET',
      symbol: 'BTCUSDT',
      side: 'SELL',
      quantity: '0.01000',
      algoStatus: 'NEW',
      actualOrderId: '',
      triggerPrice: '45000.00',
      price: '0',
      workingType: 'MARK_PRICE',
      closePosition: false,
      triggerTime: 0,
    });
    const algoId = a.body.algoId as number;
    const t2 = await call(keys.A, 'POST', '/fapi/v1/algoOrder', {
      algoType: 'CONDITIONAL',
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'TRAILING_STOP_MARKET',
      quantity: '0.01',
      callbackRate: '0.5',
      activatePrice: '47000',
    });
    expect(t2.body).toMatchObject({ orderType: 'TRAILING_STOP_MARKET', activatePrice: '47000.00', callbackRate: '0.5', algoStatus: 'NEW' });
    // A position to close: closePosition takes no quantity (-1106 with one).
    const cp = await call(keys.A, 'POST', '/fapi/v1/algoOrder', {
      algoType: 'CONDITIONAL',
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'STOP_MARKET',
      triggerPrice: '56000',
      closePosition: 'true',
    });
    expect(cp.body).toMatchObject({ orderType: 'STOP_MARKET', closePosition: true, reduceOnly: true, quantity: '0.00000', timeInForce: 'GTE_GTC' });
    const bad: Array<[Record<string, string>, number]> = [
      [{ algoType: 'VP', side: 'SELL', type: 'STOP_MARKET', quantity: '0.01', triggerPrice: '45000' }, -1130],
      [{ algoType: 'CONDITIONAL', side: 'SELL', type: 'LIMIT', quantity: '0.01', triggerPrice: '45000' }, -1116],
      [{ algoType: 'CONDITIONAL', side: 'SELL', type: 'STOP_MARKET', quantity: '0.01' }, -1102],
      [{ algoType: 'CONDITIONAL', side: 'SELL', type: 'STOP_MARKET', quantity: '0.01', triggerPrice: '60000' }, -2021],
      [{ algoType: 'CONDITIONAL', side: 'BUY', type: 'STOP_MARKET', quantity: '0.01', triggerPrice: '56000', closePosition: 'true' }, -1106],
    ];
    for (const [params, code] of bad) expect((await call(keys.A, 'POST', '/fapi/v1/algoOrder', { symbol: 'BTCUSDT', ...params })).body.code).toBe(code);
    expect((await call(keys.A, 'GET', '/fapi/v1/algoOrder', { clientAlgoId: 'algo-1' })).body).toMatchObject({ algoId, algoStatus: 'NEW' });
    const open = list(await call(keys.A, 'GET', '/fapi/v1/openAlgoOrders', { symbol: 'BTCUSDT' }));
    expect(open.map((o) => o.algoId)).toEqual([algoId, t2.body.algoId, cp.body.algoId]);
    // The algo orders are open orders of /fapi/v1/openOrders too, under the same id.
    expect(list(await call(keys.A, 'GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' })).map((o) => o.orderId)).toEqual([
      algoId,
      t2.body.algoId,
      cp.body.algoId,
    ]);
    // B sees and cancels nothing of A's.
    expect(list(await call(keys.B, 'GET', '/fapi/v1/openAlgoOrders', {}))).toEqual([]);
    expect((await call(keys.B, 'GET', '/fapi/v1/algoOrder', { algoId })).body.code).toBe(-2013);
    expect((await call(keys.B, 'DELETE', '/fapi/v1/algoOrder', { algoId })).body.code).toBe(-2011);
    await call(keys.B, 'DELETE', '/fapi/v1/algoOpenOrders', { symbol: 'BTCUSDT' });
    expect(pendingOf(keys.A)).toHaveLength(3);
    expect((await call(keys.A, 'DELETE', '/fapi/v1/algoOrder', { algoId })).body).toEqual({ algoId, clientAlgoId: 'algo-1', code: '200', msg: 'success' });
    expect((await call(keys.A, 'DELETE', '/fapi/v1/algoOrder', { algoId })).body.code).toBe(-2011);
    expect((await call(keys.A, 'DELETE', '/fapi/v1/algoOpenOrders', { symbol: 'BTCUSDT' })).body).toEqual({
      code: 200,
      msg: 'The operation of cancel all open order is done.',
    });
    expect(pendingOf(keys.A)).toHaveLength(0);
    const all = list(await call(keys.A, 'GET', '/fapi/v1/allAlgoOrders', { symbol: 'BTCUSDT' }));
    expect(all.filter((o) => o.algoId === algoId).map((o) => [o.algoStatus, o.triggerPrice])).toEqual([['CANCELED', '45000.00']]);
    expect(list(await call(keys.B, 'GET', '/fapi/v1/allAlgoOrders', { symbol: 'BTCUSDT' }))).toEqual([]);
    // Pages of `limit` orders, oldest first: page 2 of 1 is the second order; page 0 and an unknown algoType are refused.
    expect(all.length).toBeGreaterThan(1);
    const second = list(await call(keys.A, 'GET', '/fapi/v1/allAlgoOrders', { symbol: 'BTCUSDT', limit: '1', page: '2' }));
    expect(second.map((o) => o.algoId)).toEqual([all[1]!.algoId]);
    expect((await call(keys.A, 'GET', '/fapi/v1/allAlgoOrders', { symbol: 'BTCUSDT', page: '0' })).status).toBe(400);
    expect((await call(keys.A, 'GET', '/fapi/v1/openAlgoOrders', { algoType: 'VP' })).status).toBe(400);
  });
});
