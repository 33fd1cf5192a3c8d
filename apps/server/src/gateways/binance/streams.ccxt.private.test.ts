/**
 * Stock CCXT Pro 4.5.84 (its binance class unchanged, only the URLs pointed here, port 8159) on the private streams a
 * bot keeps open, against the engine's own numbers: on spot, watchBalance follows a fill to the exact free and used
 * amounts and watchMyTrades reports the fill with its order, price, amount and fee; on the USDT perpetual,
 * watchPositions reports the position a fill opened (side, contracts, entry price) and watchBalance of the futures
 * account follows the margin's wallet balance. Each stream is the user's own: another user's fills never arrive.
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
const PORT = 8159;
let t: TestApp;
const http = `http://127.0.0.1:${PORT}`;

beforeAll(async () => {
  t = await makeTestApp();
  await t.app.listen({ port: PORT, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
});

async function deposit(userId: string, asset: string, account: 'SPOT' | 'CONTRACT', amount: bigint): Promise<void> {
  const r = await t.ctx.host.submit({ type: 'deposit', userId, asset, account, amount, from: '@faucet' } as unknown as Command);
  expect(r.code).toBe('ok');
}

/** Waits until the server has bound `n` user-data sinks (a watch posts a listenKey, then dials the private URL). */
async function sinks(n: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((binanceStreamsOf(t.ctx)?.hub?.stats().userSinks ?? 0) < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(binanceStreamsOf(t.ctx)?.hub?.stats().userSinks ?? 0).toBeGreaterThanOrEqual(n);
}

/** A stream's next message, or a named failure after `ms` (instead of the whole test's timeout). */
async function within<T>(p: Promise<T>, what: string, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Engine units (scale 8) as CCXT's number. */
const num = (units: bigint) => Number(units) / 1e8;

describe('CCXT Pro private streams', () => {
  it('spot: watchBalance follows a fill to the engine amounts, watchMyTrades reports it; nothing of another user arrives', async () => {
    const alice = (await loginNewUser(t, 'pv-alice@ccxt.test')).userId;
    const bob = (await loginNewUser(t, 'pv-bob@ccxt.test')).userId;
    const carol = (await loginNewUser(t, 'pv-carol@ccxt.test')).userId;
    await deposit(alice, 'USDT', 'SPOT', 100_000n * U);
    for (const id of [bob, carol]) {
      await deposit(id, 'BTC', 'SPOT', 10n * U);
      await deposit(id, 'USDT', 'SPOT', 100_000n * U);
    }
    const key = await createTestKey(t, alice, 'pv-alice@ccxt.test', { spotTrade: true });
    const ex = new ccxt.pro.binance({ apiKey: key.apiKey, secret: key.secret, urls: binanceUrls(http) });
    const spot = (cmd: Record<string, unknown>) =>
      t.ctx.host.submit({ type: 'placeOrder', symbol: 'BTC/USDT', orderType: 'LIMIT', timeInForce: 'GTC', ...cmd } as unknown as Command);
    try {
      await ex.loadHttpProxyAgent();
      await ex.loadMarkets();
      const before = await ex.fetchBalance();
      const balanceP = ex.watchBalance();
      const tradesP = ex.watchMyTrades('BTC/USDT');
      await sinks(1);
      // another user's trade first: alice's streams must not report it
      await spot({ userId: carol, side: 'SELL', price: 3_000_000n, quantity: 10_000n });
      await spot({ userId: bob, side: 'BUY', orderType: 'MARKET', timeInForce: 'IOC', price: undefined, quantity: 10_000n });
      // bob's ask (prices in 0.01 USDT, quantities in 0.00001 BTC), taken by alice's market buy of 0.05 BTC
      await spot({ userId: bob, side: 'SELL', price: 3_000_000n, quantity: 5_000n });
      const placed = await ex.createOrder('BTC/USDT', 'market', 'buy', 0.05);
      const trades = await within(tradesP, 'the fill in watchMyTrades');
      expect(trades).toHaveLength(1);
      expect(trades[0]).toMatchObject({ order: placed.id, symbol: 'BTC/USDT', side: 'buy', price: 30_000, amount: 0.05, cost: 1_500, takerOrMaker: 'taker' });
      let balance = await within(balanceP, "the fill's balance update");
      const want = t.ctx.host.engine.balance(alice, 'SPOT', 'BTC');
      const deadline = Date.now() + 5000;
      while (balance.BTC?.free !== num(want.available) && Date.now() < deadline)
        balance = await within(ex.watchBalance(), 'a later balance update', 1_000).catch(() => balance);
      expect([balance.BTC?.free, balance.BTC?.used]).toEqual([num(want.available), num(want.frozen)]);
      const usdt = t.ctx.host.engine.balance(alice, 'SPOT', 'USDT');
      expect([balance.USDT?.free, balance.USDT?.used]).toEqual([num(usdt.available), num(usdt.frozen)]);
      expect(balance.USDT!.free!).toBeLessThan(before.USDT!.free!);
    } finally {
      await closePro(ex);
    }
  });

  it('futures: watchPositions reports the position a fill opened, watchBalance the wallet balance after its fee', async () => {
    const sym = 'ETH/USDT';
    const alice = (await loginNewUser(t, 'pv-fa@ccxt.test')).userId;
    const bob = (await loginNewUser(t, 'pv-fb@ccxt.test')).userId;
    for (const id of [alice, bob]) await deposit(id, 'USDT', 'CONTRACT', 100_000n * U);
    expect((await t.ctx.host.submit({ type: 'perpMarkPrice', symbol: sym, indexPrice: 300_000n } as unknown as Command)).code).toBe('ok');
    const key = await createTestKey(t, alice, 'pv-fa@ccxt.test', { futuresTrade: true });
    const ex = new ccxt.pro.binance({ apiKey: key.apiKey, secret: key.secret, urls: binanceUrls(http), options: { defaultType: 'swap' } });
    const perp = (cmd: Record<string, unknown>) =>
      t.ctx.host.submit({ type: 'perpPlaceOrder', symbol: sym, orderType: 'LIMIT', timeInForce: 'GTC', ...cmd } as unknown as Command);
    try {
      await ex.loadHttpProxyAgent();
      await ex.loadMarkets();
      // The first watchPositions answers with CCXT's REST snapshot (no position yet); only then is the next stream
      // update awaited, so the fill's ACCOUNT_UPDATE cannot go by before a watch waits for it.
      const snapshot = await ex.watchPositions(['ETH/USDT:USDT']);
      expect(snapshot.filter((p) => (p.contracts ?? 0) !== 0)).toEqual([]);
      const positionsP = ex.watchPositions(['ETH/USDT:USDT']);
      const balanceP = ex.watchBalance({ type: 'future' });
      await sinks(1);
      // prices in 0.01 USDT, quantities in 0.0001 ETH: 0.2 ETH at 3,000
      await perp({ userId: bob, side: 'SELL', price: 300_000n, quantity: 2_000n });
      const placed = await ex.createOrder('ETH/USDT:USDT', 'market', 'buy', 0.2);
      let positions = await within(positionsP, "the fill's position update");
      const deadline = Date.now() + 5000;
      while (!positions.some((p) => p.contracts === 0.2) && Date.now() < deadline)
        positions = await within(ex.watchPositions(['ETH/USDT:USDT']), 'a later position update', 1_000).catch(() => positions);
      const pos = positions.find((p) => p.symbol === 'ETH/USDT:USDT')!;
      const engine = t.ctx.host.engine.position(alice, sym)!;
      expect(engine).toMatchObject({ side: 'LONG', size: 2_000n });
      expect(pos).toMatchObject({ symbol: 'ETH/USDT:USDT', side: 'long', contracts: 0.2, entryPrice: 3_000 });
      expect(placed.id).toBeTruthy();
      let balance = await within(balanceP, "the fill's balance update");
      const wallet = t.ctx.host.engine.balance(alice, 'CONTRACT', 'USDT');
      const bDeadline = Date.now() + 5000;
      // ACCOUNT_UPDATE's wallet balance: the deposit less the taker fee
      while (balance.USDT?.total !== num(wallet.available + wallet.frozen) && Date.now() < bDeadline)
        balance = await within(ex.watchBalance({ type: 'future' }), 'a later balance update', 1_000).catch(() => balance);
      expect(balance.USDT?.total).toBe(num(wallet.available + wallet.frozen));
      expect(balance.USDT!.total!).toBeLessThan(100_000);
    } finally {
      await closePro(ex);
    }
  });
});
