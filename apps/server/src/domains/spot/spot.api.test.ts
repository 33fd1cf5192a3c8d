/**
 * API test of spot trading through app.inject() (PGlite by default; PostgreSQL when DATABASE_URL is set):
 * two users (created through the member service, logged in over HTTP, credited by the demo faucet) trade on a
 * test market TSTA/USDT; we check order states, exact balances to the smallest unit, fees, history, fills,
 * clientOrderId retries, that another user's order can be neither read nor cancelled, and bad inputs.
 * Expected amounts are computed with bigint from the engine's scales, so a seeded USDT of any scale works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDecimal, pow10 } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { ensureMarket } from '../../platform/engine-host/test-fixtures';
import { apiCaller, loginUser, testMarket, type TestUser } from './spot-test-support';

const MARKET = testMarket('TSTA');

let t: TestApp;
let usdtScale: number;
let base: number;
const users: Record<string, TestUser> = {};
const call = apiCaller(() => t, users);

function usdt(whole: bigint, frac = 0n, fracDigits = 0): bigint {
  return whole * pow10(usdtScale) + frac * pow10(usdtScale - fracDigits);
}

function bal(user: string, coin: string): { available: bigint; frozen: bigint } {
  return t.ctx.host.engine.balance(users[user]!.userId, 'SPOT', coin);
}

beforeAll(async () => {
  t = await makeTestApp();
  await ensureMarket(t.ctx.host, MARKET);
  usdtScale = t.ctx.host.engine.asset('USDT')!.scale;
  base = t.ctx.host.engine.asset('TSTA')!.scale;
  users.alice = await loginUser(t, 'alice@example.com');
  users.bob = await loginUser(t, 'bob@example.com');
  const r = await t.ctx.host.submit({ type: 'deposit', userId: users.alice.userId, asset: 'TSTA', account: 'SPOT', amount: 5n * pow10(base), from: '@chain' });
  expect(r.code).toBe('ok');
});
afterAll(async () => {
  await t?.close();
});

describe('spot trading API', () => {
  it('credits the demo faucet once and reports the four accounts', async () => {
    const { body } = await call('bob', 'GET', 'asset/asset/getAssets');
    expect(body.status).toBe('SUCCEED');
    expect(body.result.accounts.map((a: { type: string }) => a.type)).toEqual(['ASSETS', 'SPOT', 'CONTRACT', 'OTC']);
    const spot = body.result.accounts[1];
    const item = spot.items.find((i: { coin: string }) => i.coin === 'USDT');
    expect(item).toMatchObject({
      available: formatDecimal(usdt(10_000n), usdtScale),
      frozen: formatDecimal(0n, usdtScale),
      current: formatDecimal(usdt(10_000n), usdtScale),
    });
    expect(item.convertedCny).toBe('71000.00');
    expect(body.result.accounts[0].items.length).toBe(t.ctx.host.engine.assets().length);
    // The hook again (e.g. a retried registration) credits nothing more.
    for (const h of t.ctx.hooks.userRegistered) await h(users.bob!.userId);
    expect(bal('bob', 'USDT').available).toBe(usdt(10_000n));
  });

  let sellId = '';
  it('places, fills at the maker price, settles exactly and charges fees', async () => {
    const sell = await call('alice', 'POST', 'entrust/entrust/setEntrust', {
      pairsName: 'TSTA/USDT',
      side: 'SELL',
      orderType: 'LIMIT',
      price: '100.50',
      amount: '2',
      clientOrderId: 'alice-1',
    });
    expect(sell.body.status).toBe('SUCCEED');
    expect(sell.body.result).toMatchObject({ status: 'NEW', price: '100.50', amount: '2.0000', dealAmount: '0.0000', clientOrderId: 'alice-1' });
    sellId = sell.body.result.id;
    // A retry with the same clientOrderId returns the first order, not a second one.
    const retry = await call('alice', 'POST', 'entrust/entrust/setEntrust', {
      pairsName: 'TSTA/USDT',
      side: 'SELL',
      orderType: 'LIMIT',
      price: '100.50',
      amount: '2',
      clientOrderId: 'alice-1',
    });
    expect(retry.body.result.id).toBe(sellId);
    expect(bal('alice', 'TSTA')).toEqual({ available: 3n * pow10(base), frozen: 2n * pow10(base) });

    const buy = await call('bob', 'POST', 'entrust/entrust/setEntrust', {
      pairsName: 'TSTA/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      price: '101.00',
      amount: '1.5',
    });
    expect(buy.body.status).toBe('SUCCEED');
    expect(buy.body.result).toMatchObject({
      status: 'FILLED',
      dealAmount: '1.5000',
      dealTotal: formatDecimal(usdt(150n, 75n, 2), usdtScale),
      avgPrice: '100.50',
      feeCur: 'TSTA',
    });

    // bob paid 1.5 x 100.50 = 150.75 USDT and got 1.5 TSTA minus the 0.1% taker fee 0.0015.
    expect(bal('bob', 'USDT')).toEqual({ available: usdt(10_000n) - usdt(150n, 75n, 2), frozen: 0n });
    expect(bal('bob', 'TSTA')).toEqual({ available: 15n * pow10(base - 1) - 15n * pow10(base - 4), frozen: 0n });
    // alice got 150.75 USDT minus the 0.1% maker fee 0.15075.
    expect(bal('alice', 'USDT').available).toBe(usdt(10_000n) + usdt(150n, 75n, 2) - usdt(0n, 15075n, 5));
    expect(bal('alice', 'TSTA')).toEqual({ available: 3n * pow10(base), frozen: 5n * pow10(base - 1) });
    expect([...t.ctx.host.engine.assetTotals().values()].every((v) => v === 0n)).toBe(true);
  });

  it('does not let another user read or cancel an order', async () => {
    const read = await call('bob', 'GET', 'entrust/entrust/getEntrustDetail', { id: sellId });
    expect(read.status).toBe(404);
    expect(read.body).toMatchObject({ status: 'FAILED', errorCode: 'order_not_found' });
    const cancel = await call('bob', 'POST', 'entrust/entrust/cancelEntrust', { id: sellId });
    expect(cancel.status).toBe(404);
    expect(cancel.body.errorCode).toBe('order_not_found');
    expect(t.ctx.host.engine.order(sellId)?.status).toBe('PARTIALLY_FILLED');
    const anon = await call(null, 'GET', 'entrust/entrust/getEntrustList', { type: 'current' });
    expect(anon.status).toBe(401);
  });

  it('lists open orders, cancels by clientOrderId, and shows history with fills', async () => {
    const open = await call('alice', 'GET', 'entrust/entrust/getEntrustList', { type: 'current', pairsName: 'TSTA/USDT' });
    expect(open.body.result).toMatchObject({ total: 1, page: 1, pageSize: 20 });
    expect(open.body.result.records[0]).toMatchObject({ id: sellId, status: 'PARTIALLY_FILLED', dealAmount: '1.5000' });

    const cancel = await call('alice', 'POST', 'entrust/entrust/cancelEntrust', { clientOrderId: 'alice-1' });
    expect(cancel.body.result).toMatchObject({ id: sellId, status: 'CANCELED' });
    expect(bal('alice', 'TSTA')).toEqual({ available: 35n * pow10(base - 1), frozen: 0n });
    const again = await call('alice', 'POST', 'entrust/entrust/cancelEntrust', { id: sellId });
    expect(again.body.errorCode).toBe('order_not_found');

    const history = await call('alice', 'GET', 'entrust/entrust/getEntrustList', { type: 'history' });
    expect(history.body.result.total).toBe(1);
    expect(history.body.result.records[0]).toMatchObject({
      id: sellId,
      status: 'CANCELED',
      dealAmount: '1.5000',
      fee: formatDecimal(usdt(0n, 15075n, 5), usdtScale),
      feeCur: 'USDT',
    });
    const bobHistory = await call('bob', 'GET', 'entrust/entrust/getEntrustList', { type: 'history', pairsName: 'TSTA/USDT' });
    expect(bobHistory.body.result.records.map((r: { status: string }) => r.status)).toEqual(['FILLED']);

    const detail = await call('alice', 'GET', 'entrust/entrust/getEntrustDetail', { id: sellId });
    expect(detail.body.result.fills).toEqual([
      expect.objectContaining({
        price: '100.50',
        amount: '1.5000',
        total: formatDecimal(usdt(150n, 75n, 2), usdtScale),
        role: 'MAKER',
        feeCur: 'USDT',
        fee: formatDecimal(usdt(0n, 15075n, 5), usdtScale),
      }),
    ]);
    const bobOrder = bobHistory.body.result.records[0].id;
    const bobDetail = await call('bob', 'GET', 'entrust/entrust/getEntrustDetail', { id: bobOrder });
    expect(bobDetail.body.result.fills[0]).toMatchObject({ role: 'TAKER', fee: formatDecimal(15n * pow10(base - 4), base), feeCur: 'TSTA' });
  });

  it('fills a MARKET BUY by total (quote amount)', async () => {
    await call('alice', 'POST', 'entrust/entrust/setEntrust', { pairsName: 'TSTA/USDT', side: 'SELL', orderType: 'LIMIT', price: '100', amount: '1' });
    const before = bal('bob', 'USDT').available;
    const buy = await call('bob', 'POST', 'entrust/entrust/setEntrust', { pairsName: 'TSTA/USDT', side: 'BUY', orderType: 'MARKET', total: '50' });
    expect(buy.body.result).toMatchObject({ status: 'FILLED', dealAmount: '0.5000', total: formatDecimal(usdt(50n), usdtScale), price: '' });
    expect(bal('bob', 'USDT').available).toBe(before - usdt(50n));
  });

  it('rejects bad orders with a clear code in both languages and changes nothing', async () => {
    const before = t.ctx.host.engine.stateHash();
    // [fields, HTTP status, errorCode, en message when it names a field or a value]
    const cases: Array<[Record<string, string>, number, string, string?]> = [
      [{ price: '100.123', amount: '1' }, 400, 'too_many_decimals', 'The price must be a multiple of 0.01 USDT'],
      [{ price: '100', amount: '1.00001' }, 400, 'too_many_decimals', 'The amount must be a multiple of 0.0001 TSTA'],
      [{ price: '100', amount: '999999999999999999999999999999' }, 400, 'value_too_large', 'The amount is too large'],
      [{ price: '100', amount: '1e308' }, 400, 'validation_failed'],
      [{ price: 'NaN', amount: '1' }, 400, 'validation_failed'],
      [{ price: '-1', amount: '1' }, 400, 'validation_failed'],
      [{ amount: '1' }, 400, 'price_required', 'Please enter a price'],
      [{ price: '100' }, 400, 'quantity_required', 'Please enter an amount'],
      [{ price: '0', amount: '1' }, 400, 'price_not_on_tick', 'Price must be a multiple of 0.01 USDT'],
      [{ price: '100', amount: '0' }, 400, 'quantity_below_minimum', 'Minimum amount is 0.0001 TSTA'],
      [{ price: '100', amount: '1000' }, 400, 'insufficient_balance', 'Insufficient balance'],
      [{ orderType: 'MARKET', amount: '1', total: '5' }, 400, 'invalid_order', 'Invalid order parameters: total'],
      [{ orderType: 'STOP', price: '1', amount: '1' }, 400, 'validation_failed', 'Invalid request parameters: order type'],
      [{ pairsName: 'NOPE/USDT', price: '1', amount: '1' }, 400, 'market_not_found', 'Trading pair not found'],
    ];
    for (const [fields, status, code, message] of cases) {
      const data = { pairsName: 'TSTA/USDT', side: 'BUY', orderType: 'LIMIT', ...fields };
      const en = await call('bob', 'POST', 'entrust/entrust/setEntrust', data, 'en');
      expect([en.status, en.body.status, en.body.errorCode], JSON.stringify(fields)).toEqual([status, 'FAILED', code]);
      if (message) expect(en.body.errorMessage, JSON.stringify(fields)).toBe(message);
      // Never a wire name in brackets, in either language.
      expect(en.body.errorMessage).not.toMatch(/\(|（/);
      const zh = await call('bob', 'POST', 'entrust/entrust/setEntrust', data, 'zh');
      expect(zh.body.errorMessage).not.toBe(en.body.errorMessage);
      expect(zh.body.errorMessage).not.toMatch(/\(|（|[a-z]{4,}/);
    }
    expect(t.ctx.host.engine.stateHash()).toBe(before);
  });
  it('names the market minimum order value, minimum amount and step in its rejections (en and zh)', async () => {
    // TSTA/USDC: minimum order value 5 USDC, step 0.0010 TSTA, minimum 0.0020 TSTA.
    await ensureMarket(t.ctx.host, { ...MARKET, symbol: 'TSTA/USDC', quote: 'USDC', stepSize: 10n, minQty: 20n, minNotional: 5n * pow10(8) });
    const before = t.ctx.host.engine.stateHash();
    const order = (fields: Record<string, string>) => ({ pairsName: 'TSTA/USDC', side: 'SELL', orderType: 'LIMIT', ...fields });
    const cases: Array<[Record<string, string>, string, string, string]> = [
      [{ price: '100', amount: '0.0100' }, 'notional_below_minimum', 'Minimum order value is 5 USDC', '最小下单金额为 5 USDC'],
      [{ price: '100', amount: '0.0015' }, 'quantity_not_on_step', 'Amount must be a multiple of 0.001 TSTA', '数量须为 0.001 TSTA 的整数倍'],
      [{ price: '100', amount: '0.0010' }, 'quantity_below_minimum', 'Minimum amount is 0.002 TSTA', '最小下单数量为 0.002 TSTA'],
      [{ price: '100', amount: '0.00001' }, 'too_many_decimals', 'The amount must be a multiple of 0.001 TSTA', '数量须为 0.001 TSTA 的整数倍'],
    ];
    for (const [fields, code, enText, zhText] of cases) {
      const en = await call('alice', 'POST', 'entrust/entrust/setEntrust', order(fields), 'en');
      expect([en.status, en.body], JSON.stringify(fields)).toEqual([400, { status: 'FAILED', errorCode: code, errorMessage: enText, result: null }]);
      const zh = await call('alice', 'POST', 'entrust/entrust/setEntrust', order(fields), 'zh');
      expect(zh.body.errorMessage).toBe(zhText);
    }
    // Errors without values still reach the app's handler through the module's one.
    const unauth = await call(null, 'POST', 'entrust/entrust/setEntrust', order({ price: '100', amount: '1' }));
    expect(unauth.status).toBe(401);
    expect(t.ctx.host.engine.stateHash()).toBe(before);
  });
  it('answers a clientOrderId retry from the database after the engine has dropped the ended order', async () => {
    const first = await call('bob', 'POST', 'entrust/entrust/setEntrust', {
      pairsName: 'TSTA/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'IOC',
      price: '1.00',
      amount: '1',
      clientOrderId: 'bob-ioc-evicted',
    });
    expect(first.body.result).toMatchObject({ status: 'EXPIRED', clientOrderId: 'bob-ioc-evicted' });
    const id: string = first.body.result.id;
    // Push the order out of the engine's window of retained ended orders (1,000 by default).
    const filler = Array.from({ length: 1_100 }, () =>
      t.ctx.host.submit({
        type: 'placeOrder',
        userId: users.bob!.userId,
        symbol: 'TSTA/USDT',
        side: 'BUY',
        orderType: 'LIMIT',
        timeInForce: 'IOC',
        price: 100n,
        quantity: 1n,
      }),
    );
    expect((await Promise.all(filler)).every((r) => r.code === 'ok')).toBe(true);
    expect(t.ctx.host.engine.order(id)).toBeUndefined();
    const hash = t.ctx.host.engine.stateHash();
    const retry = await call('bob', 'POST', 'entrust/entrust/setEntrust', {
      pairsName: 'TSTA/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'IOC',
      price: '1.00',
      amount: '1',
      clientOrderId: 'bob-ioc-evicted',
    });
    expect(retry.status).toBe(200);
    expect(retry.body.result).toMatchObject({ id, status: 'EXPIRED', clientOrderId: 'bob-ioc-evicted', price: '1.00' });
    expect(t.ctx.host.engine.stateHash()).toBe(hash);
  });
});
