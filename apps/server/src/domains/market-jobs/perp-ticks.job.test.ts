/**
 * Proves the perpetual markets' clock with an injected clock and a recording engine port: each index tick becomes
 * one perpMarkPrice in the perpetual market's price units (none while the previous one is in flight, none for a
 * market the engine does not list); funding is submitted once at each 8 h boundary (00:00, 08:00, 16:00 UTC), the
 * first check after a start settles the boundary already passed (catch-up of a funding missed while down), a
 * funding_not_due answer counts as done and a refusal is retried. Also the listing of the perpetual markets
 * (seed/perp.ts): Binance's BTCUSDT brackets, a 75x table for the others, decimals within the settle scale.
 */
import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { bracketTiers, type Command, type CommandResult, type PerpMarketConfig } from '@exchange/core';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { createMarkPriceTicker, fundingTimeAtOrBefore, startFundingJob } from './perp-ticks.job';
import { ALT_BRACKETS, BTC_BRACKETS, perpCatalog, perpMarketConfigOf } from '../market-data/seed/perp';
import { ReferenceOverrides } from './reference-override';
import type { ReferencePath, ReferencePaths } from '../market-data/price-source';

const log = { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} } as unknown as FastifyBaseLogger;
const H8 = 28_800_000;
/** 2026-11-24 00:00 UTC */
const MIDNIGHT = Date.UTC(2026, 10, 24);

/** A port whose engine lists `markets`; submit records the command and answers `answer(cmd)` (maybe later). */
function fakeHost(markets: PerpMarketConfig[], answer: (cmd: Command) => CommandResult['code'] = () => 'ok') {
  const sent: Command[] = [];
  const pending: Array<() => void> = [];
  let hold = false;
  const host = {
    engine: {
      perpMarket: (s: string) => markets.find((m) => m.symbol === s),
      perpMarkets: () => markets,
    },
    submit: (cmd: Command) => {
      sent.push(cmd);
      const r = { code: answer(cmd), events: [] } as unknown as CommandResult;
      if (!hold) return Promise.resolve(r);
      return new Promise<CommandResult>((resolve) => pending.push(() => resolve(r)));
    },
  } as unknown as EnginePort;
  return {
    host,
    sent,
    hold: (v: boolean) => (hold = v),
    release: () => pending.splice(0).forEach((f) => f()),
  };
}

const btc = perpMarketConfigOf(perpCatalog()[0]!);
const eth = perpMarketConfigOf(perpCatalog()[1]!);

describe('perpetual listings', () => {
  it('lists every USDT pair with an index, Binance BTCUSDT brackets for BTC and 75x for the others', () => {
    expect(perpCatalog().map((m) => `${m.base}/${m.quote}`)).toEqual(['BTC/USDT', 'ETH/USDT', 'LTC/USDT', 'BNB/USDT', 'SOL/USDT', 'XRP/USDT', 'DOGE/USDT']);
    for (const m of perpCatalog().map(perpMarketConfigOf)) {
      expect(m.priceDecimals + m.qtyDecimals).toBeLessThanOrEqual(8);
      expect(m.lotNotional).toBe(1000n * 10n ** 8n);
      expect([m.makerFeePpm, m.takerFeePpm, m.priceBandPpm, m.fundingIntervalMs, m.interestRateE8, m.fundingCapE8, m.markBasisSamples]).toEqual([
        200,
        500,
        500_000,
        H8,
        10_000,
        300_000,
        300,
      ]);
      // each tier's initial margin rate (1 / leverage) is above its maintenance rate, caps and rates increase
      m.brackets.forEach((b, i) => {
        expect(1_000_000 / b.maxLeverage).toBeGreaterThan(b.maintMarginPpm);
        if (i > 0) {
          expect(b.notionalCap).toBeGreaterThan(m.brackets[i - 1]!.notionalCap);
          expect(b.maintMarginPpm).toBeGreaterThan(m.brackets[i - 1]!.maintMarginPpm);
        }
      });
    }
    expect(btc.brackets).toEqual(BTC_BRACKETS);
    expect(BTC_BRACKETS.map((b) => [Number(b.notionalCap / 10n ** 8n), b.maxLeverage, b.maintMarginPpm])).toEqual([
      [50_000, 125, 4_000],
      [250_000, 100, 5_000],
      [1_000_000, 50, 10_000],
      [10_000_000, 20, 25_000],
      [20_000_000, 10, 50_000],
      [50_000_000, 5, 100_000],
      [100_000_000, 4, 125_000],
      [200_000_000, 3, 150_000],
      [300_000_000, 2, 250_000],
      [500_000_000, 1, 500_000],
    ]);
    // Binance's maintenance amounts of BTCUSDT: 0, 50, 1,300, 16,300, 266,300 USDT ...
    expect(
      bracketTiers(BTC_BRACKETS)
        .slice(0, 5)
        .map((t) => t.cumE6 / 10n ** 14n),
    ).toEqual([0n, 50n, 1_300n, 16_300n, 266_300n]);
    expect(eth.brackets[0]).toEqual(ALT_BRACKETS[0]);
    expect(eth.brackets[0]!.maxLeverage).toBe(75);
  });
});

