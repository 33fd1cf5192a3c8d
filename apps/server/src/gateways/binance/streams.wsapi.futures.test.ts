/**
 * The USDⓈ-M futures WebSocket API (/ws-fapi/v1) over a real socket (port 8157) with real API keys, and the budgets
 * the WebSocket API shares with REST: order.place, order.status, order.modify and order.cancel answer exactly what
 * the /fapi REST routes answer for the same order; account.balance, v2/account.balance, account.status and
 * account.position answer REST's V2 and V3 bodies; another user's order is -2013 / -2011 and stays open; a bad side is
 * -1117 as REST; an unsigned request is -1102 and places nothing; session.logon lets later requests go unsigned until
 * session.logout; the spot user data stream's requests are -1020 here. One IP's request weight and one account's
 * order count are the same counters over REST and the WebSocket API (the rateLimits of an answer continue REST's
 * X-MBX-USED-WEIGHT-1M and X-MBX-ORDER-COUNT-10S). A POST /fapi/v1/batchOrders counts 5 on the 10-second order count
 * (Binance's "Place Multiple Orders" page) and 1 on the day's; at the limit's edge the batch that would pass it is
 * refused -1015 whole, nothing placed. On the spot WebSocket API (/ws-api/v3), order.cancelReplace,
 * orderList.place.oco, orderList.status, openOrderLists.status and orderList.cancel answer the REST routes' bodies, and
 * another user's list is -2013 / -2011 and stays open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { Client } from '../ws/ws-test-support';
import { hmacHex, keyServiceWithoutSecondFactor, queryOf } from './binance.test-scope';
import { fundContract, tick } from '../../domains/perp/perp-test-support';

type Msg = Record<string, unknown>;
type Params = Record<string, string | number>;
const SYM = 'BTC/USDT';
/** The 10-second order limit of this app: low enough to reach with a few orders. */
const ORDERS_PER_10S = 8;
const http = 'http://127.0.0.1:8157';
const wsUrl = 'ws://127.0.0.1:8157/ws-fapi/v1';
let t: TestApp;
interface Key {
  apiKey: string;
  secret: string;
  userId: string;
}
const keys: Record<'A' | 'B' | 'C' | 'D', Key> = {} as never;
/** Spot keys of A and B (spot trade permission). */
const spotKeys: Record<'A' | 'B', Key> = {} as never;
const U = 100_000_000n;

/** The WebSocket API payload: params sorted by name, k=v joined by &. */
const payloadOf = (p: Params) =>
  Object.keys(p)
    .sort()
    .map((k) => `${k}=${p[k]}`)
    .join('&');
