/**
 * CCXT compatibility: CCXT 4.5.84 from npm, its `binance` and `pro.binance` classes unchanged,
 * only `urls` pointed at the real app listening on 127.0.0.1 (ccxt-urls.ts), with an API key of a funded user.
 * Spot: loadMarkets, fetchTime, fetchTicker(s), fetchOrderBook, fetchTrades, fetchOHLCV, fetchBalance, createOrder
 * (limit, market, clientOrderId), fetchOrder, fetchOpenOrders, fetchClosedOrders, cancelOrder, fetchMyTrades,
 * fetchTradingFee(s) (spot and the perpetual), fetchLedger and fetchFundingHistory of the perpetual.
 * USDT perpetuals: loadMarkets (linear), setLeverage, setMarginMode, fetchFundingRate, a market open, fetchPositions,
 * a reduce-only close. CCXT Pro over our WebSocket: watchOrderBook kept in sync through a minute of live orders of
 * another user (placed and cancelled through ctx.entrust, some crossing), then compared with /api/v3/depth at the
 * same lastUpdateId; watchTrades against the trades of that minute; watchOrders with the key's own orders; and the
 * grid bot of scripts/grid-bot.ts for 20 s with a key of its own. Every answer is checked against exact figures or
 * against the engine's own state (balances, holds, positions).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import type { Exchange, Order, OrderBook, Trade } from 'ccxt';
import { formatDecimal, type MarketConfig, type PerpMarketConfig } from '@exchange/core';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../helpers';
import { loginUser } from '../../src/domains/spot/spot-test-support';
import { tick } from '../../src/domains/perp/perp-test-support';
import { binanceUrls, closePro } from './ccxt-urls';
import { createTestKey, type TestKey } from './ccxt-test-support';
import { runGridBot } from './grid-bot';

const SPOT = 'BTC/USDT';
const PERP = 'BTC/USDT:USDT';
/** 1 in engine balance units (every asset has scale 8 here). */
const ONE = 100_000_000n;
/** How long the order book is kept in sync under live orders (a minute). */
const SYNC_MS = Number(process.env.CCXT_SYNC_MS ?? 60_000);

let t: TestApp;
let base = '';
let spotMarket: MarketConfig;
let perpMarket: PerpMarketConfig;
const ids: Record<string, string> = {};
let aliceKey: TestKey;
let ex: Exchange;
/** alice's SPOT USDT before the tests (our deposit and the demo's sign-up credit). */
let usdt0 = 0n;

/** An exact decimal string of engine balance units, as the number CCXT parses from it. */
const units = (v: bigint): number => Number(formatDecimal(v, 8));
/** The price (market units) of a decimal string. */
const px = (s: string): bigint => BigInt(s.replace('.', ''));

function client(key: TestKey): Exchange {
  return new ccxt.binance({ apiKey: key.apiKey, secret: key.secret, urls: binanceUrls(base) });
}

function spotBalance(userId: string, asset: string): { available: bigint; frozen: bigint } {
  return t.ctx.host.engine.balance(userId, 'SPOT', asset);
}

async function deposit(userId: string, asset: string, account: 'SPOT' | 'CONTRACT', whole: bigint): Promise<void> {
  const r = await t.ctx.host.submit({ type: 'deposit', userId, asset, account, amount: whole * ONE, from: '@faucet' });
  expect(r.code).toBe('ok');
}

