/**
 * CCXT 4.5.84 (its binance class unchanged, only the URLs pointed here) parses our /fapi answers for the USDT
 * perpetuals: loadMarkets with the default types (spot, linear and the inverse fetch, which answers no markets),
 * fetchTicker, fetchOrderBook (nonce = depth's lastUpdateId), fetchOHLCV, fetchFundingRate, fetchBalance of the
 * future account, setLeverage, setMarginMode (again: MarginModeAlreadySet), createOrder limit (post-only), market
 * and a reduce-only close, fetchOrder, fetchOpenOrders, cancelOrder, fetchPositions, fetchMyTrades, fetchTrades
 * (aggTrades); a real HMAC key with futures trading. And the error classes CCXT raises for futures rejections when it
 * sees Binance's host names. The full CCXT suite is the `ccxt` helper's (test/ccxt); this one guards the futures formats.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { binanceUrls } from '../../../test/ccxt/ccxt-urls';
import { createApiKeyService } from '../../domains/api-keys/api-keys.service';
import type { SecurityService } from '../../domains/security/security.service';
import { secretBoxFromConfig } from '../../platform/shared/secret-box';
import { fundContract, tick } from '../../domains/perp/perp-test-support';

const PORT = 8140;
const PERP = 'BTC/USDT:USDT';
let t: TestApp;
let ex: InstanceType<typeof ccxt.binance>;
let userId = '';
let makerId = '';
const noSecondFactor = { verifySecondFactor: async () => {}, recordSecurityEvent: async () => {} } as unknown as SecurityService;

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  await t.app.listen({ port: PORT, host: '127.0.0.1' });
  userId = (await t.ctx.members.ensureEmailUser('fut-ccxt@example.com', 'secret-pass-1', '')).userId;
  makerId = (await t.ctx.members.ensureEmailUser('fut-maker@example.com', 'secret-pass-1', '')).userId;
  await fundContract(t.ctx.host, userId, 10_000n);
  await fundContract(t.ctx.host, makerId, 1_000_000n);
  const svc = createApiKeyService({
    db: t.ctx.db,
    host: t.ctx.host,
    box: secretBoxFromConfig(t.ctx.config),
    security: () => noSecondFactor,
    log: t.ctx.log,
    now: t.ctx.clock.now,
    cacheMs: 0,
  });
  const c = await svc.create(userId, { label: 'ccxt', keyType: 'HMAC_SHA256', futuresTrade: true }, { ip: '127.0.0.1', userAgent: 'test' });
  ex = new ccxt.binance({ apiKey: c.key.apiKey, secret: c.secretKey!, urls: binanceUrls(`http://127.0.0.1:${PORT}`) });
  await tick(t.ctx.host, 5_000_000n, 'BTC/USDT');
  await t.ctx.perp.placeOrder(makerId, { symbol: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', price: '49990', quantity: '0.1' });
  await t.ctx.perp.placeOrder(makerId, { symbol: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', price: '50010', quantity: '0.1' });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('CCXT against the futures REST API', () => {
  it('loads the linear markets and reads the perpetual market data', async () => {
    await ex.loadMarkets();
    expect(ex.market(PERP)).toMatchObject({
      id: 'BTCUSDT',
      type: 'swap',
      swap: true,
      linear: true,
      settle: 'USDT',
      active: true,
      precision: { price: 0.01, amount: 0.00001 },
      limits: { amount: { min: 0.00001 } },
    });
    expect(Object.values(ex.markets ?? {}).filter((m) => m?.inverse)).toEqual([]);
    const book = await ex.fetchOrderBook(PERP, 5);
    expect(book).toMatchObject({ bids: [[49990, 0.1]], asks: [[50010, 0.1]], nonce: t.ctx.perpMarket.depthSeq('BTC/USDT') });
    const fr = await ex.fetchFundingRate(PERP);
    expect(fr).toMatchObject({ symbol: PERP, markPrice: 50000, indexPrice: 50000, interestRate: 0.0001 });
    expect(fr.fundingTimestamp).toBe(t.ctx.host.engine.perpMarkState('BTC/USDT')!.nextFundingTs);
  });

  it('sets leverage and margin mode, trades, reads positions, orders, trades and the balance', async () => {
    expect(await ex.setLeverage(5, PERP)).toMatchObject({ leverage: 5, symbol: 'BTCUSDT' });
    await ex.setMarginMode('isolated', PERP);
    await expect(ex.setMarginMode('isolated', PERP)).rejects.toThrow(/-4046/);
    expect(t.ctx.host.engine.perpSettings(userId, 'BTC/USDT')).toEqual({ leverage: 5, marginMode: 'ISOLATED' });

    const limit = await ex.createOrder(PERP, 'limit', 'buy', 0.01, 49000, { postOnly: true, clientOrderId: 'ccxt-perp-1' });
    expect(limit).toMatchObject({ status: 'open', price: 49000, amount: 0.01, filled: 0, clientOrderId: 'ccxt-perp-1', postOnly: true, timeInForce: 'PO' });
    expect((await ex.fetchOrder(limit.id!, PERP)).status).toBe('open');
    expect((await ex.fetchOpenOrders(PERP)).map((o) => o.id)).toEqual([limit.id]);
    expect(await ex.cancelOrder(limit.id!, PERP)).toMatchObject({ id: limit.id, status: 'canceled' });
    expect(await ex.fetchOpenOrders(PERP)).toEqual([]);

    const open = await ex.createOrder(PERP, 'market', 'buy', 0.02);
    expect(open).toMatchObject({ status: 'closed', filled: 0.02, average: 50010, cost: 1000.2 });
    const [pos] = await ex.fetchPositions([PERP]);
    expect(pos).toMatchObject({ symbol: PERP, side: 'long', contracts: 0.02, entryPrice: 50010, marginMode: 'isolated', collateral: 200.04 }); // isolated wallet 200.24 (initial margin 200.04 + the fill's open loss 0.2 against the mark 50,000) + unrealized PnL -0.2

    const bal = await ex.fetchBalance({ type: 'future' });
    const acc = t.ctx.perp.account(userId);
    expect(bal.USDT).toMatchObject({ free: Number(acc.availableBalance), total: Number(acc.marginBalance) });

    const close = await ex.createOrder(PERP, 'market', 'sell', 0.02, undefined, { reduceOnly: true });
    expect(close).toMatchObject({ status: 'closed', filled: 0.02, average: 49990, reduceOnly: true });
    expect(await ex.fetchPositions([PERP])).toEqual([]);
    const trades = await ex.fetchMyTrades(PERP);
    expect(trades.map((x) => [x.side, x.price, x.amount, x.fee?.currency])).toEqual([
      ['buy', 50010, 0.02, 'USDT'],
      ['sell', 49990, 0.02, 'USDT'],
    ]);
    expect(trades[1]!.info.realizedPnl).toBe('-0.40000000');

    const ticker = await ex.fetchTicker(PERP);
    expect(ticker).toMatchObject({ symbol: PERP, last: 49990, baseVolume: 0.04 });
    const bars = await ex.fetchOHLCV(PERP, '1m', undefined, 3);
    expect(bars.at(-1)![4]).toBe(49990);
  });

  it('fetchTrades reads /fapi/v1/aggTrades: each book trade with Binance fields, by fromId, time window and limit', async () => {
    const trades = await ex.fetchTrades(PERP);
    expect(trades.map((x) => [x.side, x.price, x.amount])).toEqual([
      ['buy', 50010, 0.02],
      ['sell', 49990, 0.02],
    ]);
    const get = async (q: string) => (await t.app.inject({ method: 'GET', url: `/fapi/v1/aggTrades?symbol=BTCUSDT${q}` })).json();
    const rows = (await get('')) as Array<{ a: number; T: number }>;
    const [first, second] = rows;
    expect(rows).toEqual([
      { a: first!.a, p: '50010.00', q: '0.02000', f: first!.a, l: first!.a, T: first!.T, m: false },
      { a: second!.a, p: '49990.00', q: '0.02000', f: second!.a, l: second!.a, T: second!.T, m: true },
    ]);
    expect(first!.T).toBeGreaterThan(0);
    expect(((await get(`&fromId=${second!.a}`)) as typeof rows).map((r) => r.a)).toEqual([second!.a]);
    expect(((await get(`&startTime=${second!.T}`)) as typeof rows).map((r) => r.a)).toEqual(first!.T === second!.T ? [first!.a, second!.a] : [second!.a]);
    expect(((await get(`&endTime=${first!.T - 1}`)) as typeof rows).map((r) => r.a)).toEqual([]);
    expect(((await get('&limit=1')) as typeof rows).map((r) => r.a)).toEqual([second!.a]);
    expect(await get(`&startTime=0&endTime=${3_600_001}`)).toEqual({ code: -1127, msg: 'More than 1 hours between startTime and endTime.' });
    expect(await get(`&fromId=1&startTime=0`)).toEqual({ code: -1128, msg: 'Combination of optional parameters invalid.' });
  });
});

describe('CCXT trigger orders on the perpetual (its /fapi/v1/algoOrder routing)', () => {
  it('stopLossPrice, triggerPrice and reduceOnly stops wait as open orders; a trade below the stop fills it under the same id', async () => {
    await ex.loadMarkets();
    const sl = await ex.createOrder(PERP, 'market', 'sell', 0.01, undefined, { stopLossPrice: 49000 });
    expect(sl).toMatchObject({ status: 'open', triggerPrice: 49000, amount: 0.01, side: 'sell' });
    expect(sl.info).toMatchObject({
      algoType: 'CONDITIONAL',
      orderType: 'STOP_MARKET',
      algoStatus: 'NEW',
      triggerPrice: '49000.00',
      workingType: 'CONTRACT_PRICE',
    });
    const trig = await ex.createOrder(PERP, 'market', 'buy', 0.01, undefined, { triggerPrice: 51000 });
    expect(trig).toMatchObject({ status: 'open', triggerPrice: 51000, side: 'buy' });
    const ro = await ex.createOrder(PERP, 'market', 'sell', 0.01, undefined, { stopLossPrice: 48000, reduceOnly: true });
    expect(ro).toMatchObject({ status: 'open', triggerPrice: 48000, reduceOnly: true });
    const ids = [sl.id, trig.id, ro.id];
    expect((await ex.fetchOpenOrders(PERP)).map((o) => o.id)).toEqual(ids);
    expect((await ex.fetchOpenOrders(PERP, undefined, undefined, { trigger: true })).map((o) => [o.id, o.triggerPrice])).toEqual([
      [sl.id, 49000],
      [trig.id, 51000],
      [ro.id, 48000],
    ]);
    // Another user sells into the book down to 48900: the last price 48900 <= 49000 triggers the stop loss only.
    const seller = (await t.ctx.members.ensureEmailUser('fut-seller@example.com', 'secret-pass-1', '')).userId;
    await fundContract(t.ctx.host, seller, 1_000_000n);
    await t.ctx.perp.placeOrder(makerId, { symbol: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', price: '48900', quantity: '0.1' });
    await t.ctx.perp.placeOrder(seller, { symbol: 'BTC/USDT', side: 'SELL', orderType: 'MARKET', quantity: '0.09' });
    const filled = await ex.fetchOrder(sl.id!, PERP);
    expect(filled).toMatchObject({ id: sl.id, status: 'closed', filled: 0.01, average: 48900, triggerPrice: 49000 });
    expect((await ex.fetchOrder(sl.id!, PERP, { trigger: true })).info).toMatchObject({ algoStatus: 'FINISHED', actualOrderId: sl.id });
    expect((await ex.fetchOpenOrders(PERP)).map((o) => o.id)).toEqual([trig.id, ro.id]);
    await ex.cancelOrder(trig.id!, PERP, { trigger: true });
    expect((await ex.fetchOpenOrders(PERP, undefined, undefined, { trigger: true })).map((o) => o.id)).toEqual([ro.id]);
    expect(t.ctx.host.engine.perpOrder(trig.id!)?.status).toBe('CANCELED');
    expect(t.ctx.host.engine.position(userId, 'BTC/USDT')).toMatchObject({ side: 'SHORT', size: 1000n });
  });
});

/**
 * CCXT as a bot on binance.com sees it: Binance's own URLs (so CCXT applies its USDⓈ-M error table, which it picks by
 * host name), every request sent here instead. Stock CCXT, its transport only redirected.
 */
