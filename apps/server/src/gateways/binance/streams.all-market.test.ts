/**
 * The all-market streams over a real socket (port 8154): spot and futures `!ticker@arr` and `!miniTicker@arr` (each
 * second an array of the per-symbol payloads of the symbols whose ticker changed, and only those), futures
 * `!bookTicker` (a symbol's bookTicker event when its best levels move) and `!markPrice@arr`, on the raw and combined
 * endpoints and through SUBSCRIBE. Values are checked against market data after real orders and trades; spot's
 * retired `!bookTicker` is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { Client } from '../ws/ws-test-support';

type Msg = Record<string, unknown>;
const U = 100_000_000n;
let t: TestApp;
const base = 'ws://127.0.0.1:8154';

const submit = async (cmd: Record<string, unknown>) => {
  const r = await t.ctx.host.submit(cmd as unknown as Command);
  expect(
    r.code,
    JSON.stringify(cmd, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
  ).toBe('ok');
  return r;
};
const open = (path: string) => Client.open(`${base}${path}`);
const next = (c: Client, pred: (m: Msg) => boolean, ms = 5000) => c.next((m) => pred(m as Msg), ms) as Promise<Msg>;
/** The array of a raw or combined message, or undefined. */
const arrayOf = (m: Msg, stream?: string): Msg[] | undefined => {
  if (Array.isArray(m)) return stream === undefined ? (m as Msg[]) : undefined;
  return m.stream === stream && Array.isArray(m.data) ? (m.data as Msg[]) : undefined;
};
const hasSymbol = (arr: Msg[] | undefined, s: string, pred: (x: Msg) => boolean = () => true) => arr?.some((x) => x.s === s && pred(x)) === true;

beforeAll(async () => {
  t = await makeTestApp();
  await t.app.listen({ port: 8154, host: '127.0.0.1' });
  for (const id of ['am-a', 'am-b']) {
    await submit({ type: 'deposit', userId: id, asset: 'BTC', account: 'SPOT', amount: 100n * U, from: '@faucet' });
    await submit({ type: 'deposit', userId: id, asset: 'ETH', account: 'SPOT', amount: 100n * U, from: '@faucet' });
    await submit({ type: 'deposit', userId: id, asset: 'USDT', account: 'SPOT', amount: 10_000_000n * U, from: '@faucet' });
    await submit({ type: 'transfer', userId: id, asset: 'USDT', from: 'SPOT', to: 'CONTRACT', amount: 1_000_000n * U, clientId: `am-${id}` });
  }
});
afterAll(async () => {
  await t?.close();
});

