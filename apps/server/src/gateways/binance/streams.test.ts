/**
 * Binance market streams over a real socket (the `ws` client against app.listen on port 8150): subscribe and
 * control messages ({result:null,id}, LIST_SUBSCRIPTIONS, errors in Binance's shape), raw and combined payloads of
 * trade, aggTrade, kline, bookTicker, partial depth and ticker after real orders, the diff depth sync exactly as
 * Binance documents it against the engine's book after a burst of orders, the futures mark price, the message rate
 * and stream limits, and that the app's own socket /ws/websocket still answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { fromUnits } from '../../platform/shared/decimal';
import { Client } from '../ws/ws-test-support';

type Msg = Record<string, unknown>;
const U = 100_000_000n;
let t: TestApp;
let base: string;

const submit = async (cmd: Record<string, unknown>) => {
  const r = await t.ctx.host.submit(cmd as unknown as Command);
  expect(r.code).toBe('ok');
};
const open = async (path: string) => Client.open(`${base}${path}`);
/** The next message of `c` matching `pred` (messages of this protocol have no channel field). */
const next = (c: Client, pred: (m: Msg) => boolean, ms = 5000) => c.next((m) => pred(m as Msg), ms) as Promise<Msg>;
const place = (userId: string, side: 'BUY' | 'SELL', price: string, amount: string, pairsName = 'BTC/USDT') =>
  t.ctx.spot.place(userId, { pairsName, side, orderType: 'LIMIT', price, amount });

beforeAll(async () => {
  t = await makeTestApp();
  await t.app.listen({ port: 8150, host: '127.0.0.1' });
  base = 'ws://127.0.0.1:8150';
  for (const id of ['bs-a', 'bs-b']) {
    await submit({ type: 'deposit', userId: id, asset: 'BTC', account: 'SPOT', amount: 100n * U, from: '@faucet' });
    await submit({ type: 'deposit', userId: id, asset: 'USDT', account: 'SPOT', amount: 10_000_000n * U, from: '@faucet' });
  }
});
afterAll(async () => {
  await t?.close();
});

describe('control messages', () => {
  it('subscribes, lists, unsubscribes and answers bad requests in Binance shapes without closing', async () => {
    const c = await open('/ws/0');
    c.send({ method: 'SUBSCRIBE', params: ['btcusdt@trade', 'BTCUSDT@aggTrade'], id: 1 });
    expect(await next(c, (m) => m.id === 1)).toEqual({ result: null, id: 1 });
    c.send({ method: 'LIST_SUBSCRIPTIONS', id: 2 });
    expect(await next(c, (m) => m.id === 2)).toEqual({ result: ['btcusdt@trade', 'btcusdt@aggTrade'], id: 2 });
    c.send({ method: 'UNSUBSCRIBE', params: ['btcusdt@trade'], id: 3 });
    expect(await next(c, (m) => m.id === 3)).toEqual({ result: null, id: 3 });
    c.send({ method: 'GET_PROPERTY', params: ['combined'], id: 4 });
    expect(await next(c, (m) => m.id === 4)).toEqual({ result: false, id: 4 });
    await new Promise((r) => setTimeout(r, 1100)); // the message budget (5 a second) refills
    c.send({ method: 'SUBSCRIBE', params: ['nopeusdt@trade'], id: 5 });
    expect(await next(c, (m) => m.id === 5)).toEqual({ error: { code: 2, msg: "Invalid request: invalid stream name 'nopeusdt@trade'" }, id: 5 });
    c.send({ method: 'SUBSCRIBE', params: ['btcusdt@markPrice'], id: 6 }); // a futures stream on a spot socket
    expect(await next(c, (m) => m.id === 6)).toMatchObject({ error: { code: 2 } });
    c.send({ method: 'DANCE', id: 7 });
    expect(await next(c, (m) => m.id === 7)).toMatchObject({ error: { code: 2, msg: expect.stringContaining('unknown variant DANCE') as unknown } });
    await new Promise((r) => setTimeout(r, 1100)); // the message budget refills
    c.send('{');
    expect(await next(c, (m) => m.error !== undefined && m.id === null)).toMatchObject({ error: { code: 3 } });
    c.send({ method: 'SET_PROPERTY', params: ['combined', 'yes'], id: 8 });
    expect(await next(c, (m) => m.id === 8)).toEqual({ error: { code: 1, msg: 'Invalid value type: expected Boolean' }, id: 8 });
    c.send({ method: 'LIST_SUBSCRIPTIONS', id: 9 });
    expect(await next(c, (m) => m.id === 9)).toEqual({ result: ['btcusdt@aggTrade'], id: 9 });
    expect(c.closed).toBeNull();
    c.close();
  });

  it('closes a connection over 5 messages a second, and keeps the app socket at /ws/websocket', async () => {
    const c = await open('/ws');
    for (let i = 0; i < 8; i++) c.send({ method: 'LIST_SUBSCRIPTIONS', id: i });
    expect((await c.whenClosed()).code).toBe(1008);
    const app = await open('/ws/websocket');
    app.send({ op: 'ping' });
    expect(await app.next((m) => m.channel === 'pong')).toEqual({ channel: 'pong' });
    app.close();
  });
});

