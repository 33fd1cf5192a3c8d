/**
 * API test of the app's conditional perpetual orders (contract.conditional.ts) through app.inject() on a real database
 * (PGlite; PostgreSQL when DATABASE_URL is set), on the test market TSTP/USDT. Proves: every bad input is refused with
 * its code in en and zh (different sentences) and changes nothing (the caller's open orders, balance and position are
 * the same after); a stop-market reduce-only order is pending without any hold, listed only for its owner, and only
 * its owner cancels it; a second one triggers when the mark price tick reaches it (MARK_PRICE) and fills against a
 * resting order, and the history shows it TRIGGERED with its trigger price, working type, trigger time and fill; a
 * close-position stop on the last price (CONTRACT_PRICE) triggers when a trade moves the last price and expires with
 * the reason no_position; a trailing stop keeps its callback rate; a repeated clientOrderId answers the first order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durableTestSetup, type DurableTestSetup, type TestApp } from '../../../test/helpers';
import { apiCaller, loginUser, type TestUser } from '../spot/spot-test-support';
import { PERP, ensurePerpMarket, fundContract, tick } from './perp-test-support';

const SYM = PERP.symbol;
const C = 'contract/contract';
const px = (whole: number) => BigInt(whole) * 100n; // price units (2 decimals)

let t: TestApp;
let setup: DurableTestSetup | undefined;
const users: Record<string, TestUser> = {};
const call = apiCaller(() => t, users);

async function ok(user: string, method: 'GET' | 'POST', p: string, data: Record<string, string> = {}) {
  const r = await call(user, method, `${C}/${p}`, data);
  expect(r.body.status, JSON.stringify(r.body)).toBe('SUCCEED');
  return r.body.result;
}

/** What a refusal must leave as it was: the user's open orders (with their states), CONTRACT balance and position. */
function stateOf(user: string): string {
  const e = t.ctx.host.engine;
  const id = users[user]!.userId;
  return JSON.stringify(
    { orders: e.perpOpenOrders(id), balance: e.balance(id, 'CONTRACT', 'USDT'), position: e.position(id, SYM) ?? null },
    (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v),
  );
}

/** Asserts the call is refused with `code` in both languages and that nothing of the user changed. */
async function refused(user: string, method: 'GET' | 'POST', p: string, data: Record<string, string>, code: string, status = 400) {
  const before = stateOf(user);
  const en = await call(user, method, `${C}/${p}`, data, 'en');
  const zh = await call(user, method, `${C}/${p}`, data, 'zh');
  expect(en.body.status, JSON.stringify(en.body)).toBe('FAILED');
  expect(en.body.errorCode, JSON.stringify(en.body)).toBe(code);
  expect(en.status).toBe(status);
  expect(zh.body.errorCode).toBe(code);
  expect(zh.body.errorMessage).not.toBe(en.body.errorMessage);
  expect(zh.body.errorMessage).toMatch(/[\u4e00-\u9fff]/);
  expect(stateOf(user)).toBe(before);
  return { en: en.body.errorMessage as string, zh: zh.body.errorMessage as string };
}

const stopSell = { symbol: SYM, side: 'SELL', type: 'STOP_MARKET', stopPrice: '49000', workingType: 'MARK_PRICE', reduceOnly: 'true', quantity: '0.020' };

