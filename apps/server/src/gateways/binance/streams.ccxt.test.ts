/**
 * CCXT Pro 4.5.84 (its binance class unchanged, only the URLs pointed here) parses our streams: watchOrderBook keeps
 * a spot book equal to our depth through live orders, watchTrades sees the trade with its values. The spot socket
 * URL is ws://host/stream/ws (docs/binance-api.md: CCXT tells spot from futures by "/stream" in the URL). The full
 * CCXT suite is test/ccxt (the `ccxt` helper's); this one guards the stream formats.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import type { Command } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { binanceUrls, closePro } from '../../../test/ccxt/ccxt-urls';
import { createTestKey } from '../../../test/ccxt/ccxt-test-support';
import { loginNewUser } from '../ws/ws-test-support';
import { binanceStreamsOf } from './streams.routes';

const U = 100_000_000n;
let t: TestApp;
let http: string;
let ws: string;

beforeAll(async () => {
  t = await makeTestApp();
  await t.app.listen({ port: 8151, host: '127.0.0.1' });
  http = 'http://127.0.0.1:8151';
  ws = 'ws://127.0.0.1:8151';
  for (const id of ['cx-a', 'cx-b']) {
    for (const [asset, amount] of [
      ['BTC', 100n * U],
      ['USDT', 10_000_000n * U],
    ] as const) {
      const r = await t.ctx.host.submit({ type: 'deposit', userId: id, asset, account: 'SPOT', amount, from: '@faucet' } as unknown as Command);
      expect(r.code).toBe('ok');
    }
  }
});
afterAll(async () => {
  await t?.close();
});

describe('CCXT Pro against the spot streams', () => {
  it('watchOrderBook stays equal to our book, watchTrades sees the trade', async () => {
    const ex = new ccxt.pro.binance({
      urls: {
        api: {
          public: `${http}/api/v3`,
          private: `${http}/api/v3`,
          v1: `${http}/api/v1`,
          ws: { spot: `${ws}/stream/ws`, 'ws-api': { spot: `${ws}/ws-api/v3` } },
        },
      },
      options: { fetchMarkets: { types: ['spot'] }, fetchCurrencies: false },
    });
    try {
      await ex.loadHttpProxyAgent();
      await ex.loadMarkets();
      const place = (userId: string, side: 'BUY' | 'SELL', price: string, amount: string) =>
        t.ctx.spot.place(userId, { pairsName: 'BTC/USDT', side, orderType: 'LIMIT', price, amount });
      await place('cx-a', 'SELL', '95000.00', '0.30000');
      let book = await ex.watchOrderBook('BTC/USDT');
      for (let i = 0; i < 20; i++) {
        await place('cx-a', 'SELL', (95000 + i).toFixed(2), '0.01000');
        await place('cx-b', 'BUY', (90000 - i).toFixed(2), '0.01000');
      }
      // The trade stream's SUBSCRIBE goes out when watchTrades is called and takes effect when the server reads it:
      // a trade made before that is not on the stream, so the market order is repeated until one arrives (at most 10).
      const tradeP = ex.watchTrades('BTC/USDT');
      let trades: Awaited<typeof tradeP> | undefined;
      for (let i = 0; i < 10 && trades === undefined; i++) {
        await t.ctx.spot.place('cx-b', { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'MARKET', amount: '0.05000' });
        trades = await Promise.race([tradeP, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 500))]);
      }
      if (trades === undefined) throw new Error('no trade on the stream after 10 market orders');
      expect(trades.at(-1)).toMatchObject({ symbol: 'BTC/USDT', price: 95000, amount: 0.05, side: 'buy' });
      const want = t.ctx.marketData.depth('BTC/USDT', 'SPOT', 1000);
      const deadline = Date.now() + 5000;
      while ((book.nonce ?? 0) < want.seq && Date.now() < deadline) book = await ex.watchOrderBook('BTC/USDT');
      expect(book.nonce).toBe(want.seq);
      expect(book.asks.slice(0, 25).map(([p, q]) => [p, q])).toEqual(want.asks.slice(0, 25).map(([p, q]) => [Number(p), Number(q)]));
      expect(book.bids.slice(0, 25).map(([p, q]) => [p, q])).toEqual(want.bids.slice(0, 25).map(([p, q]) => [Number(p), Number(q)]));
    } finally {
      await closePro(ex);
    }
  });
});

describe('CCXT Pro against the futures streams', () => {
  it('watchOrderBook equal to our perpetual book, watchOrders with the fill, spot and swap markets both loaded', async () => {
    const sym = 'ETH/USDT';
    const alice = (await loginNewUser(t, 'fut-alice@ccxt.test')).userId;
    const bob = (await loginNewUser(t, 'fut-bob@ccxt.test')).userId;
    for (const id of [alice, bob]) {
      const r = await t.ctx.host.submit({
        type: 'deposit',
        userId: id,
        asset: 'USDT',
        account: 'CONTRACT',
        amount: 100_000n * U,
        from: '@faucet',
      } as unknown as Command);
      expect(r.code).toBe('ok');
    }
    expect((await t.ctx.host.submit({ type: 'perpMarkPrice', symbol: sym, indexPrice: 300_000n } as unknown as Command)).code).toBe('ok');
    const key = await createTestKey(t, alice, 'fut-alice@ccxt.test', { futuresTrade: true });
    const ex = new ccxt.pro.binance({ apiKey: key.apiKey, secret: key.secret, urls: binanceUrls(http) });
    const perp = (cmd: Record<string, unknown>) =>
      t.ctx.host.submit({ type: 'perpPlaceOrder', symbol: sym, orderType: 'LIMIT', timeInForce: 'GTC', ...cmd } as unknown as Command);
    try {
      await ex.loadHttpProxyAgent();
      await ex.loadMarkets();
      expect(ex.markets?.['ETH/USDT:USDT']).toBeDefined();
      await perp({ userId: bob, side: 'SELL', price: 301_000n, quantity: 10_000n });
      let book = await ex.watchOrderBook('ETH/USDT:USDT');
      const ordersP = ex.watchOrders('ETH/USDT:USDT');
      // watchOrders posts a listenKey, then dials the private URL: wait until the server has bound it.
      const hubDeadline = Date.now() + 10_000;
      while ((binanceStreamsOf(t.ctx)?.hub?.stats().userSinks ?? 0) === 0 && Date.now() < hubDeadline) await new Promise((r) => setTimeout(r, 50));
      expect(binanceStreamsOf(t.ctx)?.hub?.stats().userSinks).toBe(1);
      for (let i = 0; i < 10; i++) await perp({ userId: bob, side: 'BUY', price: 299_000n - BigInt(i * 100), quantity: 1_000n });
      const taken = await perp({ userId: alice, side: 'BUY', orderType: 'MARKET', timeInForce: 'IOC', quantity: 2_000n });
      const orders = await ordersP;
      expect(orders[0]).toMatchObject({ id: taken.perpOrder!.orderId, symbol: 'ETH/USDT:USDT', side: 'buy' });
      const want = t.ctx.perpMarket.depth(sym, 1000)!;
      const seq = t.ctx.perpMarket.depthSeq(sym);
      const deadline = Date.now() + 5000;
      while ((book.nonce ?? 0) < seq && Date.now() < deadline) book = await ex.watchOrderBook('ETH/USDT:USDT');
      expect(book.nonce).toBe(seq);
      expect(book.asks.map(([p, q]) => [p, q])).toEqual(want.asks.map(([p, q]) => [Number(p), Number(q)]));
      expect(book.bids.map(([p, q]) => [p, q])).toEqual(want.bids.map(([p, q]) => [Number(p), Number(q)]));
      // spot keeps its own book on the /stream/ws URL while the swap of the same id is loaded
      const spot = await ex.watchOrderBook('BTC/USDT');
      expect(spot.nonce).toBe(t.ctx.marketData.depth('BTC/USDT', 'SPOT', 1).seq);
    } finally {
      await closePro(ex);
    }
  });
});
