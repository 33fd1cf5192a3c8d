/**
 * User data streams over a real socket (port 8153) with real API keys (the key service, any second factor
 * accepted): listenKey create/keepalive/close and their errors, expiry (listenKeyExpired, then closed), spot
 * executionReport and outboundAccountPosition values after a fill on /ws/<listenKey> and through the WebSocket API
 * (userDataStream.subscribe.signature, HMAC over the sorted params), futures ORDER_TRADE_UPDATE and ACCOUNT_UPDATE,
 * the futures diff depth sync with pu, and that one user never receives another's events.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '@exchange/core';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { fromUnits } from '../../platform/shared/decimal';
import { Client, loginNewUser } from '../ws/ws-test-support';
import { createApiKeyService } from '../../domains/api-keys/api-keys.service';
import type { SecurityService } from '../../domains/security/security.service';
import { secretBoxFromConfig } from '../../platform/shared/secret-box';
import { binanceStreamsOf } from './streams.routes';

type Msg = Record<string, unknown>;
const U = 100_000_000n;
const REQ = { ip: '127.0.0.1', userAgent: 'test' };
let t: TestApp;
const http = 'http://127.0.0.1:8153';
const ws = 'ws://127.0.0.1:8153';
const users: Record<'a' | 'b', { id: string; apiKey: string; secret: string }> = {} as never;

const submit = async (cmd: Record<string, unknown>) => {
  const r = await t.ctx.host.submit(cmd as unknown as Command);
  expect(
    r.code,
    JSON.stringify(cmd, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
  ).toBe('ok');
  return r;
};
const next = (c: Client, pred: (m: Msg) => boolean, ms = 5000) => c.next((m) => pred(m as Msg), ms) as Promise<Msg>;
const rest = async (method: string, path: string, who: 'a' | 'b' | null, body?: string) => {
  const res = await fetch(`${http}${path}`, {
    method,
    headers: { ...(who ? { 'x-mbx-apikey': users[who].apiKey } : {}), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    ...(body ? { body } : {}),
  });
  return { status: res.status, body: (await res.json()) as Msg };
};
/** Messages of `c` from now on. */
const record = (c: Client): Msg[] => {
  const out: Msg[] = [];
  c.ws.on('message', (d) => out.push(JSON.parse(d.toString()) as Msg));
  return out;
};

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  const noSecondFactor = { verifySecondFactor: async () => {}, recordSecurityEvent: async () => {} } as unknown as SecurityService;
  const svc = createApiKeyService({
    db: t.ctx.db,
    host: t.ctx.host,
    box: secretBoxFromConfig(t.ctx.config),
    security: () => noSecondFactor,
    log: t.ctx.log,
    now: t.ctx.clock.now,
    cacheMs: 5000,
  });
  (t.ctx as { apiKeys: typeof svc }).apiKeys = svc;
  const ids: Record<string, string> = {};
  for (const who of ['a', 'b'] as const) {
    ids[who] = (await loginNewUser(t, `stream-${who}@example.com`)).userId;
  }
  for (const who of ['a', 'b'] as const) {
    const id = ids[who]!;
    const k = await svc.create(id, { label: 'k', keyType: 'HMAC_SHA256', spotTrade: true, futuresTrade: true }, REQ);
    users[who] = { id, apiKey: k.key.apiKey, secret: k.secretKey! };
  }
  for (const who of ['a', 'b'] as const) {
    const id = ids[who]!;
    await submit({ type: 'deposit', userId: id, asset: 'BTC', account: 'SPOT', amount: 10n * U, from: '@faucet' });
    await submit({ type: 'deposit', userId: id, asset: 'USDT', account: 'SPOT', amount: 1_000_000n * U, from: '@faucet' });
    await submit({ type: 'transfer', userId: id, asset: 'USDT', from: 'SPOT', to: 'CONTRACT', amount: 500_000n * U, clientId: `sc-${who}` });
  }
  await t.app.listen({ port: 8153, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
});

