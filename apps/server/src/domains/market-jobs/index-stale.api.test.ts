/**
 * The contract pause on a stale index, end to end and offline: the live index (domains/index-price) reads five local
 * fake exchanges through CCXT Pro (index-price-test-support.ts), the index job hands each tick to the mark price
 * ticker, which submits perpMarkPrice to the engine (with indexStale when the live index is stale), and the app's
 * API answers. minSources is 3 of the 5 sources, so two silent sources leave the index live and three make it stale.
 * While stale: an opening order is refused with index_stale (en and zh), a reduce-only close goes, the mark price holds
 * though the remaining sources fall 20% (no liquidation of a 100x long), the contract market and /fapi/v1/premiumIndex
 * say the contract is paused and why. The sources come back: the contract resumes and opening orders are accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { apiCaller, loginUser, type TestUser } from '../spot/spot-test-support';
import { PERP, ensurePerpMarket, fundContract } from '../perp/perp-test-support';
import { createProExchange } from '../index-price/ccxt-source';
import { createLiveIndex, type LiveIndex, type LiveIndexListing } from '../index-price/live-index';
import { liveTickOnBoard } from '../index-price/index-components';
import { loadBinanceTape, startFakeExchange, type FakeExchange, type FakeExchangeId } from '../index-price/index-price-test-support';
import type { ReferencePaths } from '../market-data/price-source';
import { startIndexJob } from './index-price.job';
import { futuresError } from '../../gateways/binance/futures.errors';
import { AppError } from '../../platform/shared/errors';
import { createMarkPriceTicker, type MarkPriceTicker } from './perp-ticks.job';
import { CONTRACT_MARKET_PATHS } from '@exchange/api';
import { formatDecimal, parseDecimal } from '@exchange/core';

const log = { warn: () => undefined, error: () => undefined, info: () => undefined } as unknown as FastifyBaseLogger;
const SYM = PERP.symbol;
const LISTING: LiveIndexListing = { symbol: SYM, base: PERP.base, quote: PERP.quote, priceDecimals: PERP.priceDecimals };
const IDS: FakeExchangeId[] = ['binance', 'okx', 'bybit', 'coinbase', 'kraken'];
const SILENT: FakeExchangeId[] = ['okx', 'bybit', 'coinbase'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const C = 'contract/contract';
/** A price in the market's units as the API's decimal string. */
const dec = (units: bigint) => formatDecimal(units, PERP.priceDecimals);

let t: TestApp;
const users: Record<string, TestUser> = {};
const call = apiCaller(() => t, users);
const fakes = {} as Record<FakeExchangeId, FakeExchange>;
let live: LiveIndex;
let marks: MarkPriceTicker;
let job: { stop(): void; tick(): void };

