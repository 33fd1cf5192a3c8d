/**
 * PUT /fapi/v1/order (Binance USDⓈ-M "Modify Order") against the real engine and database (PGlite), signed as a
 * Binance client signs it: the order keeps its orderId and gets the new price and quantity, holding what a new order of
 * those terms holds (another user placing them holds the same); by origClientOrderId too; the same terms are -5027; at
 * a crossing price it fills like a taker and rests with the rest, and a quantity at the filled part cancels it; another
 * user's order is -2013 and unchanged, an ended one -2011; every bad input changes nothing (state hash).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { createTestUserKey, signedCaller, type TestUserKey } from '../../domains/api-keys/api-keys.test-keys';
import { fundContract, tick } from '../../domains/perp/perp-test-support';

let t: TestApp;
const SYM = 'BTC/USDT';
const px = (v: number) => BigInt(v) * 100n;
type Key = TestUserKey;
const keys: Record<'A' | 'B', Key> = {} as never;
/** A signed request of `k` (api-keys.test-keys.ts signedCaller). */
const call = signedCaller(() => t);
const place = async (k: Key, params: Record<string, string>) => {
  const r = await call(k, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', type: 'LIMIT', timeInForce: 'GTC', ...params });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};
const modify = (k: Key, params: Record<string, string>) => call(k, 'PUT', '/fapi/v1/order', { symbol: 'BTCUSDT', ...params });

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  for (const name of ['A', 'B'] as const) {
    keys[name] = await createTestUserKey(t, `fut-modify-${name}@example.com`, { spotTrade: false, futuresTrade: true });
    await fundContract(t.ctx.host, keys[name].userId, 10_000n);
  }
  await t.ctx.host.projected();
  await tick(t.ctx.host, px(50_000), SYM);
});
afterAll(async () => {
  await t?.close();
});