describe('listenKeys', () => {
  it('creates (the same key while valid), keeps alive, closes, and refuses bad keys with Binance errors', async () => {
    const c1 = await rest('POST', '/api/v3/userDataStream', 'a');
    expect(c1.status).toBe(200);
    const key = c1.body.listenKey as string;
    expect(key).toMatch(/^[A-Za-z0-9]{60}$/);
    expect((await rest('POST', '/api/v3/userDataStream', 'a')).body).toEqual({ listenKey: key });
    expect((await rest('PUT', `/api/v3/userDataStream?listenKey=${key}`, 'a')).body).toEqual({});
    expect((await rest('PUT', '/api/v3/userDataStream?listenKey=nope', 'a')).body).toMatchObject({ code: -1125 });
    expect((await rest('PUT', '/api/v3/userDataStream', 'a')).body).toMatchObject({ code: -1102 });
    expect((await rest('PUT', `/api/v3/userDataStream?listenKey=${key}`, 'b')).body).toMatchObject({ code: -1125 }); // not B's
    expect((await rest('POST', '/api/v3/userDataStream', null)).body).toMatchObject({ code: -2014 });
    const other = await rest('POST', '/api/v3/userDataStream', 'b');
    expect(other.body.listenKey).not.toBe(key);
    expect((await rest('DELETE', `/api/v3/userDataStream?listenKey=${key}`, 'a')).body).toEqual({});
    expect((await rest('PUT', `/api/v3/userDataStream?listenKey=${key}`, 'a')).body).toMatchObject({ code: -1125 });
    const f = await rest('POST', '/fapi/v1/listenKey', 'a');
    expect((await rest('PUT', '/fapi/v1/listenKey', 'a')).body).toEqual({ listenKey: f.body.listenKey });
    expect((await rest('DELETE', '/fapi/v1/listenKey', 'a')).body).toEqual({});
    expect((await rest('PUT', '/fapi/v1/listenKey', 'a')).body).toMatchObject({ code: -1125 });
  });

  it('tells listenKeyExpired and closes the stream when the key expires', async () => {
    const key = (await rest('POST', '/api/v3/userDataStream', 'b')).body.listenKey as string;
    const c = await Client.open(`${ws}/ws/${key}`);
    const keys = binanceStreamsOf(t.ctx)!.listenKeys;
    keys.get(key, 'spot')!.expiresAt = Date.now() - 1; // 60 minutes without keepalive
    expect(keys.sweep()).toBe(1);
    expect(await next(c, (m) => m.e === 'listenKeyExpired')).toMatchObject({ listenKey: key });
    expect((await c.whenClosed()).code).toBe(1000);
    expect((await rest('PUT', `/api/v3/userDataStream?listenKey=${key}`, 'b')).body).toMatchObject({ code: -1125 });
  });
});

