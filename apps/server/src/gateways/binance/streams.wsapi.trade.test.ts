/**
 * The WebSocket API's trading and account requests over a real socket (port 8155) with real API keys: an order
 * placed with order.place (HMAC over the sorted params, apiKey included) is answered as REST answers it, with
 * rateLimits, shows in REST openOrders and on the user data stream of the same connection; order.status,
 * openOrders.status, allOrders, myTrades, account.status, account.commission and order.test answer the REST bodies;
 * another user can neither read nor cancel it; a bad signature is -1022, a missing parameter -1102, an unread one
 * -1104, an unknown method -1020, a key without the trade permission -2015 (status 401) as REST; an Ed25519 signature
 * in the params is accepted; an Ed25519 key logs the session on (session.logon) and then places without a signature
 * until session.logout.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '@exchange/core';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { Client, loginNewUser } from '../ws/ws-test-support';
import { keyServiceWithoutSecondFactor } from './binance.test-scope';

type Msg = Record<string, unknown>;
type Params = Record<string, string | number>;
const U = 100_000_000n;
const REQ = { ip: '127.0.0.1', userAgent: 'test' };
const http = 'http://127.0.0.1:8155';
const ws = 'ws://127.0.0.1:8155';
let t: TestApp;
const users: Record<'a' | 'b', { id: string; apiKey: string; secret: string }> = {} as never;
let ed: { apiKey: string; privateKey: crypto.KeyObject; id: string };
/** A read-only HMAC key of user a (no spot trade permission). */
let readOnly: { apiKey: string; secret: string };

const submit = async (cmd: Record<string, unknown>) => {
  const r = await t.ctx.host.submit(cmd as unknown as Command);
  expect(r.code).toBe('ok');
};
const next = (c: Client, pred: (m: Msg) => boolean, ms = 5000) => c.next((m) => pred(m as Msg), ms) as Promise<Msg>;
/** The WebSocket API payload: params sorted by name, k=v joined by &. */
const payloadOf = (p: Params) =>
  Object.keys(p)
    .sort()
    .map((k) => `${k}=${p[k]}`)
    .join('&');
