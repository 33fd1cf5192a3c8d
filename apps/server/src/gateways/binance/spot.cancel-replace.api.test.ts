/**
 * POST /api/v3/order/cancelReplace through app.inject() on PGlite, signed with real HMAC keys: both steps succeed (200,
 * the cancel's and the new order's answers, the hold moved from the old order to the new one); STOP_ON_FAILURE with an
 * order that cannot be cancelled (unknown, another user's, a cancel restriction) is 400 -2022 and places nothing;
 * ALLOW_FAILURE then places the new order (409 -2021); a cancel that succeeds before a placement that fails is 409
 * -2021 with the cancel's answer; both failing is 400 -2022; bad parameters and filters are refused before anything is
 * cancelled, and change nothing.
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
type Body = Record<string, unknown> & { code?: number; msg?: string; data?: Record<string, unknown> };

const order = (user: string, params: Record<string, string>) => call(keys[user]!, 'POST', '/api/v3/order', { symbol: 'BTCUSDT', ...params });
const replace = async (user: string, params: Record<string, string>) => {
  const r = await call(keys[user]!, 'POST', '/api/v3/order/cancelReplace', { symbol: 'BTCUSDT', ...params });
  return { status: r.status, body: r.body as Body };
};
const openIds = (user: string) =>
  t.ctx.host.engine
    .openOrders(users[user]!.userId, 'BTC/USDT')
    .map((o) => o.orderId)
    .sort();
const usdtFrozen = (user: string) => t.ctx.host.engine.balance(users[user]!.userId, 'SPOT', 'USDT').frozen;
/** A resting BUY of alice: its orderId. */
async function aliceBuy(price: string, quantity: string, clientOrderId: string): Promise<number> {
  const r = await order('alice', { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity, newClientOrderId: clientOrderId });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body as { orderId: number }).orderId;
}
const newBuy = (price: string, quantity: string, extra: Record<string, string> = {}) => ({
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  price,
  quantity,
  ...extra,
});

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  for (const name of ['alice', 'bob', 'mm']) {
    users[name] = await loginUser(t, `${name}-cr@example.com`);
    keys[name] = await createTestKey(t, users[name].userId);
  }
  const r = await t.ctx.host.submit({ type: 'deposit', userId: users.mm!.userId, asset: 'BTC', account: 'SPOT', amount: pow10(8), from: '@chain' });
  expect(r.code).toBe('ok');
  // a resting ask at 60000: a LIMIT_MAKER BUY at or above it would take
  expect((await order('mm', { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60000', quantity: '0.001' })).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/v3/order/cancelReplace', () => {
  it('cancels the order and places the new one: 200 with both answers; the hold moves to the new order', async () => {
    const id = await aliceBuy('50000', '0.01', 'cr-old');
    const frozenOld = usdtFrozen('alice');
    const r = await replace('alice', {
      cancelReplaceMode: 'STOP_ON_FAILURE',
      cancelOrderId: String(id),
      cancelNewClientOrderId: 'cr-cancel',
      ...newBuy('49000', '0.02', { newClientOrderId: 'cr-new' }),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ cancelResult: 'SUCCESS', newOrderResult: 'SUCCESS' });
    expect(r.body.cancelResponse).toMatchObject({
      orderId: id,
      status: 'CANCELED',
      origClientOrderId: 'cr-old',
      clientOrderId: 'cr-cancel',
      price: '50000.00',
    });
    const placed = r.body.newOrderResponse as { orderId: number };
    expect(placed).toMatchObject({ status: 'NEW', clientOrderId: 'cr-new', price: '49000.00', side: 'BUY', type: 'LIMIT', fills: [] });
    expect(openIds('alice')).toEqual([String(placed.orderId)]);
    // the hold is the new order's: 0.02 x 49000 against 0.01 x 50000 before
    expect(usdtFrozen('alice') * 500n).toBe(frozenOld * 980n);
    // by client order id, with the new order as ACK
    const r2 = await replace('alice', {
      cancelReplaceMode: 'STOP_ON_FAILURE',
      cancelOrigClientOrderId: 'cr-new',
      ...newBuy('48000', '0.01', { newOrderRespType: 'ACK' }),
    });
    expect(r2.status, JSON.stringify(r2.body)).toBe(200);
    expect(r2.body.cancelResponse).toMatchObject({ orderId: placed.orderId, status: 'CANCELED' });
    expect(Object.keys(r2.body.newOrderResponse as object).sort()).toEqual(['clientOrderId', 'orderId', 'orderListId', 'symbol', 'transactTime']);
    await call(keys.alice!, 'DELETE', '/api/v3/openOrders', { symbol: 'BTCUSDT' });
  });

  it('STOP_ON_FAILURE: an order that cannot be cancelled is 400 -2022 and nothing is placed; another user’s order is never touched', async () => {
    const id = await aliceBuy('47000', '0.01', 'cr-a');
    const hash = t.ctx.host.engine.stateHash();
    for (const [user, params] of [
      ['alice', { cancelOrderId: '99999999' }],
      ['bob', { cancelOrderId: String(id) }],
      ['bob', { cancelOrigClientOrderId: 'cr-a' }],
    ] as const) {
      const r = await replace(user, { cancelReplaceMode: 'STOP_ON_FAILURE', ...params, ...newBuy('46000', '0.01') });
      expect([r.status, r.body]).toEqual([
        400,
        {
          code: -2022,
          msg: 'Order cancel-replace failed.',
          data: {
            cancelResult: 'FAILURE',
            newOrderResult: 'NOT_ATTEMPTED',
            cancelResponse: { code: -2011, msg: 'Unknown order sent.' },
            newOrderResponse: null,
          },
        },
      ]);
    }
    // a cancel restriction the order does not meet (it is NEW)
    const rr = await replace('alice', {
      cancelReplaceMode: 'STOP_ON_FAILURE',
      cancelOrderId: String(id),
      cancelRestrictions: 'ONLY_PARTIALLY_FILLED',
      ...newBuy('46000', '0.01'),
    });
    expect(rr.body.data!.cancelResponse).toEqual({ code: -2011, msg: 'Order was not canceled due to cancel restrictions.' });
    expect(t.ctx.host.engine.stateHash()).toBe(hash);
    expect(openIds('alice')).toEqual([String(id)]);
  });

  it('ALLOW_FAILURE: a failed cancel still places the new order (409 -2021); alice’s order stays open when bob names it', async () => {
    const aliceOpen = openIds('alice');
    const r = await replace('bob', {
      cancelReplaceMode: 'ALLOW_FAILURE',
      cancelOrderId: aliceOpen[0]!,
      ...newBuy('45000', '0.01', { newClientOrderId: 'cr-bob' }),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(r.body).toMatchObject({ code: -2021, msg: 'Order cancel-replace partially failed.' });
    expect(r.body.data).toMatchObject({ cancelResult: 'FAILURE', newOrderResult: 'SUCCESS', cancelResponse: { code: -2011, msg: 'Unknown order sent.' } });
    expect(r.body.data!.newOrderResponse).toMatchObject({ status: 'NEW', clientOrderId: 'cr-bob', price: '45000.00' });
    expect(openIds('alice')).toEqual(aliceOpen);
    expect(openIds('bob')).toEqual([String((r.body.data!.newOrderResponse as { orderId: number }).orderId)]);
  });

  it('a cancel that succeeds before a placement that fails is 409 -2021 with the cancel; both failing is 400 -2022', async () => {
    const [id] = openIds('alice');
    const crossing = { side: 'BUY', type: 'LIMIT_MAKER', price: '61000', quantity: '0.001' };
    const r = await replace('alice', { cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: id!, ...crossing });
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(r.body).toMatchObject({ code: -2021, data: { cancelResult: 'SUCCESS', newOrderResult: 'FAILURE' } });
    expect(r.body.data!.cancelResponse).toMatchObject({ orderId: Number(id), status: 'CANCELED' });
    expect(r.body.data!.newOrderResponse).toEqual({ code: -2010, msg: 'Order would immediately match and take.' });
    expect(openIds('alice')).toEqual([]);
    expect(usdtFrozen('alice')).toBe(0n);
    const both = await replace('alice', { cancelReplaceMode: 'ALLOW_FAILURE', cancelOrderId: id!, ...crossing });
    expect([both.status, both.body]).toEqual([
      400,
      {
        code: -2022,
        msg: 'Order cancel-replace failed.',
        data: {
          cancelResult: 'FAILURE',
          newOrderResult: 'FAILURE',
          cancelResponse: { code: -2011, msg: 'Unknown order sent.' },
          newOrderResponse: { code: -2010, msg: 'Order would immediately match and take.' },
        },
      },
    ]);
  });

  it('refuses bad parameters and filter failures before cancelling anything', async () => {
    const id = String(await aliceBuy('44000', '0.01', 'cr-keep'));
    const hash = t.ctx.host.engine.stateHash();
    const base = { cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: id, ...newBuy('43000', '0.01') };
    const cases: Array<[Record<string, string>, number, string?]> = [
      [{ ...base, cancelReplaceMode: '' }, -1102],
      [{ ...base, cancelReplaceMode: 'SOMETIMES' }, -1130],
      [{ ...base, cancelOrderId: '' }, -1102],
      [{ ...base, side: 'UP' }, -1117],
      [{ ...base, price: '43000.001' }, -1111],
      [{ ...base, price: '0.01' }, -2010, 'Filter failure: NOTIONAL'],
      [{ ...base, cancelRestrictions: 'NEVER' }, -1145],
      [{ ...base, orderRateLimitExceededMode: 'CANCEL_ONLY' }, -1130],
      [{ ...base, fooBar: '1' }, -1104],
    ];
    for (const [params, code, msg] of cases) {
      const r = await replace('alice', params);
      expect([r.status, r.body.code, JSON.stringify(params)], JSON.stringify(r.body)).toEqual([400, code, JSON.stringify(params)]);
      if (msg !== undefined) expect(r.body.msg).toContain(msg);
      expect(r.body.data).toBeUndefined();
    }
    expect(t.ctx.host.engine.stateHash()).toBe(hash);
    expect(openIds('alice')).toEqual([id]);
  });
});