beforeAll(async () => {
  t = await makeTestApp({ ...NO_RATE_LIMITS });
  base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  spotMarket = t.ctx.host.engine.market(SPOT)!;
  perpMarket = t.ctx.host.engine.perpMarket(SPOT)!;
  for (const name of ['alice', 'bob', 'carol', 'dave', 'grid']) ids[name] = (await loginUser(t, `${name}@ccxt.test`)).userId;
  // alice trades through CCXT; bob makes the books; carol trades once before the tests; dave sends the live orders of
  // the sync minute; grid runs the grid bot.
  await deposit(ids.alice!, 'USDT', 'SPOT', 100_000n);
  await deposit(ids.alice!, 'BTC', 'SPOT', 2n);
  await deposit(ids.alice!, 'USDT', 'CONTRACT', 10_000n);
  await deposit(ids.bob!, 'USDT', 'SPOT', 1_000_000n);
  await deposit(ids.bob!, 'BTC', 'SPOT', 20n);
  await deposit(ids.bob!, 'USDT', 'CONTRACT', 1_000_000n);
  await deposit(ids.carol!, 'USDT', 'SPOT', 10_000n);
  await deposit(ids.dave!, 'USDT', 'SPOT', 1_000_000n);
  await deposit(ids.dave!, 'BTC', 'SPOT', 20n);
  await deposit(ids.grid!, 'USDT', 'SPOT', 100_000n);
  await deposit(ids.grid!, 'BTC', 'SPOT', 2n);
  // The spot book: 49,990 / 50,010 best, five levels a side, 0.1 BTC each.
  for (let i = 0; i < 5; i++) {
    await t.ctx.spot.place(ids.bob!, { pairsName: SPOT, side: 'BUY', orderType: 'LIMIT', price: String(49_990 - 10 * i), amount: '0.1' });
    await t.ctx.spot.place(ids.bob!, { pairsName: SPOT, side: 'SELL', orderType: 'LIMIT', price: String(50_010 + 10 * i), amount: '0.1' });
  }
  // One trade before the tests: carol buys 0.01 at 50,010.
  await t.ctx.spot.place(ids.carol!, { pairsName: SPOT, side: 'BUY', orderType: 'MARKET', amount: '0.01' });
  // The perpetual: a mark price of 50,000 and a book around it.
  await tick(t.ctx.host, px('50000.00'), SPOT);
  for (let i = 0; i < 3; i++) {
    await t.ctx.perp.placeOrder(ids.bob!, { symbol: SPOT, side: 'BUY', orderType: 'LIMIT', price: String(49_990 - 10 * i), quantity: '0.1' });
    await t.ctx.perp.placeOrder(ids.bob!, { symbol: SPOT, side: 'SELL', orderType: 'LIMIT', price: String(50_010 + 10 * i), quantity: '0.1' });
  }
  usdt0 = spotBalance(ids.alice!, 'USDT').available;
  aliceKey = await createTestKey(t, ids.alice!, 'alice@ccxt.test', { spotTrade: true, futuresTrade: true });
  ex = client(aliceKey);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('CCXT binance: public spot and linear market data', () => {
  it('fetchTime answers the server clock', async () => {
    const before = Date.now();
    const time = await ex.fetchTime();
    expect(time).toBeGreaterThanOrEqual(before - 1);
    expect(time).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('loadMarkets lists every spot market and every USDT perpetual with their rules', async () => {
    const markets = await ex.loadMarkets();
    const spot = Object.values(markets).filter((m) => m?.spot);
    const swaps = Object.values(markets).filter((m) => m?.swap);
    expect(spot.map((m) => m!.symbol).sort()).toEqual(
      t.ctx.host.engine
        .markets()
        .map((m) => m.symbol)
        .sort(),
    );
    expect(swaps.map((m) => m!.symbol).sort()).toEqual(
      t.ctx.host.engine
        .perpMarkets()
        .map((m) => `${m.symbol}:${m.quote}`)
        .sort(),
    );
    const s = markets[SPOT]!;
    expect(s).toMatchObject({ id: 'BTCUSDT', base: 'BTC', quote: 'USDT', type: 'spot', active: true });
    expect(s.precision).toMatchObject({ price: Number(`1e-${spotMarket.priceDecimals}`), amount: Number(`1e-${spotMarket.qtyDecimals}`) });
    expect(s.limits.cost?.min).toBe(units(spotMarket.minNotional)); // quote units
    expect(s.maker).toBe(spotMarket.makerFeePpm / 1e6);
    const p = markets[PERP]!;
    expect(p).toMatchObject({ id: 'BTCUSDT', type: 'swap', linear: true, settle: 'USDT', contractSize: 1, active: true });
    expect(p.precision).toMatchObject({ price: Number(`1e-${perpMarket.priceDecimals}`), amount: Number(`1e-${perpMarket.qtyDecimals}`) });
  });

  it('fetchOrderBook answers the resting levels with the nonce of /api/v3/depth', async () => {
    const ob = await ex.fetchOrderBook(SPOT, 5);
    expect(ob.bids).toEqual([49_990, 49_980, 49_970, 49_960, 49_950].map((p) => [p, 0.1]));
    expect(ob.asks).toEqual([[50_010, 0.09], ...[50_020, 50_030, 50_040, 50_050].map((p) => [p, 0.1])]);
    const raw = (await (await fetch(`${base}/api/v3/depth?symbol=BTCUSDT&limit=5`)).json()) as { lastUpdateId: number };
    expect(ob.nonce).toBe(raw.lastUpdateId);
    const perp = await ex.fetchOrderBook(PERP, 5);
    expect(perp.bids).toEqual([49_990, 49_980, 49_970].map((p) => [p, 0.1]));
    expect(perp.asks).toEqual([50_010, 50_020, 50_030].map((p) => [p, 0.1]));
  });

  it('fetchTicker and fetchTickers answer the last trade, best bid and ask', async () => {
    const tk = await ex.fetchTicker(SPOT);
    expect(tk).toMatchObject({ symbol: SPOT, last: 50_010, bid: 49_990, ask: 50_010, baseVolume: 0.01, quoteVolume: 500.1 });
    const all = await ex.fetchTickers([SPOT, 'ETH/USDT']);
    expect(Object.keys(all).sort()).toEqual([SPOT, 'ETH/USDT']);
    expect(all[SPOT]).toMatchObject({ last: 50_010, bid: 49_990, ask: 50_010 });
  });

  it('fetchTrades and fetchOHLCV answer the trade made before the tests', async () => {
    const trades = await ex.fetchTrades(SPOT);
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ symbol: SPOT, price: 50_010, amount: 0.01, cost: 500.1, side: 'buy' });
    const bars = await ex.fetchOHLCV(SPOT, '1m', undefined, 5);
    // [time, open, high, low, close, volume]: the minute of that one trade, and after it (when the test runs in a
    // later minute than the trade) flat bars at its price without volume.
    const minute = Math.floor(trades[0]!.timestamp! / 60_000) * 60_000;
    const at = bars.findIndex((b) => b[0] === minute);
    expect(at, JSON.stringify(bars)).toBeGreaterThanOrEqual(0);
    expect(bars[at]).toEqual([minute, 50_010, 50_010, 50_010, 50_010, 0.01]);
    for (const b of bars.slice(at + 1)) expect(b.slice(1)).toEqual([50_010, 50_010, 50_010, 50_010, 0]);
  });

  it('fetchFundingRate answers the perpetual mark price and funding', async () => {
    const fr = await ex.fetchFundingRate(PERP);
    const state = t.ctx.host.engine.perpMarkState(SPOT)!;
    expect(fr).toMatchObject({ symbol: PERP, markPrice: 50_000 });
    expect(fr.fundingRate).toBe(Number(formatDecimal(BigInt(state.predictedFundingRateE8), 8)));
    expect(fr.fundingTimestamp).toBe(state.nextFundingTs);
  });
});

describe('CCXT binance: spot trading with a key', () => {
  let limitId = '';
  it('fetchBalance answers the free and used amounts of the SPOT account', async () => {
    const b = await ex.fetchBalance();
    expect(usdt0).toBeGreaterThanOrEqual(100_000n * ONE);
    expect(b.USDT).toEqual({ free: units(usdt0), used: 0, total: units(usdt0) });
    expect(b.BTC).toEqual({ free: 2, used: 0, total: 2 });
  });

  it('createOrder limit with a clientOrderId rests, holds the quote and round-trips the id', async () => {
    const o = await ex.createOrder(SPOT, 'limit', 'buy', 0.01, 49_000, { clientOrderId: 'ccxt-limit-1' });
    expect(o).toMatchObject({
      symbol: SPOT,
      type: 'limit',
      side: 'buy',
      price: 49_000,
      amount: 0.01,
      filled: 0,
      remaining: 0.01,
      status: 'open',
      clientOrderId: 'ccxt-limit-1',
      timeInForce: 'GTC',
    });
    limitId = o.id!;
    expect(limitId).toMatch(/^[0-9]+$/);
    const held = spotBalance(ids.alice!, 'USDT');
    const b = await ex.fetchBalance();
    expect(held).toEqual({ available: usdt0 - 490n * ONE, frozen: 490n * ONE });
    expect(b.USDT).toEqual({ free: units(held.available), used: units(held.frozen), total: units(usdt0) });
  });

  it('fetchOrder by id and by clientOrderId, fetchOpenOrders', async () => {
    const byId = await ex.fetchOrder(limitId, SPOT);
    expect(byId).toMatchObject({ id: limitId, clientOrderId: 'ccxt-limit-1', status: 'open', price: 49_000, amount: 0.01, filled: 0 });
    const byClient = await ex.fetchOrder('', SPOT, { origClientOrderId: 'ccxt-limit-1' });
    expect(byClient.id).toBe(limitId);
    const open = await ex.fetchOpenOrders(SPOT);
    expect(open.map((o) => [o.id, o.clientOrderId, o.status])).toEqual([[limitId, 'ccxt-limit-1', 'open']]);
  });

  it('cancelOrder cancels it and releases the hold', async () => {
    const c = await ex.cancelOrder(limitId, SPOT);
    expect(c).toMatchObject({ id: limitId, status: 'canceled', filled: 0 });
    // As on Binance, a cancel answers the order's id as origClientOrderId (clientOrderId is the cancel request's own).
    expect(c.info.origClientOrderId).toBe('ccxt-limit-1');
    expect(spotBalance(ids.alice!, 'USDT')).toEqual({ available: usdt0, frozen: 0n });
    expect(await ex.fetchOpenOrders(SPOT)).toEqual([]);
    await expect(ex.cancelOrder(limitId, SPOT)).rejects.toBeInstanceOf(ccxt.OrderNotFound);
  });

  let buyId = '';
  let sellId = '';
  it('createOrder market buy and sell fill against the book and move the balances by the exact amounts', async () => {
    const fee = BigInt(spotMarket.takerFeePpm);
    const buy = await ex.createOrder(SPOT, 'market', 'buy', 0.02, undefined, { clientOrderId: 'ccxt-mkt-buy' });
    expect(buy).toMatchObject({
      status: 'closed',
      side: 'buy',
      type: 'market',
      amount: 0.02,
      filled: 0.02,
      remaining: 0,
      average: 50_010,
      cost: 1000.2,
      clientOrderId: 'ccxt-mkt-buy',
    });
    buyId = buy.id!;
    // 0.01 left at 50,010 (carol took 0.01 of 0.1 ... 0.09 left), so 0.02 all at 50,010: 1,000.2 USDT out, 0.02 BTC in less the taker fee.
    expect(spotBalance(ids.alice!, 'USDT')).toEqual({ available: usdt0 - 1000_20000000n, frozen: 0n });
    expect(spotBalance(ids.alice!, 'BTC')).toEqual({ available: 2n * ONE + 2_000_000n - (2_000_000n * fee) / 1_000_000n, frozen: 0n });
    const sell = await ex.createOrder(SPOT, 'market', 'sell', 0.01, undefined, { clientOrderId: 'ccxt-mkt-sell' });
    expect(sell).toMatchObject({ status: 'closed', side: 'sell', filled: 0.01, average: 49_990, cost: 499.9, clientOrderId: 'ccxt-mkt-sell' });
    sellId = sell.id!;
    const proceeds = 499_90000000n;
    expect(spotBalance(ids.alice!, 'USDT').available).toBe(usdt0 - 1000_20000000n + proceeds - (proceeds * fee) / 1_000_000n);
    const b = await ex.fetchBalance();
    expect(b.BTC!.free).toBe(units(spotBalance(ids.alice!, 'BTC').available));
    expect(b.USDT!.free).toBe(units(spotBalance(ids.alice!, 'USDT').available));
  });

  it('fetchClosedOrders answers the filled orders; fetchMyTrades the fills with their fees', async () => {
    const closed = await ex.fetchClosedOrders(SPOT);
    expect(closed.map((o) => [o.id, o.clientOrderId, o.status, o.filled]).sort()).toEqual(
      [
        [buyId, 'ccxt-mkt-buy', 'closed', 0.02],
        [sellId, 'ccxt-mkt-sell', 'closed', 0.01],
      ].sort(),
    );
    const all = await ex.fetchOrders(SPOT);
    expect(all.find((o) => o.clientOrderId === 'ccxt-limit-1')?.status).toBe('canceled');
    const mine = await ex.fetchMyTrades(SPOT);
    const fee = (v: bigint) => units((v * BigInt(spotMarket.takerFeePpm)) / 1_000_000n);
    expect(mine.map((tr) => ({ order: tr.order, side: tr.side, price: tr.price, amount: tr.amount, role: tr.takerOrMaker, fee: tr.fee }))).toEqual([
      { order: buyId, side: 'buy', price: 50_010, amount: 0.02, role: 'taker', fee: { cost: fee(2_000_000n), currency: 'BTC' } },
      { order: sellId, side: 'sell', price: 49_990, amount: 0.01, role: 'taker', fee: { cost: fee(499_90000000n), currency: 'USDT' } },
    ]);
  });

  it('answers a rejected order with the CCXT error class of its Binance code, changing nothing', async () => {
    await expect(ex.createOrder(SPOT, 'limit', 'buy', 100, 49_000)).rejects.toBeInstanceOf(ccxt.InsufficientFunds);
    await expect(ex.fetchOrder('999999999', SPOT)).rejects.toBeInstanceOf(ccxt.OrderNotFound);
    expect(spotBalance(ids.alice!, 'USDT').frozen).toBe(0n);
  });
});

describe('CCXT binance: trading fees with a key', () => {
  it('fetchTradingFee(s) answers the maker and taker rates of spot markets and of the perpetual', async () => {
    const spot = await ex.fetchTradingFee(SPOT);
    expect([spot.symbol, spot.maker, spot.taker]).toEqual([SPOT, 0.001, 0.001]);
    const all = await ex.fetchTradingFees();
    expect(Object.keys(all).sort()).toEqual(
      t.ctx.host.engine
        .markets()
        .map((m) => m.symbol)
        .sort(),
    );
    // CCXT reads the linear answer's "BTCUSDT" as the spot symbol (its parseTradingFee does so with Binance too).
    const perp = await ex.fetchTradingFee(PERP);
    expect([perp.maker, perp.taker]).toEqual([0.0002, 0.0005]);
  });
});

describe('CCXT binance: USDT perpetuals with a key', () => {
  it('setLeverage and setMarginMode change the settings of the market', async () => {
    await ex.setLeverage(10, PERP);
    await ex.setMarginMode('isolated', PERP);
    expect(t.ctx.perp.settings(ids.alice!, SPOT)).toMatchObject({ leverage: 10, marginMode: 'ISOLATED' });
  });

  it('a market order opens a position that fetchPositions answers; a reduce-only order closes it', async () => {
    const open = await ex.createOrder(PERP, 'market', 'buy', 0.02, undefined, { clientOrderId: 'ccxt-perp-open' });
    expect(open).toMatchObject({
      symbol: PERP,
      status: 'closed',
      side: 'buy',
      filled: 0.02,
      average: 50_010,
      clientOrderId: 'ccxt-perp-open',
      reduceOnly: false,
    });
    const [pos, ...rest] = await ex.fetchPositions([PERP]);
    expect(rest).toEqual([]);
    // Binance's positionRisk v3 (CCXT's default) carries no leverage: the margin shows it (1,000.2 USDT at 10x: 100.02,
    // plus the fill's open loss 0.2 against the mark 50,000 that an isolated position keeps).
    expect(pos).toMatchObject({
      symbol: PERP,
      side: 'long',
      contracts: 0.02,
      entryPrice: 50_010,
      marginMode: 'isolated',
      markPrice: 50_000,
      initialMargin: 100.22,
    });
    const engPos = t.ctx.perp.positions(ids.alice!, SPOT)[0]!;
    expect(engPos).toMatchObject({ leverage: 10, marginMode: 'ISOLATED' });
    expect(pos!.unrealizedPnl).toBe(Number(engPos.unrealizedPnl));
    expect(pos!.liquidationPrice).toBe(Number(engPos.liquidationPrice));

    // A reduce-only BUY would add to the long: Binance's -2022, nothing changes. (CCXT picks its futures error table
    // by the host name fapi.binance.com, so here -2022 is a plain ExchangeError, not InvalidOrder.)
    await expect(ex.createOrder(PERP, 'market', 'buy', 0.01, undefined, { reduceOnly: true })).rejects.toThrow(
      /"code":-2022,"msg":"ReduceOnly Order is rejected."/,
    );
    const close = await ex.createOrder(PERP, 'market', 'sell', 0.02, undefined, { reduceOnly: true, clientOrderId: 'ccxt-perp-close' });
    expect(close).toMatchObject({ status: 'closed', side: 'sell', filled: 0.02, average: 49_990, reduceOnly: true, clientOrderId: 'ccxt-perp-close' });
    expect(await ex.fetchPositions([PERP])).toEqual([]);
    // Nothing left to reduce: refused the same way.
    await expect(ex.createOrder(PERP, 'market', 'sell', 0.01, undefined, { reduceOnly: true })).rejects.toThrow(/"code":-2022/);
    expect(t.ctx.perp.positions(ids.alice!, SPOT)).toEqual([]);
    // Bought 0.02 at 50,010, sold at 49,990: -0.4 USDT, and the taker fee on both sides.
    const fee = (n: bigint) => (n * BigInt(perpMarket.takerFeePpm)) / 1_000_000n;
    const expected = 10_000n * ONE - 40_000_000n - fee(1000_20000000n) - fee(999_80000000n);
    expect(t.ctx.host.engine.balance(ids.alice!, 'CONTRACT', 'USDT')).toEqual({ available: expected, frozen: 0n });
    const fb = await ex.fetchBalance({ type: 'future' });
    expect(fb.USDT).toMatchObject({ free: units(expected), used: 0, total: units(expected) });
    // fetchLedger (GET /fapi/v1/income), oldest first: the opening fill's taker fee, then the close's realized -0.4
    // USDT and its fee; no funding yet.
    const ledger = await ex.fetchLedger('USDT', undefined, undefined, { type: 'future', subType: 'linear' });
    expect(ledger.map((e) => [e.type, e.direction, e.amount, e.currency])).toEqual([
      ['commission', 'out', units(fee(1000_20000000n)), 'USDT'],
      ['trade', 'out', 0.4, 'USDT'],
      ['commission', 'out', units(fee(999_80000000n)), 'USDT'],
    ]);
    expect(await ex.fetchFundingHistory(PERP)).toEqual([]);
  });
});

describe('CCXT Pro binance over our WebSocket', () => {
  it(
    'keeps watchOrderBook in sync through a minute of live orders, and delivers watchTrades and watchOrders',
    async () => {
      // CCXT Pro refuses plain ws:// URLs until it has an http.Agent (a wss:// server behind TLS needs none): the one
      // setting besides the URLs, given as CCXT's own `httpAgent` property.
      const pro = new ccxt.pro.binance({ apiKey: aliceKey.apiKey, secret: aliceKey.secret, urls: binanceUrls(base), httpAgent: new http.Agent() });
      const gridKey = await createTestKey(t, ids.grid!, 'grid@ccxt.test', { spotTrade: true });
      try {
        await pro.loadMarkets();
        let book: OrderBook = await pro.watchOrderBook(SPOT);
        const streamed = new Map<string, Trade>();
        // CCXT keeps one object per order and updates it in place: each update is copied as it arrives.
        const myOrders: Array<Pick<Order, 'id' | 'clientOrderId' | 'status'>> = [];
        let running = true;
        const failures: unknown[] = [];
        const loop = (step: () => Promise<void>) =>
          (async () => {
            while (running) {
              try {
                await step();
              } catch (e) {
                if (running) failures.push(e);
                return;
              }
            }
          })();
        const watchers = [
          loop(async () => {
            book = await pro.watchOrderBook(SPOT);
          }),
          loop(async () => {
            for (const tr of await pro.watchTrades(SPOT)) streamed.set(tr.id!, tr);
          }),
          loop(async () => {
            myOrders.push(...(await pro.watchOrders(SPOT)).map((o) => ({ id: o.id, clientOrderId: o.clientOrderId, status: o.status })));
          }),
        ];
        // The grid bot trades its own key for 20 s of the minute, beside everything else.
        const grid = runGridBot({
          base,
          apiKey: gridKey.apiKey,
          secret: gridKey.secret,
          symbol: SPOT,
          levels: 3,
          stepBps: 1,
          amount: '0.001',
          pollMs: 500,
          durationMs: Math.min(20_000, SYNC_MS),
          log: () => {},
        });
        void grid.then((r) => console.log(`grid bot (20 s): ${JSON.stringify(r)}`));

        // dave's live orders: every 100-300 ms a limit order within 20 ticks of 50,000 (a third of them crossing the
        // spread, so trades), and a cancel of one of his resting orders every other time; alice places and cancels
        // one order through CCXT every 5 s (watchOrders must report both).
        const sinceTrades = Date.now();
        const daveOpen: string[] = [];
        let n = 0;
        const clientIds: string[] = [];
        const end = Date.now() + SYNC_MS;
        let nextMine = Date.now();
        while (Date.now() < end) {
          n++;
          const side = n % 2 === 0 ? 'BUY' : 'SELL';
          const cross = n % 3 === 0;
          const offset = 1 + ((n * 7919) % 20);
          const price = side === 'BUY' ? (cross ? 50_010 + offset : 50_000 - offset * 5) : cross ? 49_990 - offset : 50_000 + offset * 5;
          const o = await t.ctx.spot.place(ids.dave!, { pairsName: SPOT, side, orderType: 'LIMIT', price: String(price), amount: `0.00${1 + (n % 9)}` });
          if (o.status === 'NEW' || o.status === 'PARTIALLY_FILLED') daveOpen.push(o.id);
          if (n % 2 === 0 && daveOpen.length > 4) {
            const id = daveOpen.splice((n * 31) % daveOpen.length, 1)[0]!;
            await t.ctx.spot.cancel(ids.dave!, { id }).catch(() => undefined); // it may have filled meanwhile
          }
          if (Date.now() >= nextMine) {
            nextMine += 5_000;
            const cid = `ccxt-ws-${clientIds.length}`;
            clientIds.push(cid);
            const mine = await ex.createOrder(SPOT, 'limit', 'buy', 0.001, 40_000, { clientOrderId: cid });
            await ex.cancelOrder(mine.id!, SPOT);
          }
          await new Promise((r) => setTimeout(r, 100 + (n % 3) * 100));
        }
        const gridReport = await grid;

        // Quiet now. The REST snapshot names the last update it includes; the streamed book must reach exactly that
        // update (no later one can come: nothing trades any more) and then hold the same levels.
        const rest = (await (await fetch(`${base}/api/v3/depth?symbol=BTCUSDT&limit=100`)).json()) as {
          lastUpdateId: number;
          bids: string[][];
          asks: string[][];
        };
        const deadline = Date.now() + 10_000;
        while (book.nonce !== rest.lastUpdateId && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        expect(book.nonce).toBe(rest.lastUpdateId);
        const top = (levels: string[][]) => levels.slice(0, 20).map(([p, q]) => [Number(p), Number(q)]);
        expect(book.bids.slice(0, 20)).toEqual(top(rest.bids));
        expect(book.asks.slice(0, 20)).toEqual(top(rest.asks));
        expect(rest.bids.length).toBeGreaterThan(5);

        // Every trade of the minute came through watchTrades with its price and amount.
        // /api/v3/trades (one row a fill, as the @trade stream), not CCXT's default aggTrades.
        const traded = (await ex.fetchTrades(SPOT, undefined, 1000, { fetchTradesMethod: 'publicGetTrades' })).filter((tr) => tr.timestamp! >= sinceTrades);
        expect(traded.length).toBeGreaterThan(10);
        const streamedTrades = [...streamed.values()].filter((tr) => tr.timestamp! >= sinceTrades);
        expect(streamedTrades.map((tr) => [tr.price, tr.amount]).sort()).toEqual(traded.map((tr) => [tr.price, tr.amount]).sort());

        // watchOrders: each of alice's orders of the minute open then canceled, with its clientOrderId.
        for (const cid of clientIds) {
          const updates = myOrders.filter((o) => o.clientOrderId === cid).map((o) => o.status);
          expect(updates, cid).toEqual(['open', 'canceled']);
        }
        expect(failures).toEqual([]);
        expect(gridReport.errors).toEqual([]);
        expect(gridReport.placed).toBeGreaterThanOrEqual(6);
        running = false;
        await Promise.race([Promise.all(watchers), new Promise((r) => setTimeout(r, 100))]);
      } finally {
        await closePro(pro);
      }
    },
    SYNC_MS + 60_000,
  );
});
