/**
 * The live index over all ten exchanges of DEFAULT_INDEX_EXCHANGES, offline: CCXT Pro 4.5.84's own exchange classes
 * with only their urls pointed at local fakes that speak each exchange's public spot REST and ticker socket
 * (index-price-test-support.ts), every fake publishing the recorded Binance BTCUSDT tape at its own offset and 24 h
 * volume. The default coin config (defaultCoinIndex: ticker channel everywhere but MEXC's REST ticker, jump 25%, at least 4 sources) with a
 * 3 s maxAgeMs (MEXC is priced by its REST ticker, which CCXT throttles to one call per 1.25 s: ticker/24hr costs
 * 25 x its 50 ms rateLimit). Proves, each index checked against a model of the published rule computed here (spec section 9:
 * "weighted average of top 10 exchanges, clamped to median +/-3%", weights = 24 h quote volume): all ten sources used
 * (nine by their sockets, MEXC by its REST ticker); one source spiking +20% enters at the median +3%; one exchange
 * going silent is dropped as stale once its price is older than maxAgeMs; every stream stopped, each exchange's REST
 * ticker keeps it (the same index); seven silent leave three sources, under the
 * minimum of four, and the index is stale; recovery brings all ten back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDecimal } from '@exchange/core';
import type { FastifyBaseLogger } from 'fastify';
import { createProExchange } from './ccxt-source';
import { createLiveIndex, type LiveIndex, type LiveIndexListing, type LiveIndexTick } from './live-index';
import { DEFAULT_INDEX_EXCHANGES, defaultCoinIndex } from './index-sources.config';
import { derivedQuoteVolume, loadBinanceTape, startFakeExchange, type FakeExchange, type FakeExchangeId } from './index-price-test-support';
import { toUnits } from '../../platform/shared/decimal';

const log = { warn: () => undefined, error: () => undefined, info: () => undefined } as unknown as FastifyBaseLogger;
const BTC: LiveIndexListing = { symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', priceDecimals: 2 };
const MAX_AGE_MS = 3000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Each exchange's price offset from the tape (basis points of it) and 24 h quote volume (multiples of 60000). */
const SETUP: Record<FakeExchangeId, { offsetBps: bigint; volume24h: string }> = {
  binance: { offsetBps: 10_000n, volume24h: '900000000' },
  okx: { offsetBps: 10_002n, volume24h: '420000000' },
  bybit: { offsetBps: 9_998n, volume24h: '300000000' },
  coinbase: { offsetBps: 10_001n, volume24h: '240000000' },
  kraken: { offsetBps: 9_999n, volume24h: '120000000' },
  kucoin: { offsetBps: 10_003n, volume24h: '180000000' },
  gate: { offsetBps: 9_997n, volume24h: '150000000' },
  bitget: { offsetBps: 10_004n, volume24h: '210000000' },
  mexc: { offsetBps: 9_996n, volume24h: '90000000' },
  htx: { offsetBps: 10_005n, volume24h: '60000000' },
};

let fakes: Record<FakeExchangeId, FakeExchange>;
let live: LiveIndex;