/** `params` with apiKey, timestamp and the HMAC signature of `k`. */
const signed = (k: Key, params: Params): Params => {
  const p = { ...params, apiKey: k.apiKey, timestamp: Date.now() };
  return { ...p, signature: hmacHex(k.secret, payloadOf(p)) };
};
let seq = 0;
/** Sends a request on `c` and waits for its answer. */
const call = async (c: Client, method: string, params: Params) => {
  const id = `f${++seq}`;
  c.send({ id, method, params });
  return (await c.next((m) => (m as Msg).id === id)) as Msg;
};
/** A signed REST request of `k` over HTTP (same IP as the sockets: 127.0.0.1), parameters in the query string. */
async function rest(k: Key, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, params: Params = {}) {
  const q = queryOf({ ...params, timestamp: Date.now() });
  const res = await fetch(`${http}${path}?${q}&signature=${hmacHex(k.secret, q)}`, { method, headers: { 'x-mbx-apikey': k.apiKey } });
  return {
    status: res.status,
    body: (await res.json()) as unknown,
    weight: Number(res.headers.get('x-mbx-used-weight-1m')),
    orders10s: res.headers.get('x-mbx-order-count-10s'),
    orders1d: res.headers.get('x-mbx-order-count-1d'),
  };
}
const limitOrder = (side: string, price: string, quantity: string, extra: Params = {}): Params => ({
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
/** The count of `type` in an answer's rateLimits (the 10-second one for ORDERS). */
const countOf = (answer: Msg, type: 'REQUEST_WEIGHT' | 'ORDERS') =>
  (answer.rateLimits as Msg[]).find((l) => l.rateLimitType === type && (type === 'REQUEST_WEIGHT' || l.interval === 'SECOND'))?.count;

beforeAll(async () => {
  t = await makeTestApp({ ...NO_RATE_LIMITS, binanceOrdersPer10s: ORDERS_PER_10S });
  const svc = keyServiceWithoutSecondFactor(t.ctx);
  const REQ = { ip: '127.0.0.1', userAgent: 'test' };
  for (const name of ['A', 'B', 'C', 'D'] as const) {
    const { userId } = await t.ctx.members.ensureEmailUser(`ws-fapi-${name}@example.com`, 'secret-pass-1', '');
    await fundContract(t.ctx.host, userId, 10_000n);
    const c = await svc.create(userId, { label: 'f', keyType: 'HMAC_SHA256', futuresTrade: true }, REQ);
    keys[name] = { apiKey: c.key.apiKey, secret: c.secretKey!, userId };
    if (name === 'A' || name === 'B') {
      const sk = await svc.create(userId, { label: 's', keyType: 'HMAC_SHA256', spotTrade: true }, REQ);
      spotKeys[name] = { apiKey: sk.key.apiKey, secret: sk.secretKey!, userId };
      for (const [asset, amount] of [
        ['BTC', 10n * U],
        ['USDT', 1_000_000n * U],
      ] as const) {
        const r = await t.ctx.host.submit({ type: 'deposit', userId, asset, account: 'SPOT', amount, from: '@faucet' });
        expect(r.code).toBe('ok');
      }
    }
  }
  await t.ctx.host.projected();
  await tick(t.ctx.host, 5_000_000n, SYM);
  await t.app.listen({ port: 8157, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
});

describe('futures WebSocket API /ws-fapi/v1', () => {
  it('places, reads, modifies and cancels with the REST answers; another user neither reads nor cancels', async () => {
    const a = await Client.open(wsUrl);
    const b = await Client.open(wsUrl);
    try {
      const placed = await call(a, 'order.place', signed(keys.A, limitOrder('BUY', '49000', '0.01', { newClientOrderId: 'wsf-1' })));
      expect(placed).toMatchObject({
        status: 200,
        result: { symbol: 'BTCUSDT', clientOrderId: 'wsf-1', price: '49000.00', origQty: '0.01000', executedQty: '0.00000', status: 'NEW', side: 'BUY' },
      });
      const orderId = (placed.result as Msg).orderId as number;
      expect(openIds(keys.A)).toEqual([String(orderId)]);

      // order.status is GET /fapi/v1/order's body, field for field.
      const status = await call(a, 'order.status', signed(keys.A, { symbol: 'BTCUSDT', orderId }));
      const viaRest = await rest(keys.A, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId });
      expect(viaRest.status).toBe(200);
      expect(status.result).toEqual(viaRest.body);

      // Another user: -2013 on status, -2011 on cancel and modify, and the order stays open.
      expect(await call(b, 'order.status', signed(keys.B, { symbol: 'BTCUSDT', orderId }))).toMatchObject({
        status: 400,
        error: { code: -2013, msg: 'Order does not exist.' },
      });
      expect(await call(b, 'order.cancel', signed(keys.B, { symbol: 'BTCUSDT', orderId }))).toMatchObject({
        status: 400,
        error: { code: -2011, msg: 'Unknown order sent.' },
      });
      expect(openIds(keys.A)).toEqual([String(orderId)]);

      const modified = await call(a, 'order.modify', signed(keys.A, { symbol: 'BTCUSDT', orderId, side: 'BUY', price: '48500', quantity: '0.02' }));
      expect(modified).toMatchObject({ status: 200, result: { orderId, price: '48500.00', origQty: '0.02000', status: 'NEW' } });
      expect((await rest(keys.A, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId })).body).toMatchObject({ price: '48500.00', origQty: '0.02000' });

      const cancelled = await call(a, 'order.cancel', signed(keys.A, { symbol: 'BTCUSDT', origClientOrderId: 'wsf-1' }));
      expect(cancelled).toMatchObject({ status: 200, result: { orderId, status: 'CANCELED', clientOrderId: 'wsf-1' } });
      expect(openIds(keys.A)).toEqual([]);
    } finally {
      a.ws.close();
      b.ws.close();
    }
  });

  it('answers the account requests with the REST V2 and V3 bodies', async () => {
    const a = await Client.open(wsUrl);
    try {
      /** The WebSocket answer of `method` and the REST body of `path`, read one after the other. */
      const both = async (method: string, path: string) => [(await call(a, method, signed(keys.A, {}))).result, (await rest(keys.A, 'GET', path)).body];
      const [balance, balanceRest] = await both('account.balance', '/fapi/v2/balance');
      const usdt = (balance as Msg[]).find((x) => x.asset === 'USDT');
      expect(usdt).toMatchObject({ asset: 'USDT', balance: '10000.00000000', availableBalance: '10000.00000000' });
      const noTime = (xs: unknown) => (xs as Msg[]).map(({ updateTime: _, ...x }) => x);
      expect(noTime(balance)).toEqual(noTime(balanceRest));
      const [balance3, balance3Rest] = await both('v2/account.balance', '/fapi/v3/balance');
      expect(noTime(balance3)).toEqual(noTime(balance3Rest));
      const [account, accountRest] = await both('account.status', '/fapi/v2/account');
      expect(account).toMatchObject({ totalWalletBalance: '10000.00000000', availableBalance: '10000.00000000' });
      expect(Object.keys(account as Msg).sort()).toEqual(Object.keys(accountRest as Msg).sort());
      const [account3, account3Rest] = await both('v2/account.status', '/fapi/v3/account');
      expect(Object.keys(account3 as Msg).sort()).toEqual(Object.keys(account3Rest as Msg).sort());
      const [positions, positionsRest] = await both('account.position', '/fapi/v2/positionRisk');
      expect(positions).toEqual(positionsRest);
      const [positions3, positions3Rest] = await both('v2/account.position', '/fapi/v3/positionRisk');
      expect(positions3).toEqual(positions3Rest);
    } finally {
      a.ws.close();
    }
  });

  it('refuses a bad parameter with its Binance code and an unsigned request with -1102, placing nothing', async () => {
    const a = await Client.open(wsUrl);
    try {
      expect(await call(a, 'order.place', signed(keys.A, limitOrder('UP', '49000', '0.01')))).toMatchObject({
        status: 400,
        error: { code: -1117, msg: 'Invalid side.' },
      });
      expect(await call(a, 'order.place', { ...limitOrder('BUY', '49000', '0.01'), timestamp: Date.now() })).toMatchObject({
        status: 400,
        error: { code: -1102, msg: "Mandatory parameter 'apiKey' was not sent, was empty/null, or malformed." },
      });
      expect(await call(a, 'order.place', { ...limitOrder('BUY', '49000', '0.01'), apiKey: keys.A.apiKey, timestamp: Date.now() })).toMatchObject({
        status: 400,
        error: { code: -1102, msg: "Mandatory parameter 'signature' was not sent, was empty/null, or malformed." },
      });
      const bad = signed(keys.A, limitOrder('BUY', '49000', '0.01'));
      expect(await call(a, 'order.place', { ...bad, quantity: '0.02' })).toMatchObject({
        status: 400,
        error: { code: -1022, msg: 'Signature for this request is not valid.' },
      });
      expect(openIds(keys.A)).toEqual([]);
      // The spot user data stream is not offered on the futures WebSocket API.
      expect(await call(a, 'userDataStream.subscribe.signature', signed(keys.A, {}))).toMatchObject({ status: 400, error: { code: -1020 } });
    } finally {
      a.ws.close();
    }
  });

  it('lets a logged-on session send without a signature until session.logout', async () => {
    const a = await Client.open(wsUrl);
    try {
      const logon = await call(a, 'session.logon', signed(keys.A, {}));
      expect(logon).toMatchObject({ status: 200, result: { apiKey: keys.A.apiKey, userDataStream: false } });
      const placed = await call(a, 'order.place', { ...limitOrder('SELL', '52000', '0.01'), timestamp: Date.now() });
      expect(placed).toMatchObject({ status: 200, result: { status: 'NEW', side: 'SELL', price: '52000.00' } });
      const orderId = (placed.result as Msg).orderId as number;
      expect(await call(a, 'order.cancel', { symbol: 'BTCUSDT', orderId, timestamp: Date.now() })).toMatchObject({
        status: 200,
        result: { orderId, status: 'CANCELED' },
      });
      expect(await call(a, 'session.logout', {})).toMatchObject({ status: 200, result: { apiKey: null } });
      expect(await call(a, 'order.place', { ...limitOrder('SELL', '52000', '0.01'), timestamp: Date.now() })).toMatchObject({
        status: 400,
        error: { code: -1102 },
      });
      expect(openIds(keys.A)).toEqual([]);
    } finally {
      a.ws.close();
    }
  });
});

describe('budgets shared by REST and the WebSocket API', () => {
  it("counts one IP's weight and one account's orders over both APIs", async () => {
    const a = await Client.open(wsUrl);
    try {
      // Weight: REST GET /fapi/v1/openOrders (1), order.status-like read over the socket (1), REST again (1); retried
      // once should the three straddle a minute's boundary.
      for (let attempt = 0; ; attempt++) {
        const r1 = await rest(keys.B, 'GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' });
        const w = await call(a, 'account.position', signed(keys.B, {}));
        const r2 = await rest(keys.B, 'GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' });
        if (r2.weight < r1.weight && attempt === 0) continue;
        expect(countOf(w, 'REQUEST_WEIGHT')).toBe(r1.weight + 5);
        expect(r2.weight).toBe(r1.weight + 6);
        break;
      }
      // Orders: one over REST, one over the socket, one over REST, in one 10-second window.
      await freshTenSeconds();
      const o1 = await rest(keys.B, 'POST', '/fapi/v1/order', limitOrder('BUY', '40000', '0.01'));
      const o2 = await call(a, 'order.place', signed(keys.B, limitOrder('BUY', '40000', '0.01')));
      const o3 = await rest(keys.B, 'POST', '/fapi/v1/order', limitOrder('BUY', '40000', '0.01'));
      expect([o1.orders10s, countOf(o2, 'ORDERS'), o3.orders10s]).toEqual(['1', 2, '3']);
      expect(openIds(keys.B)).toHaveLength(3);
    } finally {
      a.ws.close();
    }
  });

  it('counts a batch as 5 orders on the 10-second limit and refuses the batch that would pass it, nothing placed', async () => {
    const a = await Client.open(wsUrl);
    try {
      await freshTenSeconds();
      const singles = [];
      // 3 single orders (one over the socket) and a batch of 2 reach the limit (3 + 5 = 8) exactly.
      singles.push(await rest(keys.C, 'POST', '/fapi/v1/order', limitOrder('BUY', '40000', '0.01')));
      singles.push(await rest(keys.C, 'POST', '/fapi/v1/order', limitOrder('BUY', '40000', '0.01')));
      expect(countOf(await call(a, 'order.place', signed(keys.C, limitOrder('BUY', '40000', '0.01'))), 'ORDERS')).toBe(3);
      const batchOf = (n: number) => ({ batchOrders: JSON.stringify(Array.from({ length: n }, () => limitOrder('BUY', '40000', '0.01'))) });
      const full = await rest(keys.C, 'POST', '/fapi/v1/batchOrders', batchOf(2));
      expect(full.status, JSON.stringify(full.body)).toBe(200);
      expect([full.orders10s, Number(full.orders1d) - Number(singles[1]!.orders1d)]).toEqual(['8', 2]);
      expect(openIds(keys.C)).toHaveLength(5);
      // At the limit: a batch of one order would pass it by five; refused whole.
      const over = await rest(keys.C, 'POST', '/fapi/v1/batchOrders', batchOf(1));
      expect(over).toMatchObject({ status: 429, body: { code: -1015, msg: `Too many new orders; current limit is ${ORDERS_PER_10S} orders per 10 SECOND.` } });
      expect(over.orders10s).toBe('8');
      expect(openIds(keys.C)).toHaveLength(5);

      // Just under the edge: 4 orders and a batch make 9 > 8; refused, nothing placed, and a single order still passes.
      await freshTenSeconds();
      for (let i = 0; i < 4; i++) await rest(keys.D, 'POST', '/fapi/v1/order', limitOrder('BUY', '40000', '0.01'));
      const refused = await rest(keys.D, 'POST', '/fapi/v1/batchOrders', batchOf(1));
      expect(refused).toMatchObject({ status: 429, body: { code: -1015 } });
      expect(openIds(keys.D)).toHaveLength(4);
      const single = await rest(keys.D, 'POST', '/fapi/v1/order', limitOrder('BUY', '40000', '0.01'));
      expect([single.status, single.orders10s]).toEqual([200, '5']);
    } finally {
      a.ws.close();
    }
  });
});