function asOnBinance(apiKey: string, secret: string): InstanceType<typeof ccxt.binance> {
  const base = `http://127.0.0.1:${PORT}`;
  const fetchHere = (url: string, init: RequestInit) => {
    const m = /^https:\/\/(?:api|fapi|dapi|eapi|papi)\.binance\.com(\/.*)$/.exec(url);
    if (!m) throw new Error(`not redirected: ${url}`);
    return fetch(base + m[1], init);
  };
  return new ccxt.binance({ apiKey, secret, fetchImplementation: fetchHere });
}

describe("futures rejections: Binance's codes, CCXT's error classes", () => {
  it('post-only that would take is -5022 (OrderNotFillable), reduce-only refused -2022 (InvalidOrder), no margin -2019 (InsufficientFunds); nothing placed', async () => {
    const bx = asOnBinance(ex.apiKey, ex.secret);
    await bx.loadMarkets();
    const open = () => t.ctx.host.engine.perpOpenOrders(userId).length;
    const before = open();
    const postOnly = await bx.createOrder(PERP, 'limit', 'buy', 0.01, 50010, { postOnly: true }).catch((e: unknown) => e);
    expect(postOnly).toBeInstanceOf(ccxt.OrderNotFillable);
    expect(postOnly).toBeInstanceOf(ccxt.InvalidOrder);
    expect(String(postOnly)).toContain('{"code":-5022,"msg":"Due to the order could not be executed as maker, the Post Only order will be rejected."}');
    const reduceOnly = await bx.createOrder(PERP, 'market', 'sell', 0.01, undefined, { reduceOnly: true }).catch((e: unknown) => e);
    expect(reduceOnly).toBeInstanceOf(ccxt.InvalidOrder);
    expect(String(reduceOnly)).toContain('{"code":-2022,"msg":"ReduceOnly Order is rejected."}');
    const tooBig = await bx.createOrder(PERP, 'limit', 'buy', 10, 49000).catch((e: unknown) => e);
    expect(tooBig).toBeInstanceOf(ccxt.InsufficientFunds);
    expect(String(tooBig)).toContain('{"code":-2019,"msg":"Margin is insufficient."}');
    expect(open()).toBe(before);
    // On another host CCXT applies only its table common to every market: the same codes are plain ExchangeErrors
    // there (docs/binance-api.md, "Error classes"), the code in the text.
    const elsewhere = await ex.createOrder(PERP, 'market', 'sell', 0.01, undefined, { reduceOnly: true }).catch((e: unknown) => e);
    expect(elsewhere).toBeInstanceOf(ccxt.ExchangeError);
    expect(String(elsewhere)).toContain('-2022');
  });
});