async function until<T>(what: string, f: () => T | undefined | false, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

beforeAll(async () => {
  expect(Object.keys(SETUP)).toEqual([...DEFAULT_INDEX_EXCHANGES]);
  const tape = loadBinanceTape();
  const started = await Promise.all(
    DEFAULT_INDEX_EXCHANGES.map(
      async (id) => [id, await startFakeExchange(id as FakeExchangeId, { tape, stepMs: 40, held: true, ...SETUP[id as FakeExchangeId] })] as const,
    ),
  );
  fakes = Object.fromEntries(started) as Record<FakeExchangeId, FakeExchange>;
  live = createLiveIndex({
    listings: [BTC],
    configOf: (l) => ({ ...defaultCoinIndex(l.base, l.quote), maxAgeMs: MAX_AGE_MS }),
    now: Date.now,
    log,
    exchangeOf: (id) => createProExchange(id, fakes[id as FakeExchangeId].ccxtOverrides),
    timings: { restAfterMs: 600, pollMs: 150, retryMs: 200 },
  });
  live.start();
}, 30_000);
afterAll(async () => {
  await live?.stop();
  await Promise.all(Object.values(fakes ?? {}).map((f) => f.close()));
});

/**
 * Holds every tape and waits until each of `ids` has, as its last quote, its exchange's held price and a volume:
 * answers those prices.
 */
async function steady(ids: readonly FakeExchangeId[]): Promise<Record<string, string>> {
  for (const f of Object.values(fakes)) f.hold(true);
  await sleep(300);
  return until(
    `${ids.join(', ')} at their held prices`,
    () => {
      const want: Record<string, string> = {};
      for (const s of live.sourcesOf(BTC.symbol)) {
        if (!ids.includes(s.name as FakeExchangeId)) continue;
        const q = s.latest();
        const f = fakes[s.name as FakeExchangeId];
        if (!q || f.lastPrice === null || toUnits(q.price, 8) !== toUnits(f.lastPrice, 8) || q.volume24h === '0') return undefined;
        want[s.name] = f.lastPrice;
      }
      return want;
    },
    15_000,
  );
}

/** Trailing zeros (and a bare point) off a decimal string. */
const trimmed = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);

/**
 * The published rule, computed here on exact fractions: the unweighted median m of the prices (an even count: the
 * mean of the two middle ones); each price clamped to [0.97 m, 1.03 m]; the average of the clamped prices weighted
 * by each exchange's 24 h quote volume; half up to 2 decimals. Prices and volumes are 8-decimal strings. Answers the
 * index, the median and each exchange's clamped price (trimmed decimal strings).
 */
function model(prices: Record<string, string>): { index: string; median: string; clamped: Record<string, string> } {
  const ids = Object.keys(prices) as FakeExchangeId[];
  const p = ids.map((id) => toUnits(prices[id] as string, 8));
  const sorted = [...p].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const h = sorted.length >> 1;
  // 200 x the median in 1e-8 units is an integer: 100 x (the middle price doubled, or the two middle ones summed).
  const median200 = 100n * (sorted.length % 2 === 1 ? 2n * (sorted[h] as bigint) : (sorted[h - 1] as bigint) + (sorted[h] as bigint));
  const low = (median200 * 97n) / 100n;
  const high = (median200 * 103n) / 100n;
  let num = 0n;
  let den = 0n;
  const clamped: Record<string, string> = {};
  ids.forEach((id, k) => {
    const x200 = (p[k] as bigint) * 200n;
    const c = x200 < low ? low : x200 > high ? high : x200;
    // c / 200 in 1e-8 units = c x 5 x 10^7 in 1e-18 units.
    clamped[id] = trimmed(formatDecimal(c * 50_000_000n, 18));
    const w = toUnits(derivedQuoteVolume(id, SETUP[id].volume24h, prices[id] as string), 8);
    num += c * w;
    den += w;
  });
  // index in 1e-2 units = num / (den x 200 x 10^6), half up.
  const d = den * 200n * 1_000_000n;
  return { index: formatDecimal((2n * num + d) / (2n * d), 2), median: trimmed(formatDecimal(median200 * 50_000_000n, 18)), clamped };
}

function statuses(tick: LiveIndexTick | undefined): Record<string, string> {
  return Object.fromEntries((tick?.inputs ?? []).map((i) => [i.source, i.status]));
}

const ALL = DEFAULT_INDEX_EXCHANGES as readonly FakeExchangeId[];