/** `params` with apiKey, timestamp and the HMAC signature of `who` (or of `secret`). */
const signed = (who: 'a' | 'b', params: Params, secret = users[who].secret): Params => {
  const p = { ...params, apiKey: users[who].apiKey, timestamp: Date.now() };
  return { ...p, signature: crypto.createHmac('sha256', secret).update(payloadOf(p)).digest('hex') };
};
let seq = 0;
/** Sends a request on `c` and waits for its answer. */
const call = async (c: Client, method: string, params: Params) => {
  const id = `r${++seq}`;
  c.send({ id, method, params });
  return next(c, (m) => m.id === id);
};
/** A signed REST GET of `who`. */
const restGet = async (who: 'a' | 'b', path: string, params: Params) => {
  const q = new URLSearchParams(Object.entries({ ...params, timestamp: Date.now() }).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const sig = crypto.createHmac('sha256', users[who].secret).update(q).digest('hex');
  const res = await fetch(`${http}${path}?${q}&signature=${sig}`, { headers: { 'x-mbx-apikey': users[who].apiKey } });
  return { status: res.status, body: (await res.json()) as unknown };
};

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  const svc = keyServiceWithoutSecondFactor(t.ctx);
  for (const who of ['a', 'b'] as const) {
    const id = (await loginNewUser(t, `wsapi-${who}@example.com`)).userId;
    const k = await svc.create(id, { label: 'k', keyType: 'HMAC_SHA256', spotTrade: true }, REQ);
    users[who] = { id, apiKey: k.key.apiKey, secret: k.secretKey! };
    await submit({ type: 'deposit', userId: id, asset: 'BTC', account: 'SPOT', amount: 10n * U, from: '@faucet' });
    await submit({ type: 'deposit', userId: id, asset: 'USDT', account: 'SPOT', amount: 1_000_000n * U, from: '@faucet' });
  }
  const ro = await svc.create(users.a.id, { label: 'ro', keyType: 'HMAC_SHA256' }, REQ);
  readOnly = { apiKey: ro.key.apiKey, secret: ro.secretKey! };
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
  const edId = (await loginNewUser(t, 'wsapi-ed@example.com')).userId;
  const k = await svc.create(
    edId,
    { label: 'ed', keyType: 'ED25519', publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(), spotTrade: true },
    REQ,
  );
  ed = { apiKey: k.key.apiKey, privateKey, id: edId };
  await submit({ type: 'deposit', userId: edId, asset: 'USDT', account: 'SPOT', amount: 1_000_000n * U, from: '@faucet' });
  await t.app.listen({ port: 8155, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
});

describe('WebSocket API trading requests', () => {
  it('order.place answers as REST, shows in REST openOrders and on the user data stream; the owner reads and cancels it, another user cannot', async () => {
    const a = await Client.open(`${ws}/ws-api/v3`);
    const b = await Client.open(`${ws}/ws-api/v3`);
    expect(await call(a, 'userDataStream.subscribe.signature', signed('a', {}))).toMatchObject({ status: 200, result: { subscriptionId: 0 } });

    const placed = await call(
      a,
      'order.place',
      signed('a', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000.00', quantity: '0.01000', newClientOrderId: 'ws-1' }),
    );
    expect(placed).toMatchObject({
      status: 200,
      result: {
        symbol: 'BTCUSDT',
        clientOrderId: 'ws-1',
        price: '50000.00',
        origQty: '0.01000',
        executedQty: '0.00000',
        status: 'NEW',
        side: 'BUY',
        type: 'LIMIT',
      },
    });
    const orderId = (placed.result as Msg).orderId as number;
    expect(typeof orderId).toBe('number');
    const limits = placed.rateLimits as Msg[];
    expect(limits.map((l) => [l.rateLimitType, l.interval, l.intervalNum])).toEqual([
      ['ORDERS', 'SECOND', 10],
      ['ORDERS', 'DAY', 1],
      ['REQUEST_WEIGHT', 'MINUTE', 1],
    ]);
    expect(limits[0]).toMatchObject({ count: 1 });
    expect(limits[2]!.count).toBeGreaterThanOrEqual(1);

    const ev = await next(a, (m) => (m.event as Msg | undefined)?.e === 'executionReport');
    expect(ev).toMatchObject({ subscriptionId: 0, event: { s: 'BTCUSDT', c: 'ws-1', i: orderId, X: 'NEW', p: '50000.00' } });
    const open = await restGet('a', '/api/v3/openOrders', { symbol: 'BTCUSDT' });
    expect((open.body as Msg[]).map((o) => o.orderId)).toContain(orderId);

    const st = await call(a, 'order.status', signed('a', { symbol: 'BTCUSDT', orderId }));
    const rest = await restGet('a', '/api/v3/order', { symbol: 'BTCUSDT', orderId });
    expect(st).toMatchObject({ status: 200, result: { orderId, status: 'NEW', clientOrderId: 'ws-1' } });
    expect({ ...(st.result as Msg), updateTime: 0, workingTime: 0, time: 0 }).toEqual({ ...(rest.body as Msg), updateTime: 0, workingTime: 0, time: 0 });
    expect((await call(a, 'openOrders.status', signed('a', { symbol: 'BTCUSDT' }))).result).toEqual(open.body);

    // Another user: not found, not cancelled, not listed.
    expect(await call(b, 'order.status', signed('b', { symbol: 'BTCUSDT', orderId }))).toMatchObject({ status: 400, error: { code: -2013 } });
    expect(await call(b, 'order.cancel', signed('b', { symbol: 'BTCUSDT', orderId }))).toMatchObject({ status: 400, error: { code: -2011 } });
    expect((await call(b, 'openOrders.status', signed('b', { symbol: 'BTCUSDT' }))).result).toEqual([]);
    expect((await call(b, 'allOrders', signed('b', { symbol: 'BTCUSDT' }))).result).toEqual([]);
    expect(t.ctx.host.engine.order(String(orderId))).toBeDefined();

    const cancelled = await call(a, 'order.cancel', signed('a', { symbol: 'BTCUSDT', orderId }));
    expect(cancelled).toMatchObject({ status: 200, result: { orderId, status: 'CANCELED', origClientOrderId: 'ws-1' } });
    expect(await next(a, (m) => (m.event as Msg | undefined)?.X === 'CANCELED')).toMatchObject({ event: { i: orderId } });
    expect((await restGet('a', '/api/v3/openOrders', { symbol: 'BTCUSDT' })).body).toEqual([]);
    const all = (await call(a, 'allOrders', signed('a', { symbol: 'BTCUSDT' }))).result as Msg[];
    expect(all.map((o) => [o.orderId, o.status])).toEqual([[orderId, 'CANCELED']]);
    a.close();
    b.close();
  });

  it('answers account.status, account.commission, myTrades, order.test and openOrders.cancelAll with the REST bodies', async () => {
    const a = await Client.open(`${ws}/ws-api/v3`);
    const acct = await call(a, 'account.status', signed('a', {}));
    const rest = await restGet('a', '/api/v3/account', {});
    expect(acct.status).toBe(200);
    expect((acct.result as Msg).balances).toEqual((rest.body as Msg).balances);
    expect(((acct.result as Msg).balances as Msg[]).find((x) => x.asset === 'BTC')).toMatchObject({ free: '10.00000000' });
    expect((await call(a, 'account.commission', signed('a', { symbol: 'BTCUSDT' }))).result).toEqual(
      (await restGet('a', '/api/v3/account/commission', { symbol: 'BTCUSDT' })).body,
    );
    expect(await call(a, 'order.test', signed('a', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.01000' }))).toMatchObject({
      status: 200,
      result: {},
    });
    await call(a, 'order.place', signed('a', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '99000.00', quantity: '0.02000' }));
    await call(a, 'order.place', signed('a', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '99001.00', quantity: '0.02000' }));
    const b = await Client.open(`${ws}/ws-api/v3`);
    const trade = await call(b, 'order.place', signed('b', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01000' }));
    b.close();
    expect(trade).toMatchObject({ status: 200, result: { status: 'FILLED', executedQty: '0.01000' } });
    const mine = (await call(a, 'myTrades', signed('a', { symbol: 'BTCUSDT' }))).result as Msg[];
    expect(mine.map((x) => [x.price, x.qty, x.isBuyer])).toEqual([['99000.00', '0.01000', false]]);
    const cancelled = await call(a, 'openOrders.cancelAll', signed('a', { symbol: 'BTCUSDT' }));
    expect((cancelled.result as Msg[]).map((o) => o.status)).toEqual(['CANCELED', 'CANCELED']);
    expect((await restGet('a', '/api/v3/openOrders', { symbol: 'BTCUSDT' })).body).toEqual([]);
    a.close();
  });

  it("refuses with Binance's codes: bad signature -1022, missing parameter -1102, unread one -1104, unknown method -1020", async () => {
    const a = await Client.open(`${ws}/ws-api/v3`);
    const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000.00', quantity: '0.01000' };
    expect(await call(a, 'order.place', signed('a', order, 'wrong-secret'))).toEqual({
      id: `r${seq}`,
      status: 400,
      error: { code: -1022, msg: 'Signature for this request is not valid.' },
    });
    const { price: _p, ...noPrice } = order;
    expect(await call(a, 'order.place', signed('a', noPrice))).toMatchObject({
      status: 400,
      error: { code: -1102, msg: expect.stringContaining("'price'") as unknown },
    });
    expect(await call(a, 'order.place', { ...order, timestamp: Date.now() })).toMatchObject({ status: 400, error: { code: -1102 } });
    expect(await call(a, 'order.place', signed('a', { ...order, fooBar: 1 }))).toMatchObject({ status: 400, error: { code: -1104 } });
    expect(await call(a, 'order.status', signed('a', { symbol: 'BTCUSDT', orderId: 99999999 }))).toMatchObject({ status: 400, error: { code: -2013 } });
    expect(await call(a, 'order.amend.keepPriority', signed('a', {}))).toMatchObject({ status: 400, error: { code: -1020 } });
    // returnRateLimits (WebSocket API only): false leaves rateLimits out; the REST route never sees it.
    const quiet = await call(a, 'openOrders.status', { ...signed('a', { symbol: 'BTCUSDT', returnRateLimits: 'false' }) });
    expect(quiet).toEqual({ id: `r${seq}`, status: 200, result: [] });
    expect(await call(a, 'openOrders.status', signed('a', { symbol: 'BTCUSDT', returnRateLimits: 'maybe' }))).toMatchObject({
      status: 400,
      error: { code: -1100 },
    });
    expect((await restGet('a', '/api/v3/openOrders', { symbol: 'BTCUSDT' })).body).toEqual([]);
    a.close();
  });

  it('takes an Ed25519 signature in the params, and refuses a key without the trade permission as REST does (-2015, 401)', async () => {
    const c = await Client.open(`${ws}/ws-api/v3`);
    const p = { symbol: 'BTCUSDT', apiKey: ed.apiKey, timestamp: Date.now() };
    const signedEd = { ...p, signature: crypto.sign(null, Buffer.from(payloadOf(p)), ed.privateKey).toString('base64') };
    expect(await call(c, 'openOrders.status', signedEd)).toMatchObject({ status: 200, result: [] });
    const ro = (params: Params): Params => {
      const q = { ...params, apiKey: readOnly.apiKey, timestamp: Date.now() };
      return { ...q, signature: crypto.createHmac('sha256', readOnly.secret).update(payloadOf(q)).digest('hex') };
    };
    const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000.00', quantity: '0.01000' };
    expect(await call(c, 'order.place', ro(order))).toMatchObject({
      status: 401,
      error: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' },
    });
    expect(await call(c, 'account.status', ro({}))).toMatchObject({ status: 200, result: { balances: expect.any(Array) as unknown } });
    expect((await restGet('a', '/api/v3/openOrders', { symbol: 'BTCUSDT' })).body).toEqual([]);
    c.close();
  });

  it('an Ed25519 key logs the session on and places without a signature until session.logout', async () => {
    const c = await Client.open(`${ws}/ws-api/v3`);
    const p = { apiKey: ed.apiKey, timestamp: Date.now() };
    const logon = await call(c, 'session.logon', { ...p, signature: crypto.sign(null, Buffer.from(payloadOf(p)), ed.privateKey).toString('base64') });
    expect(logon).toMatchObject({ status: 200, result: { apiKey: ed.apiKey, authorizedSince: expect.any(Number) as unknown } });
    const placed = await call(c, 'order.place', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      price: '40000.00',
      quantity: '0.01000',
      timestamp: Date.now(),
    });
    expect(placed).toMatchObject({ status: 200, result: { status: 'NEW', price: '40000.00' } });
    expect(
      await call(c, 'order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '40000.00', quantity: '0.01000' }),
    ).toMatchObject({
      status: 400,
      error: { code: -1102 },
    });
    expect(await call(c, 'openOrders.status', { symbol: 'BTCUSDT', timestamp: Date.now() - 60_000 })).toMatchObject({ status: 400, error: { code: -1021 } });
    expect(await call(c, 'session.logout', {})).toMatchObject({ status: 200, result: { apiKey: null } });
    expect(await call(c, 'openOrders.status', { symbol: 'BTCUSDT', timestamp: Date.now() })).toMatchObject({ status: 400, error: { code: -1102 } });
    const bad = { apiKey: ed.apiKey, timestamp: Date.now() };
    expect(await call(c, 'session.logon', { ...bad, signature: crypto.sign(null, Buffer.from('x'), ed.privateKey).toString('base64') })).toMatchObject({
      status: 400,
      error: { code: -1022 },
    });
    c.close();
  });
});