/** Waits for the start of a 10-second window (the order count's, aligned to the epoch) when less than 6 s are left. */
async function freshTenSeconds(): Promise<void> {
  const left = 10_000 - (t.ctx.clock.now() % 10_000);
  if (left < 6_000) await new Promise((r) => setTimeout(r, left + 50));
}

describe('spot WebSocket API: cancelReplace and order lists', () => {
  const spotUrl = 'ws://127.0.0.1:8157/ws-api/v3';
  it('answers order.cancelReplace and the order list requests with the REST bodies; another user cannot touch the list', async () => {
    const a = await Client.open(spotUrl);
    const b = await Client.open(spotUrl);
    try {
      const buy = (price: string, extra: Params = {}) => ({
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        timeInForce: 'GTC',
        price,
        quantity: '0.01',
        ...extra,
      });
      const first = await call(a, 'order.place', signed(spotKeys.A, buy('30000', { newClientOrderId: 'wscr-old' })));
      expect(first).toMatchObject({ status: 200, result: { status: 'NEW', price: '30000.00' } });
      const replaced = await call(
        a,
        'order.cancelReplace',
        signed(spotKeys.A, { ...buy('29000', { newClientOrderId: 'wscr-new' }), cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrigClientOrderId: 'wscr-old' }),
      );
      expect(replaced).toMatchObject({
        status: 200,
        result: {
          cancelResult: 'SUCCESS',
          newOrderResult: 'SUCCESS',
          cancelResponse: { origClientOrderId: 'wscr-old', status: 'CANCELED', price: '30000.00' },
          newOrderResponse: { clientOrderId: 'wscr-new', status: 'NEW', price: '29000.00' },
        },
      });

      const oco = await call(
        a,
        'orderList.place.oco',
        signed(spotKeys.A, {
          symbol: 'BTCUSDT',
          side: 'SELL',
          quantity: '0.01',
          aboveType: 'LIMIT_MAKER',
          abovePrice: '60000',
          belowType: 'STOP_LOSS_LIMIT',
          belowStopPrice: '20000',
          belowPrice: '19900',
          belowTimeInForce: 'GTC',
          listClientOrderId: 'wsoco-1',
        }),
      );
      expect(oco, JSON.stringify(oco)).toMatchObject({ status: 200, result: { listClientOrderId: 'wsoco-1', contingencyType: 'OCO' } });
      const orderListId = (oco.result as Msg).orderListId as number;
      const viaRest = await rest(spotKeys.A, 'GET', '/api/v3/orderList', { orderListId });
      expect(viaRest.status).toBe(200);
      expect((await call(a, 'orderList.status', signed(spotKeys.A, { orderListId }))).result).toEqual(viaRest.body);
      const open = await call(a, 'openOrderLists.status', signed(spotKeys.A, {}));
      expect(open.result).toEqual((await rest(spotKeys.A, 'GET', '/api/v3/openOrderList')).body);
      expect((open.result as Msg[]).map((l) => l.orderListId)).toEqual([orderListId]);

      // Another user: the list is unknown to them, and stays open.
      expect(await call(b, 'orderList.status', signed(spotKeys.B, { orderListId }))).toMatchObject({ status: 400, error: { code: -2013 } });
      expect(await call(b, 'orderList.cancel', signed(spotKeys.B, { symbol: 'BTCUSDT', orderListId }))).toMatchObject({ status: 400, error: { code: -2011 } });
      expect((await call(a, 'orderList.status', signed(spotKeys.A, { orderListId }))).result).toMatchObject({ listOrderStatus: 'EXECUTING' });

      const cancelled = await call(a, 'orderList.cancel', signed(spotKeys.A, { symbol: 'BTCUSDT', listClientOrderId: 'wsoco-1' }));
      expect(cancelled).toMatchObject({ status: 200, result: { orderListId, listOrderStatus: 'ALL_DONE' } });
      expect((await call(a, 'openOrderLists.status', signed(spotKeys.A, {}))).result).toEqual([]);
    } finally {
      a.ws.close();
      b.ws.close();
    }
  });
});