describe('mark price ticks', () => {
  it('submits one perpMarkPrice per index tick in the market units, none while one is in flight', async () => {
    const f = fakeHost([btc]);
    const t = createMarkPriceTicker({ host: f.host, log });
    const listing = { symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', priceDecimals: 2 };
    f.hold(true);
    t.onIndex(listing, 9_123_456n, MIDNIGHT);
    t.onIndex(listing, 9_123_999n, MIDNIGHT + 1000); // the first is unanswered: skipped
    expect(f.sent).toEqual([{ type: 'perpMarkPrice', symbol: 'BTC/USDT', indexPrice: 9_123_456n }]);
    f.release();
    await t.drain();
    t.onIndex({ ...listing, priceDecimals: 4 }, 912_345_650n, MIDNIGHT + 2000); // 4 decimals -> 2, half up
    t.onIndex({ ...listing, symbol: 'NOPE/USDT' }, 1n, MIDNIGHT + 2000); // no such perpetual market
    f.release();
    await t.drain();
    expect(f.sent.map((c) => (c as { indexPrice: bigint }).indexPrice)).toEqual([9_123_456n, 9_123_457n]);
    expect(t.stats).toEqual({ submitted: 2, skipped: 1, refused: 0 });
  });

  it('submits a stale index as perpMarkPrice with indexStale (its price informative, 0n allowed), a fresh one without it', async () => {
    const f = fakeHost([btc]);
    const t = createMarkPriceTicker({ host: f.host, log });
    const listing = { symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', priceDecimals: 2 };
    t.onIndex(listing, 0n, MIDNIGHT, true);
    await t.drain();
    t.onIndex(listing, 9_123_456n, MIDNIGHT + 1000, true);
    await t.drain();
    t.onIndex(listing, 0n, MIDNIGHT + 2000); // a fresh index of 0 is no index: nothing sent
    t.onIndex(listing, 9_123_457n, MIDNIGHT + 3000, false);
    await t.drain();
    expect(f.sent).toEqual([
      { type: 'perpMarkPrice', symbol: 'BTC/USDT', indexPrice: 0n, indexStale: true },
      { type: 'perpMarkPrice', symbol: 'BTC/USDT', indexPrice: 9_123_456n, indexStale: true },
      { type: 'perpMarkPrice', symbol: 'BTC/USDT', indexPrice: 9_123_457n },
    ]);
  });
});

describe('funding job', () => {
  it('settles at each 8 h boundary once, catching up the boundary passed before a start', async () => {
    let now = MIDNIGHT + 5 * 3_600_000; // 05:00: the 00:00 funding was missed while down
    const f = fakeHost([btc, eth]);
    const job = startFundingJob({ host: f.host, log, now: () => now, intervalMs: 0 });
    await job.tick();
    expect(f.sent).toEqual([
      { type: 'perpFunding', symbol: 'BTC/USDT', fundingTs: MIDNIGHT },
      { type: 'perpFunding', symbol: 'ETH/USDT', fundingTs: MIDNIGHT },
    ]);
    now = MIDNIGHT + H8 - 1; // 07:59:59.999: nothing due
    await job.tick();
    expect(f.sent).toHaveLength(2);
    now = MIDNIGHT + H8; // 08:00
    await job.tick();
    await job.tick();
    expect(f.sent.slice(2)).toEqual([
      { type: 'perpFunding', symbol: 'BTC/USDT', fundingTs: MIDNIGHT + H8 },
      { type: 'perpFunding', symbol: 'ETH/USDT', fundingTs: MIDNIGHT + H8 },
    ]);
    expect(job.done.get('BTC/USDT')).toBe(MIDNIGHT + H8);
    await job.stop();
  });

  it('counts funding_not_due as done and retries any other refusal at the next check', async () => {
    let code: CommandResult['code'] = 'mark_price_unavailable';
    const f = fakeHost([btc], () => code);
    const job = startFundingJob({ host: f.host, log, now: () => MIDNIGHT + 16 * 3_600_000 + 5, intervalMs: 0 });
    await job.tick();
    await job.tick();
    expect(f.sent).toHaveLength(2); // refused twice, retried
    code = 'funding_not_due'; // settled before the restart
    await job.tick();
    await job.tick();
    expect(f.sent).toHaveLength(3);
    expect(job.done.get('BTC/USDT')).toBe(MIDNIGHT + 16 * 3_600_000);
    await job.stop();
  });

  it('aligns funding times to the Unix epoch', () => {
    expect(fundingTimeAtOrBefore(MIDNIGHT + H8 + 1, H8)).toBe(MIDNIGHT + H8);
    expect(new Date(fundingTimeAtOrBefore(Date.UTC(2026, 0, 1, 23, 59), H8)).toISOString()).toBe('2026-01-01T16:00:00.000Z');
  });
});

describe('reference overrides', () => {
  it('pins the USDT path of a coin while set, bars and other coins unchanged', () => {
    const path = (base: string, price: string): ReferencePath => ({
      base,
      quote: 'USDT',
      provenance: { demoData: true, source: 'test' },
      priceAt: () => price,
      bars: () => [{ time: 0, open: price, high: price, low: price, close: price, volume: '1' }],
    });
    const inner: ReferencePaths = { get: (b) => (b === 'BTC' ? path('BTC', '90000.00') : b === 'ETH' ? path('ETH', '3000.00') : undefined), all: () => [] };
    inner.pair = (b, q) => (q === 'USDT' ? inner.get(b) : undefined);
    const o = new ReferenceOverrides();
    const paths = o.wrap(inner);
    expect(paths.get('BTC')?.priceAt(1)).toBe('90000.00');
    o.set('BTC', '81000.00');
    expect(paths.get('BTC')?.priceAt(1)).toBe('81000.00');
    expect(paths.pair?.('BTC', 'USDT')?.priceAt(1)).toBe('81000.00');
    expect(paths.get('BTC')?.bars(60_000, 0, 60_000)[0]?.close).toBe('90000.00');
    expect(paths.get('ETH')?.priceAt(1)).toBe('3000.00');
    o.clear('BTC');
    expect(paths.get('BTC')?.priceAt(1)).toBe('90000.00');
  });
});
