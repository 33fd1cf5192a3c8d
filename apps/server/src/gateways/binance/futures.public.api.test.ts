/**
 * Binance USDⓈ-M futures market data under /fapi against the real engine and database (PGlite): exchangeInfo with
 * the perpetuals' rules as Binance filters, depth whose lastUpdateId is the contract book's sequence (one step per
 * engine command that changed the book, the same numbers the depth deltas carry), klines and mark price klines,
 * premiumIndex, funding history, the 24 h ticker, price and book tickers, the inverse exchangeInfo CCXT asks for;
 * bad input answers Binance's { code, msg }.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDecimal } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { fundContract, tick } from '../../domains/perp/perp-test-support';
import type { PerpDepthDelta } from '../../domains/market-data/perp/perp-market.service';

let t: TestApp;
const SYM = 'BTC/USDT';
const get = async (url: string) => {
  const r = await t.app.inject({ method: 'GET', url });
  return { status: r.statusCode, body: r.json() as unknown };
};
const px = (v: number) => BigInt(v) * 100n; // BTC/USDT price units (2 decimals)

beforeAll(async () => {
  t = await makeTestApp();
  await tick(t.ctx.host, px(50_000), SYM);
  for (const u of ['fp-1', 'fp-2']) await fundContract(t.ctx.host, u, 100_000n);
});
afterAll(async () => {
  await t?.close();
});

describe('/fapi market data', () => {
  it('exchangeInfo lists the perpetuals with Binance fields and filters; dapi lists none', async () => {
    const { status, body } = await get('/fapi/v1/exchangeInfo');
    expect(status).toBe(200);
    const info = body as { timezone: string; rateLimits: unknown[]; assets: Array<{ asset: string }>; symbols: Array<Record<string, unknown>> };
    expect(info.timezone).toBe('UTC');
    expect(info.rateLimits.length).toBeGreaterThan(0);
    expect(info.assets.map((a) => a.asset)).toEqual(['USDT']);
    const btc = info.symbols.find((s) => s.symbol === 'BTCUSDT')!;
    expect(btc).toMatchObject({
      pair: 'BTCUSDT',
      contractType: 'PERPETUAL',
      status: 'TRADING',
      baseAsset: 'BTC',
      quoteAsset: 'USDT',
      marginAsset: 'USDT',
      pricePrecision: 2,
      quantityPrecision: 5,
      maintMarginPercent: '0.4000',
      requiredMarginPercent: '0.8000',
      orderTypes: ['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'],
      timeInForce: ['GTC', 'IOC', 'FOK', 'GTX'],
    });
    const filters = btc.filters as Array<Record<string, unknown>>;
    expect(filters.find((f) => f.filterType === 'PRICE_FILTER')).toMatchObject({ minPrice: '0.01', tickSize: '0.01' });
    expect(filters.find((f) => f.filterType === 'LOT_SIZE')).toMatchObject({ minQty: '0.00001', stepSize: '0.00001' });
    expect(filters.find((f) => f.filterType === 'MARKET_LOT_SIZE')).toMatchObject({ minQty: '0.00001', stepSize: '0.00001' });
    expect(filters.find((f) => f.filterType === 'PERCENT_PRICE')).toMatchObject({ multiplierUp: '1.5000', multiplierDown: '0.5000' });
    expect(filters.find((f) => f.filterType === 'MIN_NOTIONAL')).toEqual({ filterType: 'MIN_NOTIONAL', notional: '0' });
    expect(info.symbols.map((s) => s.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'LTCUSDT', 'BNBUSDT', 'SOLUSDT', 'XRPUSDT', 'DOGEUSDT']);
    const dapi = await get('/dapi/v1/exchangeInfo');
    expect(dapi.status).toBe(200);
    expect((dapi.body as { symbols: unknown[] }).symbols).toEqual([]);
  });

  it('depth: the book with lastUpdateId = the contract book sequence, continued by the depth deltas', async () => {
    const deltas: PerpDepthDelta[] = [];
    const off = t.ctx.perpMarket.onDepthDelta((d) => {
      if (d.symbol === SYM) deltas.push(d);
    });
    const before = (await get('/fapi/v1/depth?symbol=BTCUSDT&limit=5')).body as { lastUpdateId: number };
    await t.ctx.perp.placeOrder('fp-1', { symbol: SYM, side: 'BUY', orderType: 'LIMIT', price: '49900.00', quantity: '0.10000' });
    await t.ctx.perp.placeOrder('fp-1', { symbol: SYM, side: 'BUY', orderType: 'LIMIT', price: '49900.00', quantity: '0.05000' });
    await t.ctx.perp.placeOrder('fp-2', { symbol: SYM, side: 'SELL', orderType: 'LIMIT', price: '50100.00', quantity: '0.20000' });
    off();
    const { status, body } = await get('/fapi/v1/depth?symbol=BTCUSDT&limit=5');
    expect(status).toBe(200);
    const d = body as { lastUpdateId: number; E: number; T: number; bids: string[][]; asks: string[][] };
    expect(d.bids).toEqual([['49900.00', '0.15000']]);
    expect(d.asks).toEqual([['50100.00', '0.20000']]);
    expect(d.lastUpdateId).toBe(before.lastUpdateId + 3);
    expect(deltas.map((x) => [x.prevSeq, x.seq])).toEqual([
      [before.lastUpdateId, before.lastUpdateId + 1],
      [before.lastUpdateId + 1, before.lastUpdateId + 2],
      [before.lastUpdateId + 2, before.lastUpdateId + 3],
    ]);
    expect(deltas[1]!.bids).toEqual([['49900.00', '0.15000']]);
    expect(deltas[2]!.asks).toEqual([['50100.00', '0.20000']]);
    const book = (await get('/fapi/v1/ticker/bookTicker?symbol=BTCUSDT')).body;
    expect(book).toMatchObject({
      symbol: 'BTCUSDT',
      bidPrice: '49900.00',
      bidQty: '0.15000',
      askPrice: '50100.00',
      askQty: '0.20000',
      lastUpdateId: d.lastUpdateId,
    });
  });

  it('a trade shows in the tickers, trades and klines, and in the open interest', async () => {
    const oiBefore = (await get('/fapi/v1/openInterest?symbol=BTCUSDT')).body as Record<string, string>;
    await t.ctx.perp.placeOrder('fp-1', { symbol: SYM, side: 'BUY', orderType: 'MARKET', quantity: '0.05000' });
    // The open interest: the longs' total size, which equals the shorts' (summed here from the engine's positions).
    const oi = (await get('/fapi/v1/openInterest?symbol=BTCUSDT')).body as Record<string, unknown>;
    const sides = { LONG: 0n, SHORT: 0n };
    for (const u of ['fp-1', 'fp-2']) {
      const pos = t.ctx.host.engine.position(u, SYM);
      if (pos) sides[pos.side] += pos.size;
    }
    expect(sides.LONG).toBe(sides.SHORT);
    expect(oi).toMatchObject({ symbol: 'BTCUSDT', openInterest: formatDecimal(sides.LONG, 5) });
    expect(BigInt((oi.openInterest as string).replace('.', ''))).toBeGreaterThan(BigInt(oiBefore.openInterest!.replace('.', '')));
    expect((await get('/fapi/v1/openInterest')).body).toMatchObject({ code: -1102 });
    expect((await get('/fapi/v1/openInterest?symbol=NOPEUSDT')).body).toMatchObject({ code: -1121 });
    const tk = (await get('/fapi/v1/ticker/24hr?symbol=BTCUSDT')).body as Record<string, unknown>;
    expect(tk).toMatchObject({ symbol: 'BTCUSDT', lastPrice: '50100.00', lastQty: '0.05000' });
    expect(BigInt((tk.volume as string).replace('.', ''))).toBeGreaterThanOrEqual(5000n);
    expect((await get('/fapi/v1/ticker/price?symbol=BTCUSDT')).body).toMatchObject({ symbol: 'BTCUSDT', price: '50100.00' });
    expect((await get('/fapi/v2/ticker/price?symbol=BTCUSDT')).body).toMatchObject({ symbol: 'BTCUSDT', price: '50100.00' });
    const all = (await get('/fapi/v1/ticker/24hr')).body as unknown[];
    expect(all).toHaveLength(7);
    const trades = (await get('/fapi/v1/trades?symbol=BTCUSDT&limit=1')).body as Array<Record<string, unknown>>;
    expect(trades).toEqual([expect.objectContaining({ price: '50100.00', qty: '0.05000', quoteQty: '2505.00000000', isBuyerMaker: false })]);
    const kl = (await get('/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=2')).body as unknown[][];
    expect(kl.length).toBeGreaterThanOrEqual(1);
    const last = kl[kl.length - 1]!;
    expect(last[4]).toBe('50100.00');
    expect(last[6]).toBe((last[0] as number) + 59_999);
    const from = (await get(`/fapi/v1/klines?symbol=BTCUSDT&interval=1m&startTime=${last[0] as number}&limit=5`)).body as unknown[][];
    expect(from[0]![0]).toBe(last[0]);
    const mk = (await get('/fapi/v1/markPriceKlines?symbol=BTCUSDT&interval=1m')).body as unknown[][];
    expect(mk.length).toBeGreaterThanOrEqual(1);
  });

  it('premiumIndex and fundingRate', async () => {
    const pi = (await get('/fapi/v1/premiumIndex?symbol=BTCUSDT')).body as Record<string, unknown>;
    const st = t.ctx.host.engine.perpMarkState(SYM)!;
    expect(pi).toMatchObject({ symbol: 'BTCUSDT', indexPrice: '50000.00', interestRate: '0.00010000', nextFundingTime: st.nextFundingTs });
    expect(pi.markPrice).toBe((Number(st.markPrice) / 100).toFixed(2));
    expect(pi.lastFundingRate).toMatch(/^-?0\.\d{8}$/);
    expect(((await get('/fapi/v1/premiumIndex')).body as unknown[]).length).toBe(7);
    const fr = (await get('/fapi/v1/fundingRate?symbol=BTCUSDT')).body;
    expect(fr).toEqual([]);
    // fundingInfo: the clamp of each market's rate as fractions with 8 decimals, and its interval in hours.
    const m = t.ctx.host.engine.perpMarket(SYM)!;
    const cap = `0.${m.fundingCapE8.toString().padStart(8, '0')}`;
    const info = (await get('/fapi/v1/fundingInfo')).body as Array<Record<string, unknown>>;
    expect(info.length).toBe(7);
    expect(info.find((i) => i.symbol === 'BTCUSDT')).toEqual({
      symbol: 'BTCUSDT',
      adjustedFundingRateCap: cap,
      adjustedFundingRateFloor: `-${cap}`,
      fundingIntervalHours: m.fundingIntervalMs / 3_600_000,
      disclaimer: false,
    });
  });

  it('answers bad input with Binance errors', async () => {
    expect(await get('/fapi/v1/depth?symbol=NOPEUSDT')).toEqual({ status: 400, body: { code: -1121, msg: 'Invalid symbol.' } });
    expect(await get('/fapi/v1/depth')).toEqual({
      status: 400,
      body: { code: -1102, msg: "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed." },
    });
    expect((await get('/fapi/v1/depth?symbol=BTCUSDT&limit=7')).body).toEqual({ code: -4021, msg: 'Invalid depth limit.' });
    expect((await get('/fapi/v1/depth?symbol=BTCUSDT&limit=abc')).body).toMatchObject({ code: -1100 });
    expect((await get('/fapi/v1/klines?symbol=BTCUSDT&interval=7m')).body).toEqual({ code: -1120, msg: 'Invalid interval.' });
    expect((await get('/fapi/v1/klines?symbol=BTCUSDT')).body).toMatchObject({ code: -1102 });
    expect((await get('/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=0')).body).toMatchObject({ code: -1100 });
    expect((await get('/fapi/v1/ticker/24hr?symbol=BTC%2FUSDT')).body).toMatchObject({ code: -1100 });
    expect((await get('/fapi/v1/fundingRate?limit=99999')).body).toMatchObject({ code: -1100 });
  });
});
