/**
 * The WebSocket gateway over a real socket (app.listen on port 0 and the `ws` client): ping, errors in the
 * socket's language without closing it, depth snapshot then deltas (coalesced or not) with consecutive seq/prevSeq
 * that rebuild the same book as getDepth, trades/ticker/kline pushes after real matches, and private orders/balances after auth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { registerEmail } from '../../domains/member/member-test-app';
import { fakeReferencePaths } from '../../domains/market-data/fake-reference-paths';
import { Client } from './ws-test-support';

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await makeTestApp();
  await t.ctx.marketData.setReferencePaths(fakeReferencePaths(Date.now()));
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = address.replace(/^http/, 'ws') + '/ws/websocket';
  await t.ctx.host.submit({ type: 'deposit', userId: 'mm-ws-a', asset: 'BTC', account: 'SPOT', amount: 100_000_000n, from: '@faucet' });
  await t.ctx.host.submit({ type: 'deposit', userId: 'mm-ws-b', asset: 'USDT', account: 'SPOT', amount: 100_000_00000000n, from: '@faucet' });
});
afterAll(async () => {
  await t?.close();
});

describe('protocol errors', () => {
  it('answers ping and reports bad messages in the socket language without closing', async () => {
    const en = await Client.open(`${base}?lang=en`);
    en.send({ op: 'ping' });
    expect(await en.next((m) => m.channel === 'pong')).toEqual({ channel: 'pong' });
    const bad: unknown[] = [
      'not json',
      '[1,2]',
      'null',
      { op: 'dance' },
      { op: 'subscribe', channel: 'news', pairsName: 'BTC/USDT' },
      { op: 'subscribe', channel: 'depth', pairsName: 'btc/usdt' },
      { op: 'subscribe', channel: 'depth', pairsName: 'BTC/USDT', type: 'FUTURES' },
      { op: 'subscribe', channel: 'kline', pairsName: 'BTC/USDT' },
      { op: 'subscribe', channel: 'kline', pairsName: 'BTC/USDT', period: '2min' },
      { op: 'subscribe', channel: 'ticker', pairsName: 'A'.repeat(50_000) },
    ];
    for (const m of bad) {
      en.send(m);
      expect(await en.next((x) => x.channel === 'error')).toEqual({
        channel: 'error',
        errorCode: 'validation_failed',
        errorMessage: 'Invalid request parameters',
      });
    }
    en.send({ op: 'subscribe', channel: 'ticker', pairsName: 'FOO/USDT' });
    expect(await en.next((x) => x.channel === 'error')).toMatchObject({ errorCode: 'market_not_found', errorMessage: 'Trading pair not found' });
    en.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await en.next((x) => x.channel === 'error')).toMatchObject({ errorCode: 'validation_failed' });
    en.send({ op: 'ping' });
    await en.next((m) => m.channel === 'pong');
    en.close();

    const zh = await Client.open(base);
    zh.send('{');
    expect(await zh.next((x) => x.channel === 'error')).toEqual({ channel: 'error', errorCode: 'validation_failed', errorMessage: '请求参数无效' });
    zh.close();
  });
});

describe('public channels', () => {
  it('sends a depth snapshot then consecutive deltas that rebuild the book', async () => {
    const c = await Client.open(base);
    c.send({ op: 'subscribe', channel: 'depth', pairsName: 'BTC/USDT' });
    c.send({ op: 'subscribe', channel: 'trades', pairsName: 'BTC/USDT' });
    c.send({ op: 'subscribe', channel: 'ticker', pairsName: 'BTC/USDT' });
    c.send({ op: 'subscribe', channel: 'kline', pairsName: 'BTC/USDT', type: 'SPOT', period: '1min' });
    const snap = await c.next((m) => m.channel === 'depth');
    expect(snap).toMatchObject({ pairsName: 'BTC/USDT', type: 'SPOT', kind: 'snapshot' });
    await c.next((m) => m.channel === 'trades'); // the recent trades on subscribe
    const book = { bids: new Map<string, string>(), asks: new Map<string, string>() };
    const data0 = snap.data as { bids: string[][]; asks: string[][] };
    for (const [p, q] of data0.bids) book.bids.set(p!, q!);
    for (const [p, q] of data0.asks) book.asks.set(p!, q!);

    const place = t.ctx.spot.place.bind(t.ctx.spot);
    await place('mm-ws-a', { pairsName: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', price: '91000', amount: '0.05' });
    await place('mm-ws-a', { pairsName: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', price: '91000.01', amount: '0.01' });
    await place('mm-ws-b', { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', price: '90500', amount: '0.02' });
    const taker = await place('mm-ws-b', { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', price: '91000', amount: '0.03' });
    expect(taker.status).toBe('FILLED');
    const cancelled = await place('mm-ws-b', { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', price: '90400', amount: '0.01' });
    await t.ctx.spot.cancel('mm-ws-b', { id: cancelled.id });

    // Six commands changed the book; their deltas may be coalesced (one flush per FLUSH_MS), each continuing the last.
    const rest = (await t.app.inject('/api/data/data/getDepth?pairsName=BTC/USDT&limit=200')).json().result as {
      seq: number;
      bids: string[][];
      asks: string[][];
    };
    expect(rest.seq).toBe((snap.seq as number) + 6);
    let seq = snap.seq as number;
    while (seq < rest.seq) {
      const d = await c.next((m) => m.channel === 'depth');
      expect(d.kind).toBe('delta');
      expect(d.prevSeq).toBe(seq);
      expect(d.seq).toBeGreaterThan(seq);
      seq = d.seq as number;
      const data = d.data as { bids: string[][]; asks: string[][] };
      for (const [side, rows] of [
        ['bids', data.bids],
        ['asks', data.asks],
      ] as const) {
        for (const [p, q] of rows) {
          if (/^0\.?0*$/.test(q!)) book[side].delete(p!);
          else book[side].set(p!, q!);
        }
      }
    }
    expect(seq).toBe(rest.seq);
    const sortDesc = (m: Map<string, string>) => [...m].sort((a, b) => Number(b[0]) - Number(a[0]));
    const sortAsc = (m: Map<string, string>) => [...m].sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(sortDesc(book.bids)).toEqual(rest.bids);
    expect(sortAsc(book.asks)).toEqual(rest.asks);
    expect(rest.asks).toEqual([
      ['91000.00', '0.02000'],
      ['91000.01', '0.01000'],
    ]);
    expect(rest.bids).toEqual([['90500.00', '0.02000']]);

    const trades = await c.next((m) => m.channel === 'trades' && (m.data as unknown[]).length > 0);
    expect(trades.data).toMatchObject([{ price: '91000.00', amount: '0.03000', side: 'BUY' }]);
    const ticker = await c.next((m) => m.channel === 'ticker' && (m.data as { price: string }).price === '91000.00', 3000);
    expect(ticker).toMatchObject({ pairsName: 'BTC/USDT', type: 'SPOT' });
    const kline = await c.next((m) => m.channel === 'kline' && (m.data as { close: string }).close === '91000.00', 3000);
    expect(kline).toMatchObject({ pairsName: 'BTC/USDT', type: 'SPOT', period: '1min' });

    // After unsubscribing, no more depth messages arrive for this socket.
    c.send({ op: 'unsubscribe', channel: 'depth', pairsName: 'BTC/USDT' });
    c.send({ op: 'ping' });
    await c.next((m) => m.channel === 'pong');
    const before = c.messages.filter((m) => m.channel === 'depth').length;
    await place('mm-ws-a', { pairsName: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', price: '92000', amount: '0.01' });
    c.send({ op: 'ping' });
    await c.next((m) => m.channel === 'pong');
    expect(c.messages.filter((m) => m.channel === 'depth').length).toBe(before);
    c.close();
  });
});

describe('private channels', () => {
  it("refuses a bad token and pushes the user's orders and balances after auth", async () => {
    const c = await Client.open(`${base}?lang=en`);
    c.send({ op: 'auth', token: 'nope', userId: '1' });
    expect(await c.next((m) => m.channel === 'auth')).toEqual({ channel: 'auth', ok: false, errorCode: 'SYS.0015' });
    c.send({ op: 'auth', token: '', userId: '' });
    expect(await c.next((m) => m.channel === 'auth')).toEqual({ channel: 'auth', ok: false, errorCode: 'unauthorized' });

    const s = await registerEmail(t, `ws-${Date.now()}@example.com`);
    c.send({ op: 'auth', token: s.token, userId: s.userId });
    expect(await c.next((m) => m.channel === 'auth')).toEqual({ channel: 'auth', ok: true });

    const order = await t.ctx.spot.place(s.userId, { pairsName: 'ETH/USDT', side: 'BUY', orderType: 'LIMIT', price: '2000', amount: '0.5' });
    const pushed = await c.next((m) => m.channel === 'orders');
    expect(pushed.data).toMatchObject({ id: order.id, pairsName: 'ETH/USDT', side: 'BUY', price: '2000.00', amount: '0.5000', status: 'NEW' });
    const bal = await c.next((m) => m.channel === 'balances' && (m.data as { coin: string }).coin === 'USDT');
    expect(bal.data).toEqual({ account: 'SPOT', coin: 'USDT', available: '9000.00000000', frozen: '1000.00000000' });

    // Another user's activity is not pushed to this socket.
    const count = c.messages.filter((m) => m.channel === 'orders').length;
    await t.ctx.spot.place('mm-ws-b', { pairsName: 'ETH/USDT', side: 'BUY', orderType: 'LIMIT', price: '1999', amount: '0.01' });
    c.send({ op: 'ping' });
    await c.next((m) => m.channel === 'pong');
    expect(c.messages.filter((m) => m.channel === 'orders').length).toBe(count);
    c.close();
  });
});