describe('PUT /fapi/v1/order', () => {
  it('modifies the order in place: same orderId, new price and quantity, the hold of a new order of those terms', async () => {
    const a = await place(keys.A, { side: 'BUY', price: '49000', quantity: '0.01', newClientOrderId: 'mod-1' });
    const r = await modify(keys.A, { orderId: String(a.orderId), side: 'BUY', price: '48500', quantity: '0.02' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      orderId: a.orderId,
      clientOrderId: 'mod-1',
      status: 'NEW',
      type: 'LIMIT',
      side: 'BUY',
      price: '48500.00',
      origQty: '0.02000',
      executedQty: '0.00000',
    });
    expect((await call(keys.A, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(a.orderId) })).body).toMatchObject({
      price: '48500.00',
      origQty: '0.02000',
      status: 'NEW',
    });
    const b = await place(keys.B, { side: 'BUY', price: '48500', quantity: '0.02' });
    expect(t.ctx.perp.account(keys.A.userId).availableBalance).toBe(t.ctx.perp.account(keys.B.userId).availableBalance);
    await call(keys.B, 'DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(b.orderId) });
    // by client order id; the same terms again (in any spelling) are -5027
    const byCid = await modify(keys.A, { origClientOrderId: 'mod-1', side: 'BUY', price: '48600', quantity: '0.02' });
    expect(byCid.body).toMatchObject({ orderId: a.orderId, price: '48600.00' });
    for (const same of [
      { price: '48600', quantity: '0.02' },
      { price: '48600.0', quantity: '0.020' },
    ]) {
      expect((await modify(keys.A, { orderId: String(a.orderId), side: 'BUY', ...same })).body).toEqual({ code: -5027, msg: 'No need to modify the order.' });
    }
  });

  it('another user cannot modify the order; bad inputs are refused and change nothing', async () => {
    const [open] = t.ctx.host.engine.perpOpenOrders(keys.A.userId);
    const id = open!.orderId;
    const hash = t.ctx.host.engine.stateHash();
    const base = { orderId: id, side: 'BUY', price: '48700', quantity: '0.02' };
    const cases: Array<[Key, Record<string, string>, number]> = [
      [keys.B, base, -2013],
      [keys.B, { ...base, orderId: '', origClientOrderId: 'mod-1' }, -2013],
      [keys.A, { ...base, orderId: '99999999' }, -2013],
      [keys.A, { ...base, orderId: '' }, -1102],
      [keys.A, { ...base, side: '' }, -1102],
      [keys.A, { ...base, price: '' }, -1102],
      [keys.A, { ...base, quantity: '' }, -1102],
      [keys.A, { ...base, side: 'UP' }, -1117],
      [keys.A, { ...base, side: 'SELL' }, -1130],
      [keys.A, { ...base, quantity: '0' }, -4003],
      [keys.A, { ...base, price: '48700.001' }, -1111],
      [keys.A, { ...base, price: '80000' }, -4016],
      [keys.A, { ...base, quantity: '8' }, -2019],
      [keys.A, { ...base, priceMatch: 'QUEUE' }, -1106],
      [keys.A, { ...base, fooBar: '1' }, -1104],
    ];
    for (const [k, params, code] of cases) {
      const r = await modify(k, params);
      expect([r.status, r.body.code, JSON.stringify(params)], JSON.stringify(r.body)).toEqual([400, code, JSON.stringify(params)]);
    }
    expect(t.ctx.host.engine.stateHash()).toBe(hash);
    expect(t.ctx.host.engine.perpOrder(id)).toMatchObject({ price: px(48_600), quantity: 2000n, status: 'NEW' });
  });

  it('at a crossing price fills like a taker and rests with the rest; a quantity at the filled part cancels; an ended order is -2011', async () => {
    const [open] = t.ctx.host.engine.perpOpenOrders(keys.A.userId);
    const id = open!.orderId;
    await place(keys.B, { side: 'SELL', price: '50000', quantity: '0.01' });
    const r = await modify(keys.A, { orderId: id, side: 'BUY', price: '50000', quantity: '0.02' });
    expect(r.body).toMatchObject({ orderId: Number(id), status: 'PARTIALLY_FILLED', executedQty: '0.01000', origQty: '0.02000', price: '50000.00' });
    expect(t.ctx.host.engine.position(keys.A.userId, SYM)).toMatchObject({ side: 'LONG', size: 1000n });
    const c = await modify(keys.A, { orderId: id, side: 'BUY', price: '50000', quantity: '0.01' });
    expect(c.body).toMatchObject({ orderId: Number(id), status: 'CANCELED', executedQty: '0.01000' });
    expect(t.ctx.host.engine.perpOpenOrders(keys.A.userId)).toEqual([]);
    expect((await modify(keys.A, { orderId: id, side: 'BUY', price: '49000', quantity: '0.02' })).body).toEqual({ code: -2011, msg: 'Unknown order sent.' });
  });
  it('PUT /fapi/v1/batchOrders modifies each order in place and answers each failure in place', async () => {
    const a = await place(keys.A, { side: 'BUY', price: '47000', quantity: '0.01' });
    const b = await place(keys.B, { side: 'BUY', price: '47000', quantity: '0.01' });
    const batch = JSON.stringify([
      { symbol: 'BTCUSDT', orderId: a.orderId, side: 'BUY', price: '47100', quantity: '0.03' },
      { symbol: 'BTCUSDT', orderId: b.orderId, side: 'BUY', price: '47100', quantity: '0.03' },
      { symbol: 'BTCUSDT', orderId: a.orderId, side: 'BUY', price: '47100', quantity: '0.03' },
    ]);
    const r = await call(keys.A, 'PUT', '/fapi/v1/batchOrders', { batchOrders: batch });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const out = r.body as unknown as Array<Record<string, unknown>>;
    expect(out[0]).toMatchObject({ orderId: a.orderId, price: '47100.00', origQty: '0.03000', status: 'NEW' });
    expect(out.slice(1)).toEqual([
      { code: -2013, msg: 'Order does not exist.' },
      { code: -5027, msg: 'No need to modify the order.' },
    ]);
    expect(t.ctx.host.engine.perpOrder(String(b.orderId))).toMatchObject({ price: px(47_000), quantity: 1000n });
  });
});
