/**
 * Stock CCXT 4.5.84 (its binance class unchanged, only the URLs pointed here) over the batch and replace routes, on a
 * real server port with a real HMAC key (spot and futures trading): on the USDT perpetual `createOrders` (POST
 * /fapi/v1/batchOrders, its JSON list sent raw in the form body) places both orders, `cancelOrders` (DELETE
 * /fapi/v1/batchOrders with CCXT's lower-case `orderidlist`) and by client ids (`origclientorderidlist`) cancels them;
 * `editOrder` on the perpetual modifies the order in place under its id (PUT /fapi/v1/order); on spot `editOrder`
 * goes through POST /api/v3/order/cancelReplace: the old order is cancelled and the new one open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { binanceUrls } from '../../../test/ccxt/ccxt-urls';
import { keyServiceWithoutSecondFactor } from './binance.test-scope';
import { fundContract, tick } from '../../domains/perp/perp-test-support';

const PORT = 8147;
const PERP = 'BTC/USDT:USDT';
let t: TestApp;
let ex: InstanceType<typeof ccxt.binance>;
let userId = '';
const openPerp = () =>
  t.ctx.host.engine
    .perpOpenOrders(userId, 'BTC/USDT')
    .map((o) => o.orderId)
    .sort();

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  await t.app.listen({ port: PORT, host: '127.0.0.1' });
  userId = (await t.ctx.members.ensureEmailUser('batch-ccxt@example.com', 'secret-pass-1', '')).userId;
  await fundContract(t.ctx.host, userId, 10_000n);
  const c = await keyServiceWithoutSecondFactor(t.ctx).create(
    userId,
    { label: 'ccxt', keyType: 'HMAC_SHA256', spotTrade: true, futuresTrade: true },
    { ip: '127.0.0.1', userAgent: 'test' },
  );
  ex = new ccxt.binance({ apiKey: c.key.apiKey, secret: c.secretKey!, urls: binanceUrls(`http://127.0.0.1:${PORT}`) });
  await tick(t.ctx.host, 5_000_000n, 'BTC/USDT');
  await ex.loadMarkets();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('CCXT batch orders and order edits', () => {
  it('createOrders and cancelOrders on the perpetual', async () => {
    const placed = await ex.createOrders([
      { symbol: PERP, type: 'limit', side: 'buy', amount: 0.01, price: 49000 },
      { symbol: PERP, type: 'limit', side: 'sell', amount: 0.02, price: 51000, params: { clientOrderId: 'ccxt-batch-2' } },
    ]);
    expect(placed.map((o) => [o.status, o.side, o.price, o.amount])).toEqual([
      ['open', 'buy', 49000, 0.01],
      ['open', 'sell', 51000, 0.02],
    ]);
    expect(placed[1]!.clientOrderId).toBe('ccxt-batch-2');
    expect(openPerp()).toEqual(placed.map((o) => o.id!).sort());
    const cancelled = await ex.cancelOrders(
      placed.map((o) => o.id!),
      PERP,
    );
    expect(cancelled.map((o) => [o.id, o.status])).toEqual(placed.map((o) => [o.id, 'canceled']));
    expect(openPerp()).toEqual([]);

    const again = await ex.createOrders([{ symbol: PERP, type: 'limit', side: 'buy', amount: 0.01, price: 48000, params: { clientOrderId: 'ccxt-batch-3' } }]);
    const byCid = await ex.cancelOrders([], PERP, { origClientOrderIdList: ['ccxt-batch-3'] });
    expect(byCid.map((o) => [o.id, o.status])).toEqual([[again[0]!.id, 'canceled']]);
  });

  it('editOrder on the perpetual modifies the order in place (PUT /fapi/v1/order): same id, new price and amount', async () => {
    const [o] = await ex.createOrders([{ symbol: PERP, type: 'limit', side: 'buy', amount: 0.01, price: 49000 }]);
    const edited = await ex.editOrder(o!.id!, PERP, 'limit', 'buy', 0.02, 49500);
    expect(edited).toMatchObject({ id: o!.id, status: 'open', price: 49500, amount: 0.02, filled: 0 });
    expect(t.ctx.host.engine.perpOrder(o!.id!)).toMatchObject({ status: 'NEW', price: 4_950_000n, quantity: 2000n });
    await ex.cancelOrder(o!.id!, PERP);
  });

  it('editOrder on spot cancels the order and places the new one (order/cancelReplace)', async () => {
    const first = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50000, { clientOrderId: 'ccxt-edit-1' });
    expect(first.status).toBe('open');
    const edited = await ex.editOrder(first.id!, 'BTC/USDT', 'limit', 'buy', 0.002, 49000);
    expect(edited).toMatchObject({ status: 'open', side: 'buy', price: 49000, amount: 0.002, filled: 0 });
    expect(edited.id).not.toBe(first.id);
    expect((await ex.fetchOrder(first.id!, 'BTC/USDT')).status).toBe('canceled');
    expect((await ex.fetchOpenOrders('BTC/USDT')).map((o) => o.id)).toEqual([edited.id]);
  });
});
