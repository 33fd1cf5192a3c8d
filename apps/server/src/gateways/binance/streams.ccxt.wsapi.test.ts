/**
 * Stock CCXT Pro 4.5.84 (its binance class unchanged, only the URLs pointed here, test/ccxt/ccxt-urls.ts) over the
 * all-market streams and the WebSocket API (port 8156): watchTickers() without symbols (spot `!ticker@arr`) sees a
 * trade's price, watchBidsAsks() without symbols on the perpetuals (`!bookTicker`) sees the new best levels, and
 * createOrderWs, fetchOpenOrdersWs and fetchBalanceWs (ws-api order.place, openOrders.status, account.status) place,
 * list and read with the values REST shows (fetchBalanceWs: in `info`, see the test).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import type { Command } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { binanceUrls, closePro } from '../../../test/ccxt/ccxt-urls';
import { createTestKey } from '../../../test/ccxt/ccxt-test-support';
import { loginNewUser } from '../ws/ws-test-support';

const U = 100_000_000n;
const http = 'http://127.0.0.1:8156';
let t: TestApp;
let alice = '';
let bob = '';

const submit = async (cmd: Record<string, unknown>) => {
  const r = await t.ctx.host.submit(cmd as unknown as Command);
  expect(r.code).toBe('ok');
};
/** Resolves `p`, or undefined after `ms`. */
const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms))]);

beforeAll(async () => {
  t = await makeTestApp();
  await t.app.listen({ port: 8156, host: '127.0.0.1' });
  alice = (await loginNewUser(t, 'wsapi-alice@ccxt.test')).userId;
  bob = (await loginNewUser(t, 'wsapi-bob@ccxt.test')).userId;
  for (const id of [alice, bob]) {
    await submit({ type: 'deposit', userId: id, asset: 'BTC', account: 'SPOT', amount: 10n * U, from: '@faucet' });
    await submit({ type: 'deposit', userId: id, asset: 'USDT', account: 'SPOT', amount: 1_000_000n * U, from: '@faucet' });
    await submit({ type: 'deposit', userId: id, asset: 'USDT', account: 'CONTRACT', amount: 100_000n * U, from: '@faucet' });
  }
});
afterAll(async () => {
  await t?.close();
});

describe('CCXT Pro: all-market streams', () => {
  it('watchTickers() without symbols sees the trade; watchBidsAsks() on the perpetuals sees the new best levels', async () => {
    const ex = new ccxt.pro.binance({ urls: binanceUrls(http), options: { fetchMarkets: { types: ['spot', 'linear'] }, fetchCurrencies: false } });
    try {
      await ex.loadHttpProxyAgent();
      await ex.loadMarkets();
      await t.ctx.spot.place(bob, { pairsName: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', price: '91000.50', amount: '1.00000' });
      // The SUBSCRIBE takes effect when the server reads it: trade until the array carries the price (at most 10 s).
      const tickersP = ex.watchTickers();
      let tickers: Awaited<typeof tickersP> | undefined;
      for (let i = 0; i < 10 && tickers?.['BTC/USDT']?.last !== 91000.5; i++) {
        await t.ctx.spot.place(alice, { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'MARKET', amount: '0.01000' });
        tickers = await within(i === 0 ? tickersP : ex.watchTickers(), 1500);
      }
      const pair = t.ctx.marketData.pair('BTC/USDT', 'SPOT')!;
      expect(tickers?.['BTC/USDT']).toMatchObject({ symbol: 'BTC/USDT', last: 91000.5, baseVolume: Number(pair.volume) });

      const perp = (userId: string, side: 'BUY' | 'SELL', price: bigint) =>
        submit({ type: 'perpPlaceOrder', userId, symbol: 'ETH/USDT', side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: 10_000n });
      await submit({ type: 'perpMarkPrice', symbol: 'ETH/USDT', indexPrice: 300_000n });
      await perp(bob, 'SELL', 301_000n);
      await perp(alice, 'BUY', 299_000n);
      let quotes = await ex.watchBidsAsks(undefined, { type: 'swap' });
      for (let i = 0; i < 10 && quotes['ETH/USDT:USDT']?.bid !== 2990.5; i++) {
        if (i === 0) await perp(alice, 'BUY', 299_050n);
        quotes = (await within(ex.watchBidsAsks(undefined, { type: 'swap' }), 1500)) ?? quotes;
      }
      expect(quotes['ETH/USDT:USDT']).toMatchObject({ symbol: 'ETH/USDT:USDT', bid: 2990.5, ask: 3010 });
    } finally {
      await closePro(ex);
    }
  });
});

describe('CCXT Pro: the WebSocket API', () => {
  it('createOrderWs places, fetchOpenOrdersWs lists it, fetchBalanceWs reads the held balance, as REST shows them', async () => {
    const key = await createTestKey(t, alice, 'wsapi-alice@ccxt.test', { spotTrade: true });
    const ex = new ccxt.pro.binance({
      apiKey: key.apiKey,
      secret: key.secret,
      urls: binanceUrls(http),
      options: { fetchMarkets: { types: ['spot'] }, fetchCurrencies: false },
    });
    try {
      await ex.loadHttpProxyAgent();
      await ex.loadMarkets();
      const order = await ex.createOrderWs('BTC/USDT', 'limit', 'buy', 0.02, 50000);
      expect(order).toMatchObject({ symbol: 'BTC/USDT', type: 'limit', side: 'buy', price: 50000, amount: 0.02, status: 'open' });
      const open = await ex.fetchOpenOrdersWs('BTC/USDT');
      expect(open.map((o) => o.id)).toContain(order.id);
      const rest = await ex.fetchOpenOrders('BTC/USDT');
      expect(rest.map((o) => o.id)).toEqual(open.map((o) => o.id));
      // CCXT 4.5.84's handleAccountStatusWs parses the answer without the market type (parseBalanceCustom(result)), so
      // the spot balances stay in `info` only, against Binance as here: the answer is compared with REST's there.
      const balance = await ex.fetchBalanceWs();
      const restBalance = await ex.fetchBalance();
      const info = balance.info as { balances: Array<{ asset: string; free: string; locked: string }> };
      expect(info.balances).toEqual((restBalance.info as { balances: unknown }).balances);
      // The order holds 0.02 x 50000 = 1000 USDT.
      expect(info.balances.find((b) => b.asset === 'USDT')).toMatchObject({ locked: '1000.00000000' });
      expect(restBalance.USDT).toMatchObject({ used: 1000 });
    } finally {
      await closePro(ex);
    }
  });
});