describe('spot user data', () => {
  it('sends executionReport and outboundAccountPosition with exact values, each user only their own', async () => {
    const ka = (await rest('POST', '/api/v3/userDataStream', 'a')).body.listenKey as string;
    const kb = (await rest('POST', '/api/v3/userDataStream', 'b')).body.listenKey as string;
    const a = await Client.open(`${ws}/ws/${ka}`);
    const b = await Client.open(`${ws}/stream?streams=${kb}`);
    const allA = record(a);
    const allB = record(b);
    const sell = await t.ctx.spot.place(users.a.id, {
      pairsName: 'BTC/USDT',
      side: 'SELL',
      orderType: 'LIMIT',
      price: '95000.00',
      amount: '0.20000',
      clientOrderId: 'grid-1',
    });
    const newA = await next(a, (m) => m.e === 'executionReport' && m.x === 'NEW');
    expect(newA).toMatchObject({
      s: 'BTCUSDT',
      c: 'grid-1',
      S: 'SELL',
      o: 'LIMIT',
      f: 'GTC',
      q: '0.20000',
      p: '95000.00',
      X: 'NEW',
      i: Number(sell.id),
      l: '0.00000',
      z: '0.00000',
      t: -1,
      w: true,
      m: false,
      g: -1,
      r: 'NONE',
      N: null,
    });
    const buy = await t.ctx.spot.place(users.b.id, { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'MARKET', amount: '0.05000' });
    const fillA = await next(a, (m) => m.e === 'executionReport' && m.x === 'TRADE');
    expect(fillA).toMatchObject({
      i: Number(sell.id),
      X: 'PARTIALLY_FILLED',
      l: '0.05000',
      z: '0.05000',
      L: '95000.00',
      n: '4.75000000',
      N: 'USDT',
      m: true,
      w: true,
      Z: '4750.00000000',
      Y: '4750.00000000',
    });
    expect(typeof fillA.t).toBe('number');
    const posA = await next(a, (m) => m.e === 'outboundAccountPosition' && (m.B as Msg[]).some((x) => x.a === 'USDT'));
    const bal = (user: string, asset: string) => {
      const x = t.ctx.host.engine.balance(user, 'SPOT', asset);
      return { a: asset, f: fromUnits(x.available, 8), l: fromUnits(x.frozen, 8) };
    };
    expect(posA.B).toEqual(expect.arrayContaining([bal(users.a.id, 'USDT'), bal(users.a.id, 'BTC')]));
    expect(bal(users.a.id, 'BTC').l).toBe('0.15000000');

    const fillB = await next(b, (m) => (m.data as Msg | undefined)?.x === 'TRADE');
    expect(fillB.stream).toBe(kb);
    expect(fillB.data).toMatchObject({
      i: Number(buy.id),
      S: 'BUY',
      o: 'MARKET',
      X: 'FILLED',
      l: '0.05000',
      z: '0.05000',
      L: '95000.00',
      n: '0.00005000',
      N: 'BTC',
      m: false,
      w: false,
      t: fillA.t,
    });
    await next(b, (m) => (m.data as Msg | undefined)?.e === 'outboundAccountPosition');
    await new Promise((r) => setTimeout(r, 200));
    // each saw only their own orders
    const ids = (ms: Msg[]) =>
      new Set(
        ms
          .map((m) => (m.data as Msg | undefined) ?? m)
          .filter((m) => m.e === 'executionReport')
          .map((m) => m.i),
      );
    expect([...ids(allA)]).toEqual([Number(sell.id)]);
    expect([...ids(allB)]).toEqual([Number(buy.id)]);
    a.close();
    b.close();
  });

  it('serves userDataStream.subscribe.signature on /ws-api/v3 and wraps the events', async () => {
    const c = await Client.open(`${ws}/ws-api/v3`);
    c.send({ id: 'p1', method: 'ping' });
    expect(await next(c, (m) => m.id === 'p1')).toEqual({ id: 'p1', status: 200, result: {} });
    c.send({ id: 'x1', method: 'order.amend.keepPriority', params: {} });
    expect(await next(c, (m) => m.id === 'x1')).toEqual({ id: 'x1', status: 400, error: { code: -1020, msg: 'This operation is not supported.' } });
    const sign = (params: Record<string, string | number>, secret: string) => {
      const payload = Object.keys(params)
        .sort()
        .map((k) => `${k}=${params[k]}`)
        .join('&');
      return { ...params, signature: crypto.createHmac('sha256', secret).update(payload).digest('hex') };
    };
    c.send({ id: 2, method: 'userDataStream.subscribe.signature', params: sign({ timestamp: Date.now(), apiKey: users.a.apiKey }, 'wrong') });
    expect(await next(c, (m) => m.id === 2)).toMatchObject({ id: 2, status: 400, error: { code: -1022 } });
    c.send({ id: 3, method: 'userDataStream.subscribe.signature', params: sign({ timestamp: Date.now(), apiKey: users.a.apiKey }, users.a.secret) });
    expect(await next(c, (m) => m.id === 3)).toEqual({ id: 3, status: 200, result: { subscriptionId: 0 } });
    const o = await t.ctx.spot.place(users.a.id, { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', price: '80000.00', amount: '0.01000' });
    const ev = await next(c, (m) => m.subscriptionId === 0 && (m.event as Msg).e === 'executionReport');
    expect(ev.event).toMatchObject({ i: Number(o.id), x: 'NEW', p: '80000.00', q: '0.01000' });
    await t.ctx.spot.cancel(users.a.id, { id: o.id });
    expect((await next(c, (m) => (m.event as Msg | undefined)?.x === 'CANCELED')).event).toMatchObject({ i: Number(o.id), X: 'CANCELED' });
    c.send({ id: 4, method: 'userDataStream.subscribe.signature', params: sign({ timestamp: Date.now(), apiKey: users.a.apiKey }, users.a.secret) });
    expect(await next(c, (m) => m.id === 4)).toMatchObject({ status: 400, error: { code: -2035 } });
    c.close();
  });
});

describe('futures', () => {
  it('sends ORDER_TRADE_UPDATE and ACCOUNT_UPDATE on the private URL, each user only their own', async () => {
    const sym = 'ETH/USDT';
    await submit({ type: 'perpMarkPrice', symbol: sym, indexPrice: 300_000n });
    const bad = await Client.open(`${ws}/fstream/private/ws?listenKey=nope`);
    expect((await bad.whenClosed()).code).toBe(1008);
    const ka = (await rest('POST', '/fapi/v1/listenKey', 'a')).body.listenKey as string;
    const kb = (await rest('POST', '/fapi/v1/listenKey', 'b')).body.listenKey as string;
    const a = await Client.open(`${ws}/fstream/private/ws?listenKey=${ka}`);
    const b = await Client.open(`${ws}/fstream/private/ws?listenKey=${kb}`);
    const allA = record(a);
    const r1 = await submit({
      type: 'perpPlaceOrder',
      userId: users.a.id,
      symbol: sym,
      side: 'SELL',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 300_000n,
      quantity: 10_000n,
      clientOrderId: 'f-1',
    });
    const r2 = await submit({
      type: 'perpPlaceOrder',
      userId: users.b.id,
      symbol: sym,
      side: 'BUY',
      orderType: 'MARKET',
      timeInForce: 'IOC',
      quantity: 5_000n,
    });
    const idA = Number(r1.perpOrder!.orderId);
    const idB = Number(r2.perpOrder!.orderId);
    expect((await next(a, (m) => m.e === 'ORDER_TRADE_UPDATE' && (m.o as Msg).x === 'NEW')).o).toMatchObject({
      s: 'ETHUSDT',
      c: 'f-1',
      S: 'SELL',
      o: 'LIMIT',
      q: '1.0000',
      p: '3000.00',
      i: idA,
      ps: 'BOTH',
      R: false,
    });
    const fa = (await next(a, (m) => m.e === 'ORDER_TRADE_UPDATE' && (m.o as Msg).x === 'TRADE')).o as Msg;
    expect(fa).toMatchObject({ i: idA, X: 'PARTIALLY_FILLED', l: '0.5000', z: '0.5000', L: '3000.00', ap: '3000.00', m: true, N: 'USDT' });
    const acc = await next(a, (m) => m.e === 'ACCOUNT_UPDATE');
    const wallet = t.ctx.host.engine.perpAccount(users.a.id);
    expect(acc.a).toMatchObject({
      m: 'ORDER',
      B: [{ a: 'USDT', wb: fromUnits(wallet.walletBalance, 8), cw: fromUnits(wallet.crossWalletBalance, 8) }],
      P: [{ s: 'ETHUSDT', pa: '-0.5000', ep: '3000.00', mt: 'cross', ps: 'BOTH' }],
    });
    const fb = (await next(b, (m) => m.e === 'ORDER_TRADE_UPDATE' && (m.o as Msg).x === 'TRADE')).o as Msg;
    expect(fb).toMatchObject({ i: idB, S: 'BUY', o: 'MARKET', X: 'FILLED', l: '0.5000', m: false, t: fa.t });
    expect((await next(b, (m) => m.e === 'ACCOUNT_UPDATE')).a).toMatchObject({ P: [{ s: 'ETHUSDT', pa: '0.5000' }] });
    await new Promise((r) => setTimeout(r, 200));
    const seen = new Set(allA.filter((m) => m.e === 'ORDER_TRADE_UPDATE').map((m) => (m.o as Msg).i));
    expect([...seen]).toEqual([idA]);
    a.close();
    b.close();
  });

  it('keeps a local futures book in sync from the snapshot and @depth@100ms (pu continuity)', async () => {
    const sym = 'ETH/USDT';
    const c = await Client.open(`${ws}/fstream/public/ws/ethusdt@depth@100ms`);
    const events: Msg[] = [];
    c.ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as Msg;
      if (m.e === 'depthUpdate') events.push(m);
    });
    const order = (who: 'a' | 'b', side: 'BUY' | 'SELL', price: bigint, qty: bigint) =>
      t.ctx.host.submit({
        type: 'perpPlaceOrder',
        userId: users[who].id,
        symbol: sym,
        side,
        orderType: 'LIMIT',
        timeInForce: 'GTC',
        price,
        quantity: qty,
        ts: Date.now(),
      } as unknown as Command);
    for (let i = 0; i < 10; i++) await order('a', 'SELL', 301_000n + BigInt(i * 100), 1_000n);
    const cm = t.ctx.perpMarket;
    const snapSeq = cm.depthSeq(sym);
    const snap = cm.depth(sym, 1000)!;
    for (let i = 0; i < 40; i++) {
      await order(
        i % 2 ? 'a' : 'b',
        i % 2 ? 'SELL' : 'BUY',
        i % 2 ? 300_500n + BigInt((i % 7) * 100) : 299_500n - BigInt((i % 5) * 100),
        1_000n + BigInt(i * 10),
      );
      if (i % 10 === 9) await order('b', 'BUY', 301_500n, 1_500n); // crosses
    }
    const finalSeq = cm.depthSeq(sym);
    const deadline = Date.now() + 5000;
    while (!events.some((e) => e.u === finalSeq) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const bids = new Map(snap.bids);
    const asks = new Map(snap.asks);
    let last = snapSeq;
    let started = false;
    for (const e of events) {
      if ((e.u as number) < snapSeq) continue;
      if (!started) expect((e.U as number) <= snapSeq || e.pu === snapSeq).toBe(true);
      else expect(e.pu).toBe(last);
      started = true;
      for (const [side, rows] of [
        [bids, e.b],
        [asks, e.a],
      ] as const) {
        for (const [p, q] of rows as Array<[string, string]>) {
          if (Number(q) === 0) side.delete(p);
          else side.set(p, q);
        }
      }
      last = e.u as number;
    }
    expect(last).toBe(finalSeq);
    const now = cm.depth(sym, 1000)!;
    expect([...bids].sort((x, y) => Number(y[0]) - Number(x[0]))).toEqual(now.bids);
    expect([...asks].sort((x, y) => Number(x[0]) - Number(y[0]))).toEqual(now.asks);
    c.close();
  });
});
