/**
 * POST and DELETE /fapi/v1/batchOrders against the real engine and database (PGlite), signed as a Binance client signs
 * them: a batch answers each order in place (the order as POST /fapi/v1/order answers it, or that order's own Binance
 * error) and places the good ones through the same path (same checks: -1117, -1111, -2019, -1104 per element); a
 * malformed or oversized batch changes nothing; a batch cancel answers each id in place, and another user's order is
 * "Unknown order sent." and stays open; the weights are Binance's (5 and 1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { createTestUserKey, signedCaller, type BinanceAnswer, type TestUserKey } from '../../domains/api-keys/api-keys.test-keys';
import { fundContract, tick } from '../../domains/perp/perp-test-support';
import { parseIdList } from './futures.batch';

let t: TestApp;
const SYM = 'BTC/USDT';
const px = (v: number) => BigInt(v) * 100n;
type Key = TestUserKey;
const keys: Record<'A' | 'B', Key> = {} as never;

type Res = BinanceAnswer;
/** A signed request of `k` (api-keys.test-keys.ts signedCaller). */
const call = signedCaller(() => t);
const rows = (r: Res) => r.body as Array<Record<string, unknown>>;
const batch = (k: Key, orders: unknown[], extra: Record<string, string> = {}) =>
  call(k, 'POST', '/fapi/v1/batchOrders', { batchOrders: JSON.stringify(orders), ...extra });
const limit = (side: string, price: string, quantity: string, extra: Record<string, string> = {}) => ({
  symbol: 'BTCUSDT',
  side,
  type: 'LIMIT',
  timeInForce: 'GTC',
  price,
  quantity,
  ...extra,
});
const openIds = (k: Key) =>
  t.ctx.host.engine
    .perpOpenOrders(k.userId)
    .map((o) => o.orderId)
    .sort();

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  for (const name of ['A', 'B'] as const) {
    keys[name] = await createTestUserKey(t, `fut-batch-${name}@example.com`, { spotTrade: false, futuresTrade: true });
    await fundContract(t.ctx.host, keys[name].userId, 10_000n);
  }
  await t.ctx.host.projected();
  await tick(t.ctx.host, px(50_000), SYM);
});
afterAll(async () => {
  await t?.close();
});

