/**
 * Binance spot market data under /api/v3 through app.inject() on PGlite: two users trade BTC/USDT through
 * the app's order service, then every public endpoint answers Binance's shape with the exact values of those trades
 * and of the book: exchangeInfo filters from the market config, depth with the market-data sequence, trades and
 * aggTrades by id and time, klines rows, the three tickers, avgPrice; bad inputs get Binance's codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OPEN_ORDERS_PER_MARKET, pow10 } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { loginUser, type TestUser } from '../../domains/spot/spot-test-support';

let t: TestApp;
const users: Record<string, TestUser> = {};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Binance answers of many shapes, checked field by field
async function get(url: string): Promise<{ status: number; body: any }> {
  const res = await t.app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: res.json() };
}

/** Places a LIMIT order through the app's service (the same one the app API uses). */
async function limit(user: string, side: 'BUY' | 'SELL', price: string, amount: string) {
  return t.ctx.spot.place(users[user]!.userId, { pairsName: 'BTC/USDT', side, orderType: 'LIMIT', price, amount });
}

let tradeIds: number[] = [];
let t0 = 0;
beforeAll(async () => {
  t = await makeTestApp();
  users.maker = await loginUser(t, 'spot-maker@example.com');
  users.taker = await loginUser(t, 'spot-taker@example.com');
  const r = await t.ctx.host.submit({ type: 'deposit', userId: users.maker.userId, asset: 'BTC', account: 'SPOT', amount: 2n * pow10(8), from: '@chain' });
  expect(r.code).toBe('ok');
  t0 = Date.now();
  // Two asks, two fills against them, one resting bid and one resting ask.
  await limit('maker', 'SELL', '60000.00', '0.01000');
  await limit('maker', 'SELL', '60010.00', '0.02000');
  await limit('taker', 'BUY', '60010.00', '0.01500'); // fills 0.01 @ 60000 and 0.005 @ 60010
  await limit('taker', 'BUY', '59000.50', '0.00300');
  const trades = await get('/api/v3/trades?symbol=BTCUSDT');
  tradeIds = trades.body.map((x: { id: number }) => x.id);
});
afterAll(async () => {
  await t?.close();
});

