/**
 * Proves the contract market data against the real engine and database (PGlite): the seed lists the seven
 * perpetual markets with their rules (Binance brackets, fees, 1,000 USDT lots) and funds the insurance fund once
 * (a second seed pays nothing); a mark price tick shows as mark and index price and as a mark price bar; a book
 * trade shows as last price, 24 h volume, a trade bar and a recent trade; resting orders show in the depth;
 * getPairsByMainCur type CONTRACT answers the perpetual pairs at their last price; a settled funding is in the
 * funding history; unknown markets and malformed input get a clear error in the request's language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command, CommandResult, EngineEvent } from '@exchange/core';
import type { EnginePort } from '../../../platform/engine-port/engine-port';
import { createPerpMarketService } from './perp-market.service';
import { RowBuffer } from '../../../platform/engine-host/projector';
import { tableRows } from '../../../platform/db/projection-types';
import { perpProjection, PERP_FUNDING_RATES_TABLE } from '../../perp/perp.projection';
import { perpFundingRates } from '../../perp/perp.tables';
import { makeTestApp, type TestApp } from '../../../../test/helpers';
import { get } from '../../member/member-test-app';
import { INSURANCE_SEED, seedPerpMarkets } from '../seed/perp';

const U = 100_000_000n; // one USDT
let t: TestApp;
/** When the test app (and its seeded markets) began to be made: the markets were listed after it (Unix ms). */
let startedAt = 0;
const submit = async (cmd: Record<string, unknown>): Promise<CommandResult> => {
  const r = await t.app.ctx.host.submit(cmd as unknown as Command);
  expect(r.code).toBe('ok');
  return r;
};
const result = async (p: string, q: Record<string, string> = {}, lang: 'en' | 'zh' = 'en') => {
  const r = await get(t.app, `contract/market/${p}`, q, { lang });
  return { status: r.statusCode, body: r.json() };
};

beforeAll(async () => {
  startedAt = Date.now();
  t = await makeTestApp();
  for (const id of ['cm-1', 'cm-2'])
    await submit({ type: 'deposit', userId: id, asset: 'USDT', account: 'CONTRACT', amount: 100_000n * U, from: '@faucet', ref: `cm-${id}` });
});
afterAll(async () => {
  await t?.close();
});

/** The start of the 1-minute bar holding `ms` (Unix ms). */
const minuteOf = (ms: number): number => ms - (ms % 60_000);