describe('spot all-market streams', () => {
  it('a trade moves the ticker and only that symbol appears in !ticker@arr and !miniTicker@arr, raw and combined', async () => {
    const comb = await open('/stream?streams=!ticker@arr/!miniTicker@arr');
    const raw = await open('/ws/!miniTicker@arr');
    await t.ctx.spot.place('am-a', { pairsName: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', price: '91000.50', amount: '0.25000' });
    await t.ctx.spot.place('am-a', { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', price: '90000.00', amount: '0.10000' });
    await t.ctx.spot.place('am-b', { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'MARKET', amount: '0.05000' });
    const traded = (x: Msg) => x.c === '91000.50';
    const full = arrayOf(await next(comb, (m) => hasSymbol(arrayOf(m, '!ticker@arr'), 'BTCUSDT', traded), 4000), '!ticker@arr')!;
    const mini = arrayOf(await next(comb, (m) => hasSymbol(arrayOf(m, '!miniTicker@arr'), 'BTCUSDT', traded), 4000), '!miniTicker@arr')!;
    const rawMini = arrayOf(await next(raw, (m) => hasSymbol(arrayOf(m), 'BTCUSDT', traded), 4000))!;
    // Only the symbol whose ticker changed: ETH/USDT did not trade.
    for (const arr of [full, mini, rawMini]) expect(arr.map((x) => x.s)).toEqual(['BTCUSDT']);
    const pair = t.ctx.marketData.pair('BTC/USDT', 'SPOT')!;
    const open24 = t.ctx.marketData.open24h('BTC/USDT', 'SPOT') ?? pair.price;
    expect(full[0]).toMatchObject({ e: '24hrTicker', s: 'BTCUSDT', c: '91000.50', o: open24, v: pair.volume, q: pair.quoteVolume, P: pair.updown });
    expect(full[0]).toMatchObject({ b: '90000.00', B: '0.10000', a: '91000.50', A: '0.20000' });
    expect(mini[0]).toEqual({
      e: '24hrMiniTicker',
      E: mini[0]!.E,
      s: 'BTCUSDT',
      c: '91000.50',
      o: open24,
      h: pair.high,
      l: pair.low,
      v: pair.volume,
      q: pair.quoteVolume,
    });
    expect(rawMini[0]).toMatchObject({ s: 'BTCUSDT', c: '91000.50', v: pair.volume });
    // Nothing changed since: no further array within the next interval.
    await expect(next(comb, (m) => arrayOf(m, '!ticker@arr') !== undefined, 1500)).rejects.toThrow('no matching message');
    comb.close();
    raw.close();
  });

  it('subscribes to !ticker@arr by SUBSCRIBE, lists it, and refuses the retired spot !bookTicker', async () => {
    const c = await open('/ws');
    c.send({ method: 'SUBSCRIBE', params: ['!ticker@arr', '!miniTicker@arr'], id: 1 });
    expect(await next(c, (m) => m.id === 1)).toEqual({ result: null, id: 1 });
    c.send({ method: 'LIST_SUBSCRIPTIONS', id: 2 });
    expect(await next(c, (m) => m.id === 2)).toEqual({ result: ['!ticker@arr', '!miniTicker@arr'], id: 2 });
    c.send({ method: 'SUBSCRIBE', params: ['!bookTicker'], id: 3 });
    expect(await next(c, (m) => m.id === 3)).toEqual({ error: { code: 2, msg: "Invalid request: invalid stream name '!bookTicker'" }, id: 3 });
    c.send({ method: 'SUBSCRIBE', params: ['!markPrice@arr'], id: 4 });
    expect(await next(c, (m) => m.id === 4)).toMatchObject({ error: { code: 2 } });
    await t.ctx.spot.place('am-b', { pairsName: 'ETH/USDT', side: 'SELL', orderType: 'LIMIT', price: '3001.00', amount: '0.5000' });
    await t.ctx.spot.place('am-a', { pairsName: 'ETH/USDT', side: 'BUY', orderType: 'MARKET', amount: '0.1000' });
    const arr = arrayOf(await next(c, (m) => hasSymbol(arrayOf(m), 'ETHUSDT', (x) => x.e === '24hrTicker' && x.c === '3001.00'), 4000))!;
    expect(arr.map((x) => x.s)).toEqual(['ETHUSDT']);
    c.send({ method: 'UNSUBSCRIBE', params: ['!ticker@arr'], id: 5 });
    expect(await next(c, (m) => m.id === 5)).toEqual({ result: null, id: 5 });
    c.send({ method: 'LIST_SUBSCRIPTIONS', id: 6 });
    expect(await next(c, (m) => m.id === 6)).toEqual({ result: ['!miniTicker@arr'], id: 6 });
    c.close();
  });
});

describe('futures all-market streams', () => {
  const perp = (userId: string, side: 'BUY' | 'SELL', price: bigint, quantity: bigint) =>
    submit({ type: 'perpPlaceOrder', userId, symbol: 'ETH/USDT', side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity });

  it('!bookTicker pushes a bookTicker event when the best levels move; !ticker@arr and !markPrice@arr carry the values', async () => {
    await submit({ type: 'perpMarkPrice', symbol: 'ETH/USDT', indexPrice: 300_000n });
    const c = await open('/fstream/stream?streams=!bookTicker/!ticker@arr/!miniTicker@arr/!markPrice@arr@1s');
    const raw = await open('/fstream/ws/!bookTicker');
    await perp('am-a', 'SELL', 301_000n, 20_000n);
    await perp('am-b', 'BUY', 299_000n, 10_000n);
    const isTop = (x: Msg | undefined) => x?.s === 'ETHUSDT' && x.a === '3010.00' && x.b === '2990.00';
    const bt = (await next(c, (m) => m.stream === '!bookTicker' && isTop(m.data as Msg))).data as Msg;
    const d = t.ctx.perpMarket.depth('ETH/USDT', 1)!;
    expect(bt).toMatchObject({ e: 'bookTicker', s: 'ETHUSDT', b: d.bids[0]![0], B: d.bids[0]![1], a: d.asks[0]![0], A: d.asks[0]![1] });
    expect(typeof bt.u).toBe('number');
    expect(await next(raw, (m) => isTop(m))).toMatchObject({ e: 'bookTicker', a: '3010.00', b: '2990.00' });

    await submit({ type: 'perpMarkPrice', symbol: 'ETH/USDT', indexPrice: 300_500n });
    const mk = arrayOf(await next(c, (m) => hasSymbol(arrayOf(m, '!markPrice@arr@1s'), 'ETHUSDT', (x) => x.p === '3005.00'), 4000), '!markPrice@arr@1s')!;
    expect(mk.find((x) => x.s === 'ETHUSDT')).toMatchObject({ e: 'markPriceUpdate', p: '3005.00', i: '3005.00' });
    const tk = arrayOf(await next(c, (m) => hasSymbol(arrayOf(m, '!ticker@arr'), 'ETHUSDT'), 4000), '!ticker@arr')!;
    const row = t.ctx.perpMarket.market('ETH/USDT')!;
    expect(tk.map((x) => x.s)).toEqual(['ETHUSDT']);
    expect(tk[0]).toMatchObject({ e: '24hrTicker', s: 'ETHUSDT', c: row.lastPrice === '' ? row.markPrice : row.lastPrice, v: row.volume24h, P: row.change24h });
    expect(tk[0]).not.toHaveProperty('b'); // futures tickers carry no best levels
    const mini = arrayOf(await next(c, (m) => hasSymbol(arrayOf(m, '!miniTicker@arr'), 'ETHUSDT'), 4000), '!miniTicker@arr')!;
    expect(mini[0]).toMatchObject({ e: '24hrMiniTicker', s: 'ETHUSDT', c: tk[0]!.c, o: tk[0]!.o, v: row.volume24h });
    c.close();
    raw.close();
  });

  it('sends every perpetual its current book ticker on SUBSCRIBE to !bookTicker', async () => {
    const c = await open('/fstream/ws');
    c.send({ method: 'SUBSCRIBE', params: ['!bookTicker'], id: 1 });
    expect(await next(c, (m) => m.id === 1)).toEqual({ result: null, id: 1 });
    const first = await next(c, (m) => m.e === 'bookTicker' && m.s === 'ETHUSDT');
    expect(first).toMatchObject({ b: '2990.00', a: '3010.00' });
    c.close();
  });
});
