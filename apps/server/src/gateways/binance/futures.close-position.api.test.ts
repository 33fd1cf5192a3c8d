/**
 * closePosition=true on STOP_MARKET through the Binance futures API, to the trigger, against the real engine (PGlite):
 * - POST /fapi/v1/algoOrder places an engine conditional order that closes the whole position: it is an open order
 *   (GET /fapi/v1/openOrders: closePosition true, no quantity) until a mark-price move triggers it, then it fills for the
 *   position's size under the same orderId and the position is 0;
 * - POST /fapi/v1/order's close-position form sets the position's stop loss (orderId 0, not an open order: the
 *   documented difference), and the same kind of move closes the position to 0 as well.
 * The closes fill against a third user's resting bid, so the fills are real trades.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { createTestUserKey, signedCaller, type BinanceAnswer, type TestUserKey } from '../../domains/api-keys/api-keys.test-keys';
import { fundContract, tick } from '../../domains/perp/perp-test-support';

let t: TestApp;
const SYM = 'BTC/USDT';
const px = (v: number) => BigInt(v) * 100n;
type Key = TestUserKey;
const keys: Record<'A' | 'B' | 'C', Key> = {} as never;
type Res = BinanceAnswer;
/** A signed request of `k` (api-keys.test-keys.ts signedCaller). */
const call = signedCaller(() => t);
async function ok(k: Key, method: 'GET' | 'POST' | 'DELETE', path: string, params: Record<string, string>): Promise<Res['body']> {
  const r = await call(k, method, path, { symbol: 'BTCUSDT', ...params });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}
/** A opens 0.01 long: B sells 0.01 at `price`, A buys it at market. */
async function openLong(price: string) {
  await ok(keys.B, 'POST', '/fapi/v1/order', { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price, quantity: '0.01' });
  expect(await ok(keys.A, 'POST', '/fapi/v1/order', { side: 'BUY', type: 'MARKET', quantity: '0.01' })).toMatchObject({
    status: 'FILLED',
    executedQty: '0.01000',
  });
  expect(t.ctx.host.engine.position(keys.A.userId, SYM)).toMatchObject({ side: 'LONG', size: 1000n });
}

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  for (const name of ['A', 'B', 'C'] as const) {
    keys[name] = await createTestUserKey(t, `fut-close-${name}@example.com`, { spotTrade: false, futuresTrade: true });
    await fundContract(t.ctx.host, keys[name].userId, 10_000n);
  }
  await t.ctx.host.projected();
  await tick(t.ctx.host, px(50_000), SYM);
});
afterAll(async () => {
  await t?.close();
});

describe('closePosition=true STOP_MARKET', () => {
  it('through /fapi/v1/algoOrder: an open engine order that closes the whole position at its trigger', async () => {
    await openLong('50000');
    // C's bid takes the closes.
    await ok(keys.C, 'POST', '/fapi/v1/order', { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '47000', quantity: '0.02' });
    const cp = await ok(keys.A, 'POST', '/fapi/v1/algoOrder', {
      algoType: 'CONDITIONAL',
      side: 'SELL',
      type: 'STOP_MARKET',
      triggerPrice: '48000',
      workingType: 'MARK_PRICE',
      closePosition: 'true',
    });
    const id = cp.algoId as number;
    const open = (await ok(keys.A, 'GET', '/fapi/v1/openOrders', {})) as unknown as Array<Record<string, unknown>>;
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      orderId: id,
      type: 'STOP_MARKET',
      origType: 'STOP_MARKET',
      closePosition: true,
      stopPrice: '48000.00',
      side: 'SELL',
      status: 'NEW',
    });
    // above the trigger nothing happens
    await tick(t.ctx.host, px(48_100), SYM);
    expect(t.ctx.host.engine.position(keys.A.userId, SYM)?.size).toBe(1000n);
    await tick(t.ctx.host, px(47_900), SYM);
    expect(t.ctx.host.engine.position(keys.A.userId, SYM)).toBeUndefined();
    expect(await ok(keys.A, 'GET', '/fapi/v1/order', { orderId: String(id) })).toMatchObject({
      orderId: id,
      status: 'FILLED',
      executedQty: '0.01000',
      closePosition: true,
      origType: 'STOP_MARKET',
    });
    expect(await ok(keys.A, 'GET', '/fapi/v1/openOrders', {})).toEqual([]);
    // C bought the 0.01 A sold: C is long 0.01, B (the other side of A's open) still short 0.01.
    expect(t.ctx.host.engine.position(keys.C.userId, SYM)).toMatchObject({ side: 'LONG', size: 1000n });
    expect(t.ctx.host.engine.position(keys.B.userId, SYM)).toMatchObject({ side: 'SHORT', size: 1000n });
  });

  it('through /fapi/v1/order: the position stop loss (not an open order) closes the whole position at its trigger', async () => {
    await openLong('48000');
    const sl = await ok(keys.A, 'POST', '/fapi/v1/order', { side: 'SELL', type: 'STOP_MARKET', stopPrice: '47500', closePosition: 'true' });
    expect(sl).toMatchObject({ orderId: 0, type: 'STOP_MARKET', closePosition: true, stopPrice: '47500.00', status: 'NEW' });
    expect(await ok(keys.A, 'GET', '/fapi/v1/openOrders', {})).toEqual([]);
    expect(t.ctx.host.engine.position(keys.A.userId, SYM)!.stopLoss).toBe(px(47_500));
    await tick(t.ctx.host, px(47_400), SYM);
    expect(t.ctx.host.engine.position(keys.A.userId, SYM)).toBeUndefined();
    // the close is an order of type STOP_MARKET with closePosition in allOrders
    await t.ctx.host.projected();
    const all = (await ok(keys.A, 'GET', '/fapi/v1/allOrders', {})) as unknown as Array<Record<string, unknown>>;
    expect(all.at(-1)).toMatchObject({ type: 'STOP_MARKET', closePosition: true, status: 'FILLED', executedQty: '0.01000', side: 'SELL' });
  });
});