describe('spot market streams', () => {
  it('pushes trade, aggTrade, kline, bookTicker and partial depth after real orders, raw and combined', async () => {
    const raw = await open('/ws/btcusdt@trade');
    const comb = await open('/stream?streams=btcusdt@aggTrade/btcusdt@kline_1m/btcusdt@bookTicker/btcusdt@depth5@100ms');
    // the current book first on the partial book stream
    const first = await next(comb, (m) => m.stream === 'btcusdt@depth5@100ms');
    expect(first.data).toMatchObject({ lastUpdateId: expect.any(Number) as unknown, bids: expect.any(Array) as unknown });

    await place('bs-a', 'SELL', '91000.50', '0.25000');
    await place('bs-a', 'BUY', '90000.00', '0.10000');
    const book = await next(comb, (m) => m.stream === 'btcusdt@bookTicker' && (m.data as Msg).a === '91000.50' && (m.data as Msg).b === '90000.00');
    expect(book.data).toEqual({ u: t.ctx.marketData.depth('BTC/USDT', 'SPOT', 1).seq, s: 'BTCUSDT', b: '90000.00', B: '0.10000', a: '91000.50', A: '0.25000' });
    const d5 = await next(comb, (m) => m.stream === 'btcusdt@depth5@100ms' && ((m.data as { asks: string[][] }).asks[0] ?? [])[0] === '91000.50');
    expect((d5.data as { bids: string[][] }).bids[0]).toEqual(['90000.00', '0.10000']);

    await t.ctx.spot.place('bs-b', { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'MARKET', amount: '0.05000' });
    const tr = await next(raw, (m) => m.e === 'trade');
    expect(tr).toMatchObject({ e: 'trade', s: 'BTCUSDT', p: '91000.50', q: '0.05000', m: false, M: true });
    expect(typeof tr.t).toBe('number');
    expect(tr.T).toBeLessThanOrEqual(tr.E as number);
    const agg = await next(comb, (m) => m.stream === 'btcusdt@aggTrade');
    expect(agg.data).toMatchObject({ e: 'aggTrade', s: 'BTCUSDT', a: tr.t, f: tr.t, l: tr.t, p: '91000.50', q: '0.05000', m: false });
    const kl = await next(comb, (m) => m.stream === 'btcusdt@kline_1m' && (m.data as { k: Msg }).k.c === '91000.50', 3000);
    const k = (kl.data as { k: Msg }).k;
    expect(k).toMatchObject({ s: 'BTCUSDT', i: '1m', c: '91000.50', x: false });
    expect((k.T as number) - (k.t as number)).toBe(59_999);
    const book2 = await next(comb, (m) => m.stream === 'btcusdt@bookTicker' && (m.data as Msg).A === '0.20000');
    expect(book2.data).toMatchObject({ a: '91000.50', A: '0.20000' });
    raw.close();
    comb.close();
  });

  it('pushes the 24h ticker and mini ticker with exact values', async () => {
    const c = await open('/stream?streams=btcusdt@ticker/btcusdt@miniTicker');
    const tk = await next(c, (m) => m.stream === 'btcusdt@ticker', 8000);
    const pair = t.ctx.marketData.pair('BTC/USDT', 'SPOT')!;
    expect(tk.data).toMatchObject({
      e: '24hrTicker',
      s: 'BTCUSDT',
      c: pair.price,
      v: pair.volume,
      q: pair.quoteVolume,
      P: pair.updown,
      h: pair.high,
      l: pair.low,
    });
    const open24 = t.ctx.marketData.open24h('BTC/USDT', 'SPOT') ?? pair.price;
    const d = tk.data as Msg;
    expect(d.o).toBe(open24);
    // p = c - o, exactly (cents)
    expect(BigInt((d.p as string).replace('.', ''))).toBe(BigInt(pair.price.replace('.', '')) - BigInt(open24.replace('.', '')));
    const mini = await next(c, (m) => m.stream === 'btcusdt@miniTicker', 8000);
    expect(mini.data).toMatchObject({ e: '24hrMiniTicker', s: 'BTCUSDT', c: pair.price, v: pair.volume });
    c.close();
  });

  it('keeps a local book in sync from the snapshot and the diff stream, as Binance documents it', async () => {
    const c = await open('/ws/ethusdt@depth@100ms');
    const events: Msg[] = [];
    c.ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as Msg;
      if (m.e === 'depthUpdate') events.push(m);
    });
    // orders before and after the snapshot, so the first events straddle it
    const rnd = (() => {
      let s = 7;
      return () => (s = (s * 48271) % 2147483647) / 2147483647;
    })();
    const burst = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const buy = rnd() < 0.5;
        const off = Math.floor(rnd() * 40) - 8; // some cross the other side
        const price = (3000 + (buy ? -off : off)).toFixed(2);
        await place(buy ? 'bs-a' : 'bs-b', buy ? 'BUY' : 'SELL', price, (0.01 + Math.floor(rnd() * 50) / 100).toFixed(4), 'ETH/USDT').catch(() => undefined);
      }
    };
    await burst(30);
    const snap = t.ctx.marketData.depth('ETH/USDT', 'SPOT', 5000); // what GET /api/v3/depth answers, lastUpdateId = seq
    await burst(120);
    const finalSeq = t.ctx.marketData.depth('ETH/USDT', 'SPOT', 1).seq;
    const deadline = Date.now() + 5000;
    while (!events.some((e) => e.u === finalSeq) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    const bids = new Map(snap.bids);
    const asks = new Map(snap.asks);
    let last = snap.seq;
    let first = true;
    for (const e of events) {
      const Ue = e.U as number;
      const ue = e.u as number;
      if (ue <= snap.seq) continue; // already in the snapshot
      if (first) expect(Ue <= snap.seq + 1 && ue >= snap.seq + 1).toBe(true);
      else expect(Ue).toBe(last + 1);
      first = false;
      const apply = (side: Map<string, string>, rows: Array<[string, string]>) => {
        for (const [p, q] of rows) {
          if (q === '0.0000') side.delete(p);
          else side.set(p, q);
        }
      };
      apply(bids, e.b as Array<[string, string]>);
      apply(asks, e.a as Array<[string, string]>);
      last = ue;
    }
    expect(last).toBe(finalSeq);
    const engine = t.ctx.host.engine.depth('ETH/USDT', 1_000_000);
    const rows = (levels: Array<{ price: bigint; quantity: bigint }>) => levels.map((l) => [fromUnits(l.price, 2), fromUnits(l.quantity, 4)]);
    const sorted = (m: Map<string, string>, desc: boolean) => [...m].sort((a, b) => (desc ? Number(b[0]) - Number(a[0]) : Number(a[0]) - Number(b[0])));
    expect(sorted(bids, true)).toEqual(rows(engine.bids));
    expect(sorted(asks, false)).toEqual(rows(engine.asks));
    expect(engine.bids.length + engine.asks.length).toBeGreaterThan(10);
    c.close();
  });
});