async function until<T>(what: string, f: () => T | undefined | false, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** One index job tick (live index -> mark price ticker -> engine), waited for. */
async function indexTick(): Promise<void> {
  job.tick();
  await marks.drain();
}

async function place(user: string, data: Record<string, string>, lang = 'en') {
  return call(user, 'POST', `${C}/placeOrder`, { symbol: SYM, ...data }, lang);
}

beforeAll(async () => {
  const tape = loadBinanceTape();
  for (const [i, id] of IDS.entries()) {
    fakes[id] = await startFakeExchange(id, { tape, stepMs: 40, offsetBps: 10_000n + BigInt(i), volume24h: '600000000' });
  }
  t = await makeTestApp();
  await ensurePerpMarket(t.ctx.host);
  users.alice = await loginUser(t, 'alice@index-stale.test');
  users.bob = await loginUser(t, 'bob@index-stale.test');
  users.carol = await loginUser(t, 'carol@index-stale.test');
  for (const u of ['alice', 'bob', 'carol']) await fundContract(t.ctx.host, users[u]!.userId, 100_000n);
  live = createLiveIndex({
    listings: [LISTING],
    configOf: () => ({
      sources: IDS.map((exchange) => ({ exchange, symbol: 'BTC/USDT', ...(exchange === 'binance' ? { watch: 'trades' as const } : {}) })),
      maxAgeMs: 1500,
      jumpBps: 2500,
      minSources: 3,
    }),
    now: Date.now,
    log,
    exchangeOf: (id) => createProExchange(id, fakes[id as FakeExchangeId].ccxtOverrides),
    timings: { restAfterMs: 600, pollMs: 150, retryMs: 200 },
  });
  live.start();
  marks = createMarkPriceTicker({ host: t.ctx.host, log });
  const paths: ReferencePaths = { get: () => undefined, all: () => [] };
  await until('all five sources live', () => live.tick(LISTING)?.used === 5);
  job = startIndexJob({
    host: t.ctx.host,
    sink: { listings: () => [LISTING], setIndexPrice: () => undefined },
    paths,
    log,
    intervalMs: 3_600_000,
    live: (l) => liveTickOnBoard(live, l, t.ctx.indexComponents),
    onIndex: marks.onIndex,
  });
  await marks.drain();
}, 90_000);
afterAll(async () => {
  job?.stop();
  await live?.stop();
  await t?.close();
  await Promise.all(Object.values(fakes).map((f) => f.close()));
});

describe('a stale index pauses the contract', () => {
  it('trades while the index is live, with two of five sources silent', async () => {
    await indexTick();
    const st = t.ctx.host.engine.perpMarkState(SYM);
    expect(st?.markPrice).not.toBeNull();
    expect(st?.indexStale).toBe(false);
    // alice isolated 100x long of 2 lots from bob's resting sell; bob stays short
    expect((await call('alice', 'POST', `${C}/setMarginMode`, { symbol: SYM, marginMode: 'ISOLATED' })).body.status).toBe('SUCCEED');
    expect((await call('alice', 'POST', `${C}/setLeverage`, { symbol: SYM, leverage: '100' })).body.status).toBe('SUCCEED');
    const mark = st?.markPrice as bigint;
    const price = dec(mark);
    expect((await place('bob', { side: 'SELL', orderType: 'LIMIT', price, lots: '2' })).body.status).toBe('SUCCEED');
    const buy = await place('alice', { side: 'BUY', orderType: 'MARKET', lots: '2' });
    expect(buy.body.status, JSON.stringify(buy.body)).toBe('SUCCEED');
    expect(t.ctx.host.engine.position(users.alice!.userId, SYM)?.side).toBe('LONG');
    // two silent: three sources left, the index stays live
    for (const id of SILENT.slice(0, 2)) fakes[id].silence(true);
    await until('two sources dropped', () => live.tick(LISTING)?.used === 3);
    await indexTick();
    expect(t.ctx.host.engine.perpMarkState(SYM)?.indexStale).toBe(false);
    // the components: the three live sources share the weight by 24 h volume (each its volume over their sum, 8
    // decimals rounded down, computed here from the tick's inputs), the two silent ones dropped as stale
    const comps = (await call(null, 'GET', CONTRACT_MARKET_PATHS.getIndexComponents, { symbol: SYM })).body.result;
    const tick = live.latest(SYM)!;
    expect(comps).toMatchObject({ symbol: SYM, mode: 'live', time: tick.ts, stale: false, reason: null });
    const vol = (source: string) => parseDecimal(tick.inputs.find((i) => i.source === source)!.volume24h, 18);
    const total = vol('binance') + vol('coinbase') + vol('kraken');
    const share = (source: string) => formatDecimal((vol(source) * 100_000_000n) / total, 8).replace(/0+$/, '');
    expect(comps.components.map((c: { source: string; weight: string; status: string }) => [c.source, c.weight, c.status])).toEqual([
      ['binance', share('binance'), 'used'],
      ['okx', '0', 'stale'],
      ['bybit', '0', 'stale'],
      ['coinbase', share('coinbase'), 'used'],
      ['kraken', share('kraken'), 'used'],
    ]);
  }, 60_000);

  it('three silent: stale; opening refused with index_stale, close allowed, the mark holds, nobody liquidated, the API says why', async () => {
    fakes[SILENT[2] as FakeExchangeId].silence(true);
    // the two sources left fall 20%: were it trusted, the 100x long would be liquidated
    fakes.binance.multiplierBps = 8_000n;
    fakes.kraken.multiplierBps = 8_000n;
    const held = t.ctx.host.engine.perpMarkState(SYM)?.markPrice as bigint;
    await until('the live index stale', () => {
      const r = live.tick(LISTING);
      return r?.stale === true && r.reason === 'too_few_sources' && r.used === 2;
    });
    await indexTick();
    const st = t.ctx.host.engine.perpMarkState(SYM);
    expect(st?.indexStale).toBe(true);
    expect(st?.indexStaleSince).toBeGreaterThan(0);
    expect(st?.markPrice).toBe(held);
    await indexTick();
    expect(t.ctx.host.engine.perpMarkState(SYM)?.markPrice).toBe(held);
    expect(t.ctx.host.engine.position(users.alice!.userId, SYM)?.size).toBeGreaterThan(0n);

    const en = await place('carol', { side: 'BUY', orderType: 'MARKET', lots: '1' }, 'en');
    const zh = await place('carol', { side: 'BUY', orderType: 'MARKET', lots: '1' }, 'zh');
    expect(en.status).toBe(400);
    expect(en.body.errorCode).toBe('index_stale');
    expect(en.body.errorMessage).toMatch(/paused.*index price is stale/);
    expect(zh.body.errorCode).toBe('index_stale');
    expect(zh.body.errorMessage).toMatch(/暂停交易/);
    // increasing a position is opening too
    expect((await place('alice', { side: 'BUY', orderType: 'MARKET', lots: '1' })).body.errorCode).toBe('index_stale');
    // a reduce-only close goes (a resting one: alice's reduce-only sell above the mark)
    const close = await place('alice', { side: 'SELL', orderType: 'LIMIT', price: dec((held * 101n) / 100n), lots: '1', reduceOnly: 'true' });
    expect(close.body.status, JSON.stringify(close.body)).toBe('SUCCEED');

    const market = await call(null, 'GET', `${CONTRACT_MARKET_PATHS.getMarket}`, { symbol: SYM });
    expect(market.body.result).toMatchObject({ symbol: SYM, paused: true, pauseReason: 'index_stale', pausedSince: st?.indexStaleSince });
    const prem = await t.app.inject({ method: 'GET', url: '/fapi/v1/premiumIndex?symbol=TSTPUSDT' });
    expect(prem.json()).toMatchObject({ symbol: 'TSTPUSDT', indexStale: true, pauseReason: 'index_stale' });
    // the components say why: two sources left of the three required, each half the weight
    const comps = (await call(null, 'GET', CONTRACT_MARKET_PATHS.getIndexComponents, { symbol: SYM }, 'zh')).body.result;
    expect(comps).toMatchObject({ symbol: SYM, mode: 'live', stale: true, reason: 'too_few_sources' });
    const weights = comps.components.filter((c: { weight: string }) => c.weight !== '0').map((c: { source: string; weight: string }) => [c.source, c.weight]);
    expect(weights.map((w: string[]) => w[0])).toEqual(['binance', 'kraken']);
    expect(Number(weights[0][1]) + Number(weights[1][1])).toBeCloseTo(1, 7);
    const constituents = await t.app.inject({ method: 'GET', url: '/fapi/v1/constituents?symbol=TSTPUSDT' });
    expect(constituents.statusCode).toBe(200);
    expect(constituents.json()).toMatchObject({
      symbol: 'TSTPUSDT',
      time: comps.time,
      constituents: [
        { exchange: 'binance', symbol: `${PERP.base}/${PERP.quote}`, weight: weights[0][1] },
        { exchange: 'kraken', symbol: `${PERP.base}/${PERP.quote}`, weight: weights[1][1] },
      ],
    });
    expect((await t.app.inject({ method: 'GET', url: '/fapi/v1/constituents?symbol=NOPEUSDT' })).json()).toMatchObject({ code: -1121 });
    const unknown = await call(null, 'GET', CONTRACT_MARKET_PATHS.getIndexComponents, { symbol: 'NOPE/USDT' });
    expect([unknown.status, unknown.body.errorCode]).toEqual([400, 'market_not_found']);
    // the /fapi order routes answer the engine's index_stale as Binance's reduce-only mode
    expect(futuresError(new AppError('index_stale', 400))).toMatchObject({ code: -4400, status: 400 });
  }, 60_000);

  it('the sources come back: the contract resumes and opening orders are accepted', async () => {
    fakes.binance.multiplierBps = 10_000n;
    fakes.kraken.multiplierBps = 10_000n;
    for (const id of SILENT) fakes[id].silence(false);
    await until('the live index live again', () => live.tick(LISTING)?.stale === false);
    await indexTick();
    expect(t.ctx.host.engine.perpMarkState(SYM)?.indexStale).toBe(false);
    const market = await call(null, 'GET', `${CONTRACT_MARKET_PATHS.getMarket}`, { symbol: SYM });
    expect(market.body.result).toMatchObject({ paused: false, pauseReason: '', pausedSince: 0 });
    const prem = (await t.app.inject({ method: 'GET', url: '/fapi/v1/premiumIndex?symbol=TSTPUSDT' })).json() as Record<string, unknown>;
    expect(prem.indexStale).toBeUndefined();
    const open = await place('carol', {
      side: 'SELL',
      orderType: 'LIMIT',
      price: dec(((t.ctx.host.engine.perpMarkState(SYM)?.markPrice as bigint) * 102n) / 100n),
      lots: '1',
    });
    expect(open.body.status, JSON.stringify(open.body)).toBe('SUCCEED');
  }, 60_000);
});
