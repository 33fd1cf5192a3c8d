/**
 * A signed request carrying a parameter its route does not read is refused with Binance's -1104 ("Not all sent
 * parameters were read; ...") on spot and futures, orders, cancels and queries alike, and nothing is placed or
 * cancelled; the same requests without the extra parameter pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pow10 } from '@exchange/core';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { createApiKeyService } from '../../domains/api-keys/api-keys.service';
import type { SecurityService } from '../../domains/security/security.service';
import { secretBoxFromConfig } from '../../platform/shared/secret-box';
import { fundContract, tick } from '../../domains/perp/perp-test-support';
import { hmacHex, queryOf, registerEngineUser } from './binance.test-scope';

let t: TestApp;
let key = { apiKey: '', secret: '' };
let userId = '';
const noSecondFactor = { verifySecondFactor: async () => {}, recordSecurityEvent: async () => {} } as unknown as SecurityService;

type Res = { status: number; body: { code?: number; msg?: string; orderId?: number } };
/** A signed request: parameters in the query string (GET, DELETE) or the form body (POST), timestamp added. */
async function call(method: 'GET' | 'POST' | 'DELETE', path: string, params: Record<string, string> = {}): Promise<Res> {
  const q = queryOf({ ...params, timestamp: t.ctx.clock.now() });
  const signed = `${q}&signature=${hmacHex(key.secret, q)}`;
  const r =
    method === 'POST'
      ? await t.app.inject({ method, url: path, payload: signed, headers: { 'x-mbx-apikey': key.apiKey, 'content-type': 'application/x-www-form-urlencoded' } })
      : await t.app.inject({ method, url: `${path}?${signed}`, headers: { 'x-mbx-apikey': key.apiKey } });
  return { status: r.statusCode, body: r.json() };
}
const unread = (read: number, sent: number) => ({ code: -1104, msg: `Not all sent parameters were read; read '${read}' parameter(s) but was sent '${sent}'.` });

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  userId = await registerEngineUser(t.ctx, 'params-read@example.com');
  const r = await t.ctx.host.submit({ type: 'deposit', userId, asset: 'USDT', account: 'SPOT', amount: 10_000n * pow10(8), from: '@chain' });
  expect(r.code).toBe('ok');
  await fundContract(t.ctx.host, userId, 10_000n);
  await tick(t.ctx.host, 5_000_000n, 'BTC/USDT');
  const svc = createApiKeyService({
    db: t.ctx.db,
    host: t.ctx.host,
    box: secretBoxFromConfig(t.ctx.config),
    security: () => noSecondFactor,
    log: t.ctx.log,
    now: t.ctx.clock.now,
    cacheMs: 0,
  });
  const c = await svc.create(userId, { label: 'p', keyType: 'HMAC_SHA256', spotTrade: true, futuresTrade: true }, { ip: '127.0.0.1', userAgent: 'test' });
  key = { apiKey: c.key.apiKey, secret: c.secretKey! };
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const SPOT_ORDER = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '1000', quantity: '0.01' };
const FUT_ORDER = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '40000', quantity: '0.01' };

describe('-1104 for a parameter the route does not read', () => {
  it('spot: an order with fooBar=1 is refused and places nothing; without it, it is placed', async () => {
    const openBefore = t.ctx.host.engine.openOrders(userId).length;
    const r = await call('POST', '/api/v3/order', { ...SPOT_ORDER, fooBar: '1' });
    expect(r.status).toBe(400);
    // read: the 6 order parameters, timestamp and signature; sent: those and fooBar
    expect(r.body).toEqual(unread(8, 9));
    expect(t.ctx.host.engine.openOrders(userId).length).toBe(openBefore);
    const ok = await call('POST', '/api/v3/order', { ...SPOT_ORDER, newClientOrderId: 'spot-read-1', newOrderRespType: 'RESULT', recvWindow: '5000' });
    expect(ok.status).toBe(200);
    expect(t.ctx.host.engine.openOrders(userId).length).toBe(openBefore + 1);
    // the cancel and the query refuse an extra parameter too, and the order stays open
    expect((await call('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(ok.body.orderId), extra: 'x' })).body).toEqual(unread(4, 5));
    expect((await call('GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(ok.body.orderId), x: '1' })).body.code).toBe(-1104);
    expect((await call('GET', '/api/v3/openOrders', { symbol: 'BTCUSDT', foo: '' })).body.code).toBe(-1104);
    expect((await call('GET', '/api/v3/account', { 'stopLoss[triggerPrice]': '1' })).body.code).toBe(-1104);
    expect(t.ctx.host.engine.openOrders(userId).length).toBe(openBefore + 1);
    expect((await call('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: String(ok.body.orderId) })).status).toBe(200);
  });

  it('futures: an order with stopLoss[triggerPrice] is refused and places nothing; queries and cancels likewise', async () => {
    const openBefore = t.ctx.host.engine.perpOpenOrders(userId).length;
    const r = await call('POST', '/fapi/v1/order', { ...FUT_ORDER, 'stopLoss[triggerPrice]': '39000' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(unread(8, 9));
    expect(t.ctx.host.engine.perpOpenOrders(userId).length).toBe(openBefore);
    const ok = await call('POST', '/fapi/v1/order', { ...FUT_ORDER, newClientOrderId: 'fut-read-1' });
    expect(ok.status).toBe(200);
    expect((await call('DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(ok.body.orderId), fooBar: '1' })).body.code).toBe(-1104);
    expect((await call('GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(ok.body.orderId), fooBar: '1' })).body.code).toBe(-1104);
    expect((await call('GET', '/fapi/v2/positionRisk', { fooBar: '1' })).body.code).toBe(-1104);
    expect((await call('POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: '5', fooBar: '1' })).body.code).toBe(-1104);
    expect(t.ctx.host.engine.perpOpenOrders(userId).length).toBe(openBefore + 1);
    expect((await call('DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(ok.body.orderId) })).status).toBe(200);
  });
});