describe('futures market streams', () => {
  it('pushes markPrice@1s with the mark, index, funding rate and next funding time', async () => {
    const c = await open('/fstream/market/ws/ethusdt@markPrice@1s');
    await submit({ type: 'perpMarkPrice', symbol: 'ETH/USDT', indexPrice: 300_000n });
    const m = await next(c, (x) => x.e === 'markPriceUpdate' && x.p === '3000.00', 3000);
    const st = t.ctx.host.engine.perpMarkState('ETH/USDT')!;
    expect(m).toMatchObject({ s: 'ETHUSDT', p: '3000.00', i: '3000.00', r: fromUnits(BigInt(st.predictedFundingRateE8), 8), T: st.nextFundingTs });
    const all = await open('/fstream/ws/!markPrice@arr@1s');
    const arr = await next(all, (x) => Array.isArray(x) || Array.isArray((x as { 0?: unknown })[0]), 3000).catch(() => null);
    expect(arr).not.toBeNull();
    c.close();
    all.close();
  });
  it("pushes the futures 24h ticker with the window's exact open, the REST ticker's", async () => {
    const c = await open('/fstream/market/ws/ethusdt@ticker');
    await submit({ type: 'perpMarkPrice', symbol: 'ETH/USDT', indexPrice: 300_100n });
    const tk = await next(c, (x) => x.e === '24hrTicker', 8000);
    const rest = (await t.app.inject({ method: 'GET', url: '/fapi/v1/ticker/24hr?symbol=ETHUSDT' })).json() as { openPrice: string; lastPrice: string };
    expect(tk).toMatchObject({ s: 'ETHUSDT', o: rest.openPrice });
    // p = c - o, exactly (cents)
    const cents = (v: unknown) => BigInt(String(v).replace('.', ''));
    expect(cents(tk.p)).toBe(cents(tk.c) - cents(tk.o));
    c.close();
  });
});