describe('the live index over the ten default exchanges', () => {
  it('uses all ten, weighted by 24 h volume, exactly the rule', async () => {
    const p = await steady(ALL);
    const tick = live.tick(BTC);
    const m = model(p);
    expect(tick).toMatchObject({ stale: false, reason: null, used: 10, median: m.median, price: m.index });
    // every fake holds the tape's first trade (61685.99) at its offset: the figures of the rule, written out
    expect([p.binance, p.htx, m.median, tick?.price]).toEqual(['61685.99000000', '61716.83299500', '61689.0742995', '61688.84']);
    expect(tick?.inputs.map((i) => [i.source, i.status, i.price, i.usedPrice])).toEqual(ALL.map((id) => [id, 'used', trimmed(p[id] as string), m.clamped[id]]));
    expect(tick?.inputs.map((i) => [i.source, toUnits(i.volume24h, 8)])).toEqual(
      ALL.map((id) => [id, toUnits(derivedQuoteVolume(id, SETUP[id].volume24h, p[id] as string), 8)]),
    );
    // nine priced by their sockets; MEXC's socket (protobuf bookTicker) has no last price: its REST ticker prices it
    const via = Object.fromEntries(live.sourcesOf(BTC.symbol).map((s) => [s.name, s.stats.wsUpdates > 0 ? 'ws' : s.stats.restUpdates > 0 ? 'rest' : 'none']));
    expect(via).toEqual({ ...Object.fromEntries(ALL.map((id) => [id, 'ws'])), mexc: 'rest' });
    for (const id of ALL) expect([id, fakes[id].counts.rest > 0]).toEqual([id, true]);
    // no source failed: MEXC is read by REST only by default (DEFAULT_REST_ONLY), its socket never opened
    const errors = Object.fromEntries(live.sourcesOf(BTC.symbol).map((s) => [s.name, s.stats.lastError]));
    expect(errors).toEqual(Object.fromEntries(ALL.map((id) => [id, null])));
    expect(fakes.mexc.counts.pushed).toBe(0);
    console.log(`ten sources: index ${tick?.price}, median ${tick?.median}, prices ${JSON.stringify(p)}`);
  }, 30_000);

  it('clamps one source spiking +20% to the median +3%', async () => {
    fakes.kucoin.multiplierBps = 12_000n;
    const p = await steady(ALL);
    const tick = live.tick(BTC);
    const m = model(p);
    expect(toUnits(p.kucoin as string, 8) * 10_000n).toBeGreaterThan(toUnits(m.median, 8) * 11_000n);
    expect(tick).toMatchObject({ stale: false, used: 10, median: m.median, price: m.index });
    expect([p.kucoin, m.clamped.kucoin, tick?.price]).toEqual(['74045.39495640', '63539.746528485', '61812.25']);
    expect(tick?.inputs.find((i) => i.source === 'kucoin')).toMatchObject({
      status: 'clamped',
      price: trimmed(p.kucoin as string),
      usedPrice: m.clamped.kucoin,
    });
    // the clamped price is the median x 1.03 exactly
    expect(toUnits(m.clamped.kucoin as string, 18)).toBe((toUnits(m.median, 18) * 103n) / 100n);
    expect(Object.values(statuses(tick)).filter((s) => s === 'clamped')).toEqual(['clamped']);
    console.log(`kucoin +20%: ${p.kucoin} enters at ${m.clamped.kucoin} (median ${m.median}); index ${tick?.price}`);
    fakes.kucoin.multiplierBps = 10_000n;
    await steady(ALL);
  }, 30_000);

  it('drops an exchange gone silent once its price is older than maxAgeMs', async () => {
    const p = await steady(ALL);
    fakes.kraken.silence(true);
    const silencedAt = Date.now();
    const early = live.tick(BTC);
    expect(statuses(early).kraken).toBe('used');
    const tick = await until('kraken stale', () => {
      const t = live.tick(BTC);
      return statuses(t).kraken === 'stale' ? t : undefined;
    });
    expect(Date.now() - silencedAt).toBeGreaterThanOrEqual(MAX_AGE_MS - 700);
    const kraken = tick.inputs.find((i) => i.source === 'kraken');
    expect(kraken?.ageMs).toBeGreaterThan(MAX_AGE_MS);
    expect(kraken?.usedPrice).toBeNull();
    const rest = Object.fromEntries(Object.entries(p).filter(([id]) => id !== 'kraken'));
    const m = model(rest);
    expect(tick).toMatchObject({ stale: false, reason: null, used: 9, median: m.median, price: m.index });
    expect(tick.price).toBe('61689.26');
    console.log(`kraken silent ${Date.now() - silencedAt} ms: dropped at age ${kraken?.ageMs} ms; index of nine ${tick.price}`);
  }, 30_000);

  it('every stream stopped: each exchange kept alive by its REST ticker, the same index', async () => {
    fakes.kraken.silence(false);
    const p = await steady(ALL);
    const sources = live.sourcesOf(BTC.symbol);
    const before = Object.fromEntries(sources.map((s) => [s.name, s.stats.restUpdates]));
    for (const f of Object.values(fakes)) f.silence(true, false);
    const stoppedAt = Date.now();
    await until('every source priced by REST since', () => sources.every((s) => s.stats.restUpdates > (before[s.name] ?? 0)), 15_000);
    const allRestMs = Date.now() - stoppedAt;
    // past maxAgeMs: the stream prices have aged out, only the REST ones keep each source
    await sleep(Math.max(0, MAX_AGE_MS + 500 - allRestMs));
    const tick = live.tick(BTC);
    const m = model(p);
    expect(statuses(tick)).toEqual(Object.fromEntries(ALL.map((id) => [id, 'used'])));
    expect(tick).toMatchObject({ stale: false, used: 10, median: m.median, price: m.index });
    expect(tick?.price).toBe('61688.84');
    // Coinbase's REST ticker has no volume: its weight is still the one its stream gave last
    expect(toUnits(tick?.inputs.find((i) => i.source === 'coinbase')?.volume24h as string, 8)).toBe(
      toUnits(derivedQuoteVolume('coinbase', SETUP.coinbase.volume24h, p.coinbase as string), 8),
    );
    const rest = Object.fromEntries(sources.map((s) => [s.name, s.stats.restUpdates - (before[s.name] ?? 0)]));
    console.log(`streams stopped ${Date.now() - stoppedAt} ms (all on REST after ${allRestMs} ms): REST quotes ${JSON.stringify(rest)}; index ${tick?.price}`);
    for (const f of Object.values(fakes)) f.silence(false);
  }, 30_000);

  it('seven silent leave three sources, under the minimum of four: stale; recovery brings all ten back', async () => {
    const silent: FakeExchangeId[] = ['coinbase', 'kraken', 'kucoin', 'gate', 'bitget', 'mexc', 'htx'];
    const p = await steady(['binance', 'okx', 'bybit']);
    for (const id of silent) fakes[id].silence(true);
    expect([p.binance, p.okx, p.bybit]).toEqual(['61685.99000000', '61698.32719800', '61673.65280200']);
    const tick = await until('seven stale', () => {
      const t = live.tick(BTC);
      return t && t.used === 3 ? t : undefined;
    });
    const m = model({ binance: p.binance as string, okx: p.okx as string, bybit: p.bybit as string });
    expect(tick).toMatchObject({ stale: true, reason: 'too_few_sources', used: 3, median: m.median, price: m.index });
    expect(statuses(tick)).toEqual({ binance: 'used', okx: 'used', bybit: 'used', ...Object.fromEntries(silent.map((id) => [id, 'stale'])) });
    expect(tick.price).toBe('61686.90');
    // the tapes move again while the seven come back
    for (const f of Object.values(fakes)) f.hold(false);
    for (const id of silent) fakes[id].silence(false);
    const back = await until(
      'all ten live again',
      () => {
        const t = live.tick(BTC);
        return t && !t.stale && t.used === 10 ? t : undefined;
      },
      15_000,
    );
    expect(back.reason).toBeNull();
    const q = await steady(ALL);
    expect(live.tick(BTC)).toMatchObject({ stale: false, used: 10, price: model(q).index });
  }, 45_000);
});