beforeAll(async () => {
  setup = await durableTestSetup('exch-contract-cond-');
  t = await setup.open();
  await ensurePerpMarket(t.ctx.host);
  users.alice = await loginUser(t, 'alice@cond.test');
  users.bob = await loginUser(t, 'bob@cond.test');
  users.carol = await loginUser(t, 'carol@cond.test');
  for (const u of ['alice', 'bob', 'carol']) await fundContract(t.ctx.host, users[u]!.userId, 10_000n);
  expect(await tick(t.ctx.host, px(50_000))).toBe(px(50_000));
  // Bob opens a long of 0.040 against Alice's resting sell: the last price is 50,000.
  await ok('alice', 'POST', 'placeOrder', { symbol: SYM, side: 'SELL', orderType: 'LIMIT', price: '50000', quantity: '0.040' });
  const o = await ok('bob', 'POST', 'placeOrder', { symbol: SYM, side: 'BUY', orderType: 'MARKET', quantity: '0.040' });
  expect(o).toMatchObject({ status: 'FILLED', filledQty: '0.040' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await setup?.dispose();
});

describe('contract conditional orders API', () => {
  it('refuses every bad input in both languages and changes nothing', async () => {
    const P = 'placeConditionalOrder';
    expect((await refused('bob', 'POST', P, { ...stopSell, symbol: 'NOPE/USDT' }, 'market_not_found')).en).toBe('Trading pair not found');
    const { stopPrice: _s, ...noStop } = stopSell;
    expect((await refused('bob', 'POST', P, noStop, 'stop_price_required')).zh).toBe('请输入触发价或回调幅度');
    expect((await refused('bob', 'POST', P, { ...stopSell, type: 'TRAILING_STOP', callbackRate: '1' }, 'invalid_order')).en).toBe(
      'Invalid order parameters: trigger price',
    );
    expect((await refused('bob', 'POST', P, { ...stopSell, callbackRate: '1' }, 'invalid_order')).en).toBe('Invalid order parameters: callback rate');
    expect((await refused('bob', 'POST', P, { ...stopSell, activationPrice: '51000' }, 'invalid_order')).zh).toBe('委托参数无效：激活价格');
    await refused('bob', 'POST', P, { ...stopSell, type: 'STOP_LIMIT' }, 'price_required');
    expect((await refused('bob', 'POST', P, { ...stopSell, price: '48000' }, 'limit_price_not_allowed')).en).toBe(
      'Only stop-limit and take-profit-limit orders take a limit price',
    );
    const { quantity: _q, reduceOnly: _r, ...bare } = stopSell;
    await refused('bob', 'POST', P, { ...bare, closePosition: 'true', reduceOnly: 'true' }, 'close_position_invalid');
    await refused('bob', 'POST', P, { ...bare, closePosition: 'true', quantity: '0.010' }, 'close_position_invalid');
    await refused('bob', 'POST', P, { ...bare, type: 'STOP_LIMIT', price: '48000', closePosition: 'true' }, 'close_position_invalid');
    const trailing = { symbol: SYM, side: 'SELL', type: 'TRAILING_STOP', quantity: '0.010' };
    for (const rate of ['', '0.05', '10.1', '1.25', '0', 'abc'])
      if (rate === 'abc') await refused('bob', 'POST', P, { ...trailing, callbackRate: rate }, 'validation_failed');
      else
        expect((await refused('bob', 'POST', P, { ...trailing, callbackRate: rate }, 'callback_rate_invalid')).en).toBe(
          'The callback rate must be 0.1% to 10% in steps of 0.1%',
        );
    await refused('bob', 'POST', P, { ...trailing, callbackRate: '1', priceProtect: 'true' }, 'invalid_order');
    await refused('bob', 'POST', P, bare, 'lots_required');
    await refused('bob', 'POST', P, { ...stopSell, lots: '1' }, 'invalid_order');
    expect((await refused('bob', 'POST', P, { ...stopSell, stopPrice: '49000.001' }, 'too_many_decimals')).en).toBe(
      'The trigger price must be a multiple of 0.01 USDT',
    );
    expect((await refused('bob', 'POST', P, { ...stopSell, quantity: '0.000' }, 'quantity_below_minimum')).en).toBe('Minimum amount is 0.001 TSTP');
    // SELL stop at the mark itself: Binance -2021 "Order would immediately trigger" (equality included).
    expect((await refused('bob', 'POST', P, { ...stopSell, stopPrice: '50000' }, 'would_trigger_immediately')).en).toBe(
      'The stop price would trigger the order immediately',
    );
    await refused('bob', 'POST', P, { ...stopSell, type: 'STOP_SOMETHING' }, 'validation_failed');
    await refused('bob', 'POST', P, { ...stopSell, workingType: 'INDEX_PRICE' }, 'validation_failed');
    await refused('bob', 'GET', 'getConditionalOrders', { tab: 'pending' }, 'validation_failed');
    await refused('bob', 'POST', 'cancelConditionalOrder', { orderId: 'x1' }, 'validation_failed');
    const visitor = await call(null, 'POST', `${C}/${P}`, stopSell);
    expect(visitor.status).toBe(401);
    expect((await call(null, 'GET', `${C}/getConditionalOrders`, { tab: 'open' })).status).toBe(401);
    expect((await call(null, 'POST', `${C}/cancelConditionalOrder`, { orderId: '1' })).status).toBe(401);
  });

  let first = '';
  it('places a stop-market reduce-only order pending without a hold, seen and cancelled by its owner only', async () => {
    const before = t.ctx.host.engine.balance(users.bob!.userId, 'CONTRACT', 'USDT');
    const o = await ok('bob', 'POST', 'placeConditionalOrder', { ...stopSell, clientOrderId: 'cond-1' });
    expect(o).toMatchObject({
      symbol: SYM,
      side: 'SELL',
      type: 'STOP_MARKET',
      orderType: 'MARKET',
      state: 'PENDING',
      stopPrice: '49000.00',
      price: '',
      workingType: 'MARK_PRICE',
      quantity: '0.020',
      reduceOnly: true,
      closePosition: false,
      callbackRate: '',
      orderStatus: 'NEW',
      expireReason: '',
      triggerTime: 0,
      clientOrderId: 'cond-1',
    });
    first = o.orderId;
    // No margin check and no hold at placement (Binance FAQ): the balance is the same.
    expect(t.ctx.host.engine.balance(users.bob!.userId, 'CONTRACT', 'USDT')).toEqual(before);
    const again = await ok('bob', 'POST', 'placeConditionalOrder', { ...stopSell, clientOrderId: 'cond-1' });
    expect(again.orderId).toBe(first);
    const open = await ok('bob', 'GET', 'getConditionalOrders', { tab: 'open' });
    expect(open.total).toBe(1);
    expect(open.records.map((r: { orderId: string }) => r.orderId)).toEqual([first]);
    // Not among the plain open orders, where it would show as the market order it becomes, without its trigger.
    expect((await ok('bob', 'GET', 'getOrders', { tab: 'unmatched' })).records.map((r: { orderId: string }) => r.orderId)).not.toContain(first);
    // Another user sees none of it, in either tab, and cannot cancel it.
    expect((await ok('alice', 'GET', 'getConditionalOrders', { tab: 'open' })).total).toBe(0);
    expect((await ok('alice', 'GET', 'getConditionalOrders', { tab: 'history' })).total).toBe(0);
    // Another user's placement with the same clientOrderId is her own order, not an answer with Bob's.
    const hers = await ok('alice', 'POST', 'placeConditionalOrder', {
      ...stopSell,
      side: 'BUY',
      stopPrice: '51000',
      reduceOnly: 'false',
      clientOrderId: 'cond-1',
    });
    expect(hers.orderId).not.toBe(first);
    expect(hers).toMatchObject({ side: 'BUY', stopPrice: '51000.00', state: 'PENDING' });
    expect((await ok('alice', 'POST', 'cancelConditionalOrder', { orderId: hers.orderId })).state).toBe('CANCELLED');
    expect((await ok('bob', 'GET', 'getConditionalOrders', { tab: 'history' })).total).toBe(0);
    await refused('alice', 'POST', 'cancelConditionalOrder', { orderId: first }, 'order_not_found', 404);
    expect(t.ctx.host.engine.perpOrder(first)?.status).toBe('NEW');
    // A plain order is not a conditional one: not cancelled through this route.
    const plain = await ok('alice', 'POST', 'placeOrder', { symbol: SYM, side: 'BUY', orderType: 'LIMIT', price: '48900', quantity: '0.020' });
    await refused('alice', 'POST', 'cancelConditionalOrder', { orderId: plain.orderId }, 'order_not_found', 404);
    const cancelled = await ok('bob', 'POST', 'cancelConditionalOrder', { orderId: first });
    expect(cancelled).toMatchObject({ orderId: first, state: 'CANCELLED', orderStatus: 'CANCELED', triggerTime: 0 });
    expect((await ok('bob', 'GET', 'getConditionalOrders', { tab: 'open' })).total).toBe(0);
    const hist = await ok('bob', 'GET', 'getConditionalOrders', { tab: 'history' });
    expect(hist.records).toEqual([expect.objectContaining({ orderId: first, state: 'CANCELLED', stopPrice: '49000.00', workingType: 'MARK_PRICE' })]);
    expect((await refused('bob', 'POST', 'cancelConditionalOrder', { orderId: first }, 'conditional_not_pending')).en).toBe(
      'This conditional order has already triggered or ended: cancel the order it became instead',
    );
    await refused('bob', 'POST', 'cancelConditionalOrder', { orderId: '99999999' }, 'order_not_found', 404);
  });

  it('triggers a MARK_PRICE stop when the mark price reaches it, and shows it triggered with its fill in the history', async () => {
    const o = await ok('bob', 'POST', 'placeConditionalOrder', stopSell);
    expect(o.state).toBe('PENDING');
    // One tick short: the mark at 49,001 does not reach the SELL stop at 49,000.
    expect(await tick(t.ctx.host, px(49_001))).toBe(px(49_001));
    expect(t.ctx.host.engine.perpOrder(o.orderId)?.condition?.workingTs).toBeNull();
    expect((await ok('bob', 'GET', 'getConditionalOrders', { tab: 'open' })).total).toBe(1);
    expect(await tick(t.ctx.host, px(49_000))).toBe(px(49_000));
    // It became a MARKET sell of 0.020 that took Alice's bid at 48,900.
    expect(t.ctx.host.engine.position(users.bob!.userId, SYM)?.size).toBe(40n - 20n);
    expect((await ok('bob', 'GET', 'getConditionalOrders', { tab: 'open' })).total).toBe(0);
    const hist = await ok('bob', 'GET', 'getConditionalOrders', { tab: 'history' });
    expect(hist.total).toBe(2);
    const trig = hist.records[0];
    expect(trig).toMatchObject({
      orderId: o.orderId,
      state: 'TRIGGERED',
      type: 'STOP_MARKET',
      stopPrice: '49000.00',
      workingType: 'MARK_PRICE',
      orderStatus: 'FILLED',
      filledQty: '0.020',
      avgPrice: '48900.00',
      expireReason: '',
    });
    expect(trig.triggerTime).toBeGreaterThan(0);
    // The order it became is the same order number in the plain order list.
    const detail = await ok('bob', 'GET', 'getOrderDetail', { orderId: o.orderId });
    expect(detail).toMatchObject({ status: 'FILLED', avgPrice: '48900.00', reduceOnly: true });
    await refused('bob', 'POST', 'cancelConditionalOrder', { orderId: o.orderId }, 'conditional_not_pending');
  });

  it('triggers a CONTRACT_PRICE close-position stop when a trade moves the last price, and it expires with its reason', async () => {
    // Carol has no position: her BUY close-position stop above the last price (48,900) expires when it triggers.
    const o = await ok('carol', 'POST', 'placeConditionalOrder', {
      symbol: SYM,
      side: 'BUY',
      type: 'STOP_MARKET',
      stopPrice: '49500',
      workingType: 'CONTRACT_PRICE',
      closePosition: 'true',
    });
    expect(o).toMatchObject({ state: 'PENDING', closePosition: true, quantity: '0.000', workingType: 'CONTRACT_PRICE', reduceOnly: false });
    // The mark moves past it: it watches the last price, not the mark.
    await tick(t.ctx.host, px(49_800));
    expect((await ok('carol', 'GET', 'getConditionalOrders', { tab: 'open' })).total).toBe(1);
    // Alice and Bob trade at 49,600: the last price passes the stop.
    await ok('alice', 'POST', 'placeOrder', { symbol: SYM, side: 'SELL', orderType: 'LIMIT', price: '49600', quantity: '0.010' });
    await ok('bob', 'POST', 'placeOrder', { symbol: SYM, side: 'BUY', orderType: 'MARKET', quantity: '0.010' });
    const enHist = await ok('carol', 'GET', 'getConditionalOrders', { tab: 'history' });
    expect(enHist.records).toEqual([
      expect.objectContaining({
        orderId: o.orderId,
        state: 'EXPIRED',
        orderStatus: 'EXPIRED',
        expireReason: 'no_position',
        expireMessage: 'No position',
        stopPrice: '49500.00',
        workingType: 'CONTRACT_PRICE',
      }),
    ]);
    expect(enHist.records[0].triggerTime).toBeGreaterThan(0);
    const zh = await call('carol', 'GET', `${C}/getConditionalOrders`, { tab: 'history' }, 'zh');
    expect(zh.body.result.records[0].expireMessage).toBe('暂无持仓');
    expect(t.ctx.host.engine.position(users.carol!.userId, SYM)).toBeUndefined();
  });

  it('places a trailing stop with its callback rate and lists it for one market only', async () => {
    const o = await ok('carol', 'POST', 'placeConditionalOrder', {
      symbol: SYM,
      side: 'SELL',
      type: 'TRAILING_STOP',
      callbackRate: '1.5',
      activationPrice: '52000',
      lots: '2',
    });
    // 2 lots of 1,000 USDT at the activation price 52,000: 0.038 (rounded down to the step).
    expect(o).toMatchObject({
      type: 'TRAILING_STOP',
      orderType: 'MARKET',
      state: 'PENDING',
      callbackRate: '1.5',
      activationPrice: '52000.00',
      stopPrice: '',
      quantity: '0.038',
    });
    expect(t.ctx.host.engine.perpOrder(o.orderId)?.condition?.callbackRateBps).toBe(150);
    expect((await ok('carol', 'GET', 'getConditionalOrders', { tab: 'open', symbol: SYM })).records.map((r: { orderId: string }) => r.orderId)).toEqual([
      o.orderId,
    ]);
    await refused('carol', 'GET', 'getConditionalOrders', { tab: 'open', symbol: 'NOPE/USDT' }, 'market_not_found');
    expect(await ok('carol', 'POST', 'cancelConditionalOrder', { orderId: o.orderId })).toMatchObject({ state: 'CANCELLED' });
  });
});