describe('POST /fapi/v1/batchOrders', () => {
  it('answers each order in place: the good ones placed through the order path, the bad ones with their own error', async () => {
    const r = await batch(keys.A, [
      limit('BUY', '49000', '0.01', { newClientOrderId: 'batch-a-1' }),
      limit('UP', '49000', '0.01'),
      limit('BUY', '49000.001', '0.01'),
      limit('SELL', '51000', '0.02', { newClientOrderId: 'batch-a-2' }),
      // 10 BTC at 49000 with 20x needs far more than the 10000 USDT of A's account
      limit('BUY', '49000', '10'),
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const out = rows(r);
    expect(out).toHaveLength(5);
    expect(out[0]).toMatchObject({
      symbol: 'BTCUSDT',
      status: 'NEW',
      side: 'BUY',
      type: 'LIMIT',
      price: '49000.00',
      origQty: '0.01000',
      clientOrderId: 'batch-a-1',
    });
    expect(out[1]).toEqual({ code: -1117, msg: 'Invalid side.' });
    expect(out[2]).toEqual({ code: -1111, msg: "Parameter 'price' has too much precision." });
    expect(out[3]).toMatchObject({ status: 'NEW', side: 'SELL', price: '51000.00', origQty: '0.02000', clientOrderId: 'batch-a-2' });
    expect(out[4]).toEqual({ code: -2019, msg: 'Margin is insufficient.' });
    // Exactly the two good orders are open, each as GET /fapi/v1/order shows it.
    expect(openIds(keys.A)).toEqual([String(out[0]!.orderId), String(out[3]!.orderId)].sort());
    const q = await call(keys.A, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', origClientOrderId: 'batch-a-2' });
    expect(q.body).toMatchObject({ orderId: out[3]!.orderId, price: '51000.00', origQty: '0.02000', status: 'NEW' });
  });

  it('checks each element as POST /fapi/v1/order checks its parameters (-1104 unread, -1100 malformed)', async () => {
    const before = openIds(keys.A);
    const r = await batch(keys.A, [
      limit('BUY', '49000', '0.01', { fooBar: '1' }),
      limit('BUY', '49,000', '0.01'),
      { ...limit('BUY', '49000', '0.01'), quantity: { x: 1 } },
    ]);
    expect(rows(r)).toEqual([
      { code: -1104, msg: "Not all sent parameters were read; read '6' parameter(s) but was sent '7'." },
      { code: -1100, msg: "Illegal characters found in parameter 'price'." },
      { code: -1100, msg: "Illegal characters found in parameter 'quantity'." },
    ]);
    expect(openIds(keys.A)).toEqual(before);
  });

  it('refuses a malformed, empty or oversized batch as a whole and changes nothing; weighs 5', async () => {
    const hash = t.ctx.host.engine.stateHash();
    const six = Array.from({ length: 6 }, () => limit('BUY', '48000', '0.01'));
    const cases: Array<[Record<string, string>, number]> = [
      [{}, -1102],
      [{ batchOrders: '[' + JSON.stringify(limit('BUY', '48000', '0.01')) }, -1100],
      [{ batchOrders: '[1,2]' }, -1130],
      [{ batchOrders: '[]' }, -1130],
      [{ batchOrders: JSON.stringify(six) }, -1130],
      [{ batchOrders: JSON.stringify([limit('BUY', '48000', '0.01')]), fooBar: '1' }, -1104],
    ];
    for (const [params, code] of cases) {
      const r = await call(keys.A, 'POST', '/fapi/v1/batchOrders', params);
      expect([r.status, (r.body as { code: number }).code, JSON.stringify(params)]).toEqual([400, code, JSON.stringify(params)]);
    }
    expect(t.ctx.host.engine.stateHash()).toBe(hash);
    const a = await batch(keys.A, [limit('BUY', '48000', '0.01', { newClientOrderId: 'batch-w' })]);
    const b = await batch(keys.A, [limit('BUY', '48000', '0.01', { newClientOrderId: 'batch-w' })]);
    // the same client order id answers the first order (the idempotent retry), and each request weighs 5
    expect(rows(b)[0]!.orderId).toBe(rows(a)[0]!.orderId);
    expect(b.weight - a.weight).toBe(5);
  });
});

describe('DELETE /fapi/v1/batchOrders', () => {
  it('cancels the caller’s orders, answers -2011 in place for another user’s or an unknown one, which stay open', async () => {
    const mine = rows(await batch(keys.A, [limit('BUY', '47000', '0.01'), limit('BUY', '47100', '0.01', { newClientOrderId: 'batch-c-2' })]));
    const theirs = rows(await batch(keys.B, [limit('BUY', '47200', '0.01', { newClientOrderId: 'batch-c-2' })]));
    const [m1, m2, b1] = [mine[0]!.orderId, mine[1]!.orderId, theirs[0]!.orderId] as number[];
    const frozenBefore = t.ctx.perp.account(keys.A.userId);
    const r = await call(keys.A, 'DELETE', '/fapi/v1/batchOrders', { symbol: 'BTCUSDT', orderIdList: `[${m1},${b1},99999999,${m2}]` });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const out = rows(r);
    expect(out[0]).toMatchObject({ orderId: m1, status: 'CANCELED', price: '47000.00', origQty: '0.01000' });
    expect(out[1]).toEqual({ code: -2011, msg: 'Unknown order sent.' });
    expect(out[2]).toEqual({ code: -2011, msg: 'Unknown order sent.' });
    expect(out[3]).toMatchObject({ orderId: m2, status: 'CANCELED', clientOrderId: 'batch-c-2' });
    expect(openIds(keys.B)).toContain(String(b1));
    expect(openIds(keys.A)).not.toContain(String(m1));
    // the holds of the two cancelled orders went back to A's available balance
    expect(t.ctx.perp.account(keys.A.userId).available).not.toBe(frozenBefore.available);
    // by client id: B's own order with the same client id as A's cancelled one
    const byCid = await call(keys.B, 'DELETE', '/fapi/v1/batchOrders', { symbol: 'BTCUSDT', origClientOrderIdList: '["batch-c-2","nope"]' });
    expect(rows(byCid)[0]).toMatchObject({ orderId: b1, status: 'CANCELED' });
    expect(rows(byCid)[1]).toEqual({ code: -2011, msg: 'Unknown order sent.' });
    // a second cancel of the same order is unknown
    expect(rows(await call(keys.A, 'DELETE', '/fapi/v1/batchOrders', { symbol: 'BTCUSDT', orderIdList: `[${m1}]` }))).toEqual([
      { code: -2011, msg: 'Unknown order sent.' },
    ]);
  });

  it('refuses bad lists as a whole and changes nothing; weighs 1', async () => {
    const hash = t.ctx.host.engine.stateHash();
    const eleven = `[${Array.from({ length: 11 }, (_, i) => i + 1).join(',')}]`;
    const cases: Array<[Record<string, string>, number]> = [
      [{ symbol: 'BTCUSDT' }, -1102],
      [{ symbol: 'BTCUSDT', orderIdList: eleven }, -1130],
      [{ symbol: 'BTCUSDT', orderIdList: '["1"]' }, -1130],
      [{ symbol: 'BTCUSDT', orderIdList: '[1]', origClientOrderIdList: '["x"]' }, -1128],
      [{ symbol: 'BTCUSDT', origClientOrderIdList: '[1]' }, -1130],
      [{ symbol: 'NOPEUSDT', orderIdList: '[1]' }, -1121],
      [{ symbol: 'BTCUSDT', orderIdList: '[1]', fooBar: '1' }, -1104],
    ];
    for (const [params, code] of cases) {
      const r = await call(keys.A, 'DELETE', '/fapi/v1/batchOrders', params);
      expect([r.status, (r.body as { code: number }).code, JSON.stringify(params)]).toEqual([400, code, JSON.stringify(params)]);
    }
    expect(t.ctx.host.engine.stateHash()).toBe(hash);
    const a = await call(keys.A, 'DELETE', '/fapi/v1/batchOrders', { symbol: 'BTCUSDT', orderIdList: '[1]' });
    const b = await call(keys.A, 'DELETE', '/fapi/v1/batchOrders', { symbol: 'BTCUSDT', orderIdList: '[1]' });
    expect(b.weight - a.weight).toBe(1);
  });

  it('parses id lists exactly', () => {
    expect(parseIdList('[ 7, 0012 ,123456789012345678]', 'orderIdList')).toEqual(['7', '12', '123456789012345678']);
    expect(() => parseIdList('[1.5]', 'orderIdList')).toThrow();
    expect(parseIdList('["a-1","b.2"]', 'origClientOrderIdList')).toEqual(['a-1', 'b.2']);
  });
});