describe('Binance spot market data', () => {
  it('answers exchangeInfo with the market config as filters', async () => {
    const { status, body } = await get('/api/v3/exchangeInfo?symbol=BTCUSDT');
    expect(status).toBe(200);
    expect(body.timezone).toBe('UTC');
    expect(body.rateLimits.length).toBeGreaterThan(0);
    expect(body.symbols).toHaveLength(1);
    const s = body.symbols[0];
    expect(s).toMatchObject({
      symbol: 'BTCUSDT',
      status: 'TRADING',
      baseAsset: 'BTC',
      quoteAsset: 'USDT',
      orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'],
      quoteOrderQtyMarketAllowed: true,
      allowTrailingStop: true,
    });
    const m = t.ctx.host.engine.market('BTC/USDT')!;
    const f = Object.fromEntries(s.filters.map((x: { filterType: string }) => [x.filterType, x]));
    expect(f.PRICE_FILTER.tickSize).toBe('0.01000000');
    expect(f.LOT_SIZE).toMatchObject({ stepSize: '0.00001000', minQty: '0.00001000' });
    expect(f.MARKET_LOT_SIZE.stepSize).toBe('0.00001000');
    expect(f.NOTIONAL.minNotional).toBe(`${(m.minNotional / pow10(8)).toString()}.00000000`);
    expect(f.MAX_NUM_ORDERS.maxNumOrders).toBe(MAX_OPEN_ORDERS_PER_MARKET);
    expect(f.TRAILING_DELTA).toEqual({
      filterType: 'TRAILING_DELTA',
      minTrailingAboveDelta: 10,
      maxTrailingAboveDelta: 2000,
      minTrailingBelowDelta: 10,
      maxTrailingBelowDelta: 2000,
    });
    const all = await get('/api/v3/exchangeInfo');
    expect(all.body.symbols.map((x: { symbol: string }) => x.symbol)).toEqual(t.ctx.host.engine.markets().map((x) => x.symbol.replace('/', '')));
    const two = await get(`/api/v3/exchangeInfo?symbols=${encodeURIComponent('["ETHUSDT","BTCUSDT"]')}`);
    expect(two.body.symbols.map((x: { symbol: string }) => x.symbol)).toEqual(['ETHUSDT', 'BTCUSDT']);
  });

  it('answers depth with the market-data sequence as lastUpdateId', async () => {
    const { body } = await get('/api/v3/depth?symbol=BTCUSDT&limit=5');
    expect(body).toEqual({ lastUpdateId: t.ctx.marketData.depth('BTC/USDT', 'SPOT', 1).seq, bids: [['59000.50', '0.00300']], asks: [['60010.00', '0.01500']] });
    expect(body.lastUpdateId).toBeGreaterThan(0);
    const seq = body.lastUpdateId;
    await limit('taker', 'BUY', '59000.00', '0.00100');
    const after = await get('/api/v3/depth?symbol=BTCUSDT');
    expect(after.body.lastUpdateId).toBe(seq + 1);
    expect(after.body.bids).toEqual([
      ['59000.50', '0.00300'],
      ['59000.00', '0.00100'],
    ]);
  });

  it('answers trades and aggTrades from the fills, oldest first', async () => {
    const { body } = await get('/api/v3/trades?symbol=BTCUSDT&limit=10');
    expect(body).toHaveLength(2);
    expect(body[0]).toMatchObject({ price: '60000.00', qty: '0.01000', isBuyerMaker: false, isBestMatch: true });
    expect(body[0].quoteQty).toMatch(/^600\.0+$/);
    expect(body[1]).toMatchObject({ price: '60010.00', qty: '0.00500' });
    expect(body[1].quoteQty).toMatch(/^300\.050+$/);
    expect(body[0].time).toBeGreaterThanOrEqual(t0);
    const [a, b] = tradeIds as [number, number];
    const agg = await get('/api/v3/aggTrades?symbol=BTCUSDT');
    expect(agg.body).toEqual([
      { a, p: '60000.00', q: '0.01000', f: a, l: a, T: body[0].time, m: false, M: true },
      { a: b, p: '60010.00', q: '0.00500', f: b, l: b, T: body[1].time, m: false, M: true },
    ]);
    expect((await get(`/api/v3/aggTrades?symbol=BTCUSDT&fromId=${b}`)).body.map((x: { a: number }) => x.a)).toEqual([b]);
    expect((await get('/api/v3/aggTrades?symbol=BTCUSDT&limit=1')).body.map((x: { a: number }) => x.a)).toEqual([b]);
    const inWindow = await get(`/api/v3/aggTrades?symbol=BTCUSDT&startTime=${t0 - 1000}&endTime=${Date.now()}`);
    expect(inWindow.body).toHaveLength(2);
    expect((await get(`/api/v3/aggTrades?symbol=BTCUSDT&startTime=${Date.now() + 1000}`)).body).toEqual([]);
    expect((await get(`/api/v3/historicalTrades?symbol=BTCUSDT&fromId=${b}`)).body.map((x: { id: number }) => x.id)).toEqual([b]);
  });

  it('answers klines as Binance rows and -1120 for an interval we do not keep', async () => {
    // The bar of the minute of the two fills (one command, one time): the last bar, or the one before a flat bar when
    // a minute began between the fills and this request.
    const tradeTime: number = (await get('/api/v3/trades?symbol=BTCUSDT')).body[0].time;
    const { body } = await get('/api/v3/klines?symbol=BTCUSDT&interval=1m&limit=3');
    expect(body.length).toBeGreaterThanOrEqual(1);
    const bar = body.find((r: [number, ...unknown[]]) => r[0] <= tradeTime && tradeTime <= (r[6] as number));
    expect(bar).toHaveLength(12);
    expect(bar[6]).toBe(bar[0] + 59_999);
    expect([bar[1], bar[2], bar[3], bar[4]]).toEqual(['60000.00', '60010.00', '60000.00', '60010.00']);
    expect(bar[5]).toBe('0.01500');
    const from = await get(`/api/v3/klines?symbol=BTCUSDT&interval=1m&startTime=${bar[0]}`);
    expect(from.body[0][0]).toBe(bar[0]);
    expect(from.body.slice(1).every((r: [number, ...string[]]) => r[0] > bar[0] && r[5] === '0.00000')).toBe(true);
    const before = await get(`/api/v3/klines?symbol=BTCUSDT&interval=1m&endTime=${bar[0] - 1}&limit=3`);
    expect(before.body.every((r: [number]) => r[0] < bar[0])).toBe(true);
    expect((await get('/api/v3/klines?symbol=BTCUSDT&interval=7m')).body).toEqual({ code: -1120, msg: 'Invalid interval.' });
    expect((await get('/api/v3/klines?symbol=BTCUSDT&interval=1h')).status).toBe(200);
  });

  it('answers ticker/24hr, ticker/price and bookTicker for one, some or all symbols', async () => {
    const { body } = await get('/api/v3/ticker/24hr?symbol=BTCUSDT');
    expect(body).toMatchObject({
      symbol: 'BTCUSDT',
      lastPrice: '60010.00',
      openPrice: '60000.00',
      priceChange: '10.00',
      priceChangePercent: '0.017',
      prevClosePrice: '60000.00',
      highPrice: '60010.00',
      lowPrice: '60000.00',
      volume: '0.01500',
      lastQty: '0.00500',
      bidPrice: '59000.50',
      bidQty: '0.00300',
      askPrice: '60010.00',
      askQty: '0.01500',
      firstId: tradeIds[0],
      lastId: tradeIds[1],
      count: 2,
    });
    // (600 + 300.05) / 0.015 = 60003.33..., rounded down.
    expect(body.weightedAvgPrice).toBe('60003.33');
    expect(body.quoteVolume).toBe('900.05000000');
    expect(body.closeTime - body.openTime).toBe(86_400_000);
    const mini = await get('/api/v3/ticker/24hr?symbol=BTCUSDT&type=MINI');
    expect(mini.body.priceChange).toBeUndefined();
    expect(mini.body.lastPrice).toBe('60010.00');
    const all = await get('/api/v3/ticker/24hr');
    expect(all.body).toHaveLength(t.ctx.host.engine.markets().length);
    const eth = all.body.find((x: { symbol: string }) => x.symbol === 'ETHUSDT');
    expect(eth).toMatchObject({ count: 0, firstId: -1, lastId: -1, priceChange: '0.00' });

    expect((await get('/api/v3/ticker/price?symbol=BTCUSDT')).body).toEqual({ symbol: 'BTCUSDT', price: '60010.00' });
    const some = await get(`/api/v3/ticker/price?symbols=${encodeURIComponent('["BTCUSDT","ETHUSDT"]')}`);
    expect(some.body.map((x: { symbol: string }) => x.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect((await get('/api/v3/ticker/bookTicker?symbol=BTCUSDT')).body).toEqual({
      symbol: 'BTCUSDT',
      bidPrice: '59000.50',
      bidQty: '0.00300',
      askPrice: '60010.00',
      askQty: '0.01500',
    });
    const books = await get('/api/v3/ticker/bookTicker');
    expect(books.body).toHaveLength(t.ctx.host.engine.markets().length);
  });

  it('answers avgPrice as the volume-weighted price of the last 5 minutes', async () => {
    const { body } = await get('/api/v3/avgPrice?symbol=BTCUSDT');
    const trades = (await get('/api/v3/trades?symbol=BTCUSDT')).body;
    expect(body).toEqual({ mins: 5, price: '60003.33', closeTime: trades[1].time });
  });

  it('answers bad inputs with Binance codes', async () => {
    const cases: Array<[string, number, number]> = [
      ['/api/v3/depth?symbol=NOPEUSDT', 400, -1121],
      ['/api/v3/depth?symbol=btcusdt', 400, -1100],
      ['/api/v3/depth', 400, -1102],
      ['/api/v3/depth?symbol=BTCUSDT&limit=abc', 400, -1100],
      ['/api/v3/depth?symbol=BTCUSDT&limit=0', 400, -1100],
      ['/api/v3/trades?symbol=BTCUSDT&limit=-5', 400, -1100],
      ['/api/v3/klines?symbol=BTCUSDT', 400, -1102],
      ['/api/v3/klines?symbol=BTCUSDT&interval=1x', 400, -1100],
      ['/api/v3/aggTrades?symbol=BTCUSDT&startTime=0&endTime=7200000', 400, -1127],
      ['/api/v3/aggTrades?symbol=BTCUSDT&fromId=1&startTime=5', 400, -1128],
      ['/api/v3/ticker/price?symbol=BTCUSDT&symbols=%5B%22BTCUSDT%22%5D', 400, -1128],
      ['/api/v3/ticker/price?symbols=%5B%22NOPEUSDT%22%5D', 400, -1121],
      ['/api/v3/ticker/price?symbols=BTCUSDT', 400, -1100],
      ['/api/v3/ticker/price?symbols=%5B1%5D', 400, -1100],
      ['/api/v3/ticker/24hr?symbol=BTCUSDT&type=HUGE', 400, -1130],
      ['/api/v3/exchangeInfo?symbol=NOPE', 400, -1121],
      ['/api/v3/avgPrice', 400, -1102],
    ];
    for (const [url, status, code] of cases) {
      const res = await get(url);
      expect([res.status, res.body.code], url).toEqual([status, code]);
      expect(typeof res.body.msg).toBe('string');
    }
    // A limit above the maximum is lowered to it, as Binance does.
    expect((await get('/api/v3/depth?symbol=BTCUSDT&limit=999999')).status).toBe(200);
  });
});