describe('contract market data', () => {
  it('lists the seven perpetual markets with their rules; the insurance fund is seeded once', async () => {
    const { body } = await result('getMarkets');
    expect(body.status).toBe('SUCCEED');
    const markets = body.result as Array<Record<string, unknown>>;
    expect(markets.map((m) => m.symbol)).toEqual(['BTC/USDT', 'ETH/USDT', 'LTC/USDT', 'BNB/USDT', 'SOL/USDT', 'XRP/USDT', 'DOGE/USDT']);
    const btc = markets[0]!;
    expect(btc).toMatchObject({
      base: 'BTC',
      quote: 'USDT',
      status: 'TRADING',
      priceDecimals: 2,
      qtyDecimals: 5,
      tickSize: '0.01',
      stepSize: '0.00001',
      lotNotional: '1000.00000000',
      makerFeeRate: '0.0200',
      takerFeeRate: '0.0500',
      priceBandRate: '50.0000',
      maxLeverage: 125,
      fundingIntervalMs: 28_800_000,
      interestRate: '0.010000',
      fundingCap: '0.300000',
      lastPrice: '',
      volume24h: '0.00000',
    });
    expect((btc.brackets as unknown[]).length).toBe(10);
    expect((btc.brackets as unknown[])[1]).toEqual({
      notionalFloor: '50000.00000000',
      notionalCap: '250000.00000000',
      maxLeverage: 100,
      maintMarginRate: '0.5000',
    });
    expect(markets[1]).toMatchObject({ symbol: 'ETH/USDT', maxLeverage: 75 });
    expect((btc.nextFundingTime as number) % 28_800_000).toBe(0);
    const fund = () => t.app.ctx.host.engine.balance('@insurance', 'SYSTEM', 'USDT').available;
    expect(fund()).toBe(INSURANCE_SEED);
    await seedPerpMarkets(t.app.ctx.host, t.app.log, { insurance: true }); // a restart's seed
    expect(fund()).toBe(INSURANCE_SEED);
    expect(t.app.ctx.host.engine.perpMarkets()).toHaveLength(7);
  });

  it('shows a mark price tick, a book trade, the depth and the bars of both prices', async () => {
    await submit({ type: 'perpMarkPrice', symbol: 'BTC/USDT', indexPrice: 9_000_000n }); // 90,000.00
    let m = (await result('getMarket', { symbol: 'BTC/USDT' })).body.result;
    expect(m).toMatchObject({ markPrice: '90000.00', indexPrice: '90000.00', lastPrice: '' });
    // 0.01000 BTC at 90,000 (900 USDT): a resting sell, a resting bid below, and a buy taking the sell
    await submit({
      type: 'perpPlaceOrder',
      userId: 'cm-2',
      symbol: 'BTC/USDT',
      side: 'SELL',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 9_000_000n,
      quantity: 2_000n,
    });
    await submit({
      type: 'perpPlaceOrder',
      userId: 'cm-2',
      symbol: 'BTC/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 8_990_000n,
      quantity: 500n,
    });
    const depth = (await result('getDepth', { symbol: 'BTC/USDT', limit: '5' })).body.result;
    expect(depth).toMatchObject({ symbol: 'BTC/USDT', bids: [['89900.00', '0.00500']], asks: [['90000.00', '0.02000']] });
    await submit({
      type: 'perpPlaceOrder',
      userId: 'cm-1',
      symbol: 'BTC/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 9_000_000n,
      quantity: 1_000n,
    });
    m = (await result('getMarket', { symbol: 'BTC/USDT' })).body.result;
    expect(m).toMatchObject({ lastPrice: '90000.00', volume24h: '0.01000', quoteVolume24h: '900.00000000', high24h: '90000.00', low24h: '90000.00' });
    const trades = (await result('getTrades', { symbol: 'BTC/USDT' })).body.result;
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ price: '90000.00', amount: '0.01000', side: 'BUY' });
    const last = (await result('getKlines', { symbol: 'BTC/USDT', period: '1min' })).body.result;
    // the bar of the trade's minute (a minute may have begun since: its bar carries the close with no volume)
    expect(last.find((b: { time: number }) => b.time === minuteOf(trades[0].time))).toMatchObject({ open: '90000.00', close: '90000.00', volume: '0.01000' });
    expect(last.at(-1)).toMatchObject({ close: '90000.00' });
    await submit({ type: 'perpMarkPrice', symbol: 'BTC/USDT', indexPrice: 9_010_000n });
    const marks = (await result('getKlines', { symbol: 'BTC/USDT', period: '1min', price: 'mark' })).body.result;
    const bar = marks.at(-1);
    expect(bar.open).toBe('90000.00');
    expect(bar.volume).toBe('0.00000');
    // the bar closes at the engine's mark (a median of index-based prices and the last trade, Binance's method)
    const mark = t.app.ctx.host.engine.perpMarkState('BTC/USDT')!.markPrice!;
    expect(bar.close).toBe(`${mark / 100n}.${(mark % 100n).toString().padStart(2, '0')}`);
    expect((await result('getMarket', { symbol: 'BTC/USDT' })).body.result).toMatchObject({ markPrice: bar.close, indexPrice: '90100.00' });
    // getPairsByMainCur type CONTRACT: the perpetual pair at its last trade price
    const pairs = (await get(t.app, 'data/data/getPairsByMainCur', { mainCur: 'USDT', type: 'CONTRACT' })).json().result;
    expect(pairs.find((p: { pairsName: string }) => p.pairsName === 'BTC/USDT')).toMatchObject({ type: 'CONTRACT', price: '90000.00' });
    // the market data push of a ticker reaches subscribers
    const seen: string[] = [];
    const off = t.app.ctx.perpMarket.subscribe((u) => seen.push(`${u.kind}:${u.symbol}`));
    await submit({ type: 'perpMarkPrice', symbol: 'BTC/USDT', indexPrice: 9_011_000n });
    await new Promise((r) => setTimeout(r, 700));
    off();
    expect(seen).toContain('contractMark:BTC/USDT');
    expect(seen).toContain('contractTicker:BTC/USDT');
  });

  it('keeps the bars, the 24 h window and the recent trades across a restart of the service', async () => {
    await t.app.ctx.perpMarket.flush();
    // A new service on the same database and engine (as after a restart): bars and window from the klines rows,
    // the recent trades from the projected perp_trades.
    const again = await createPerpMarketService({ db: t.app.ctx.db, log: t.app.log, host: t.app.ctx.host, marketData: t.app.ctx.marketData });
    try {
      const bars = await again.klines('BTC/USDT', 'last', '1min', 5);
      // the bar of the trade's minute; a minute begun since has a bar of its own, at the close, without volume
      const traded = again.trades('BTC/USDT', 10)[0]!.time;
      expect(bars.find((b) => b.time === minuteOf(traded))).toMatchObject({ close: '90000.00', volume: '0.01000' });
      expect(bars.at(-1)).toMatchObject({ close: '90000.00' });
      expect(again.market('BTC/USDT')).toMatchObject({ volume24h: '0.01000', quoteVolume24h: '900.00000000' });
      expect(again.trades('BTC/USDT', 10)).toEqual(t.app.ctx.perpMarket.trades('BTC/USDT', 10));
      expect(again.trades('BTC/USDT', 10)).toHaveLength(1);
      expect((await again.klines('BTC/USDT', 'mark', '1min', 5)).at(-1)?.open).toBe('90000.00');
    } finally {
      await again.close();
    }
  });

  it('keeps the settled fundings, newest first', async () => {
    const now = Date.now();
    const h8 = 28_800_000;
    const engine = t.app.ctx.host.engine;
    // The next funding time is the first 8 h boundary after the listing, which happened between startedAt and now
    // (a run may cross a boundary in between, so the expectation follows the listing, not the clock).
    const next = engine.perpMarkState('BTC/USDT')!.nextFundingTs;
    expect(next % h8).toBe(0);
    expect(next).toBeGreaterThan(startedAt);
    expect(next - h8).toBeLessThanOrEqual(now);
    // the interval of the listing is not due again: it is the last one settled
    const r = await t.app.ctx.host.submit({ type: 'perpFunding', symbol: 'BTC/USDT', fundingTs: next - h8 });
    expect(r.code).toBe('funding_not_due');
    expect((await result('getFundingHistory', { symbol: 'BTC/USDT' })).body).toMatchObject({ status: 'SUCCEED', result: [] });
    // The settlements as the engine reports them (fundingSettled), through the contracts' projection in the projector's buffer and
    // written as the projection store writes them (insert once by symbol and funding time).
    const btc = engine.perpMarket('BTC/USDT')!;
    const host = {
      engine: { perpMarkets: () => [btc], perpMarket: (s: string) => (s === 'BTC/USDT' ? btc : undefined), perpMarkState: () => undefined },
      onEvents: () => () => {},
      projected: async () => {},
    } as unknown as EnginePort;
    const svc = await createPerpMarketService({ db: t.app.ctx.db, log: t.app.log, host, marketData: { listings: () => [], indexPrice: () => null } });
    const settled = (fundingTs: number, rateE8: number, markPrice: bigint): EngineEvent => ({
      type: 'fundingSettled',
      ts: fundingTs + 5,
      symbol: 'BTC/USDT',
      fundingTs,
      rateE8,
      markPrice,
      paid: 10n,
      received: 9n,
      positions: 2,
    });
    const t0 = 1_790_000_000_000 - (1_790_000_000_000 % h8);
    const buf = new RowBuffer(perpProjection.tables);
    const projectEvents = perpProjection.start();
    projectEvents(1, [settled(t0, 10_000, 9_000_000n)], buf);
    projectEvents(2, [settled(t0 + h8, -2_345, 9_100_050n)], buf);
    projectEvents(3, [settled(t0 + h8, 99, 1n)], buf); // a replayed event: the first row stays
    const rates = tableRows(buf.take(), PERP_FUNDING_RATES_TABLE);
    expect(rates).toHaveLength(3);
    for (const r of rates) await t.app.ctx.db.insert(perpFundingRates).values(r).onConflictDoNothing();
    expect(await svc.fundingHistory('BTC/USDT', 10)).toEqual([
      { symbol: 'BTC/USDT', fundingTime: t0 + h8, fundingRate: '-0.002345', markPrice: '91000.50' },
      { symbol: 'BTC/USDT', fundingTime: t0, fundingRate: '0.010000', markPrice: '90000.00' },
    ]);
    expect(await svc.fundingHistory('BTC/USDT', 1)).toHaveLength(1);
    expect((await svc.fundingHistory('BTC/USDT', 10, t0 + h8)).map((f) => f.fundingTime)).toEqual([t0]);
    await svc.close();
    // the route reads the same table
    const h = (await result('getFundingHistory', { symbol: 'BTC/USDT', limit: '1' })).body.result;
    expect(h).toEqual([{ symbol: 'BTC/USDT', fundingTime: t0 + h8, fundingRate: '-0.002345', markPrice: '91000.50' }]);
  });

  it('refuses unknown markets and bad input with a clear message', async () => {
    for (const p of ['getMarket', 'getDepth', 'getTrades', 'getFundingHistory']) {
      const r = await result(p, { symbol: 'NOPE/USDT' }, 'zh');
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ status: 'FAILED', errorCode: 'market_not_found', errorMessage: '交易对不存在' });
    }
    const k = await result('getKlines', { symbol: 'BTC/USDT', period: '1min', price: 'index' });
    expect(k.status).toBe(400);
    expect(k.body.status).toBe('FAILED');
    const lim = await result('getDepth', { symbol: 'BTC/USDT', limit: '1e308' });
    expect(lim.status).toBe(400);
    const spotOnly = await result('getMarket', { symbol: 'ADA/USDT' });
    expect(spotOnly.body).toMatchObject({ errorCode: 'market_not_found' });
  });
});
