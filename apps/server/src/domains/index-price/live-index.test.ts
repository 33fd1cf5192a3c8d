/**
 * The live index offline, end to end through CCXT Pro 4.5.84's own binance, okx and bybit classes with only their
 * urls pointed at local servers that speak those exchanges' REST and stream formats (index-price-test-support.ts):
 * Binance replays real recorded trade messages (watchTrades, its 24 h volume from the REST ticker), OKX and Bybit
 * publish the same tape in their ticker channels. Proves: the exact volume-weighted index of the three; a source
 * spiking 20% is clamped to the median +3%; a source whose stream stops is kept alive by the REST fallback; two
 * sources gone silent (stream and REST) are dropped as stale and the index is stale under its minimum of 2;
 * recovery makes it live again; the metrics say so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { formatDecimal } from '@exchange/core';
import type { FastifyBaseLogger } from 'fastify';
import { createProExchange } from './ccxt-source';
import { createLiveIndex, type LiveIndex, type LiveIndexListing } from './live-index';
import { loadBinanceTape, startFakeExchange, type FakeExchange } from './index-price-test-support';
import { toUnits } from '../../platform/shared/decimal';

const log = { warn: () => undefined, error: () => undefined, info: () => undefined } as unknown as FastifyBaseLogger;
const BTC: LiveIndexListing = { symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', priceDecimals: 2 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let fakes: Record<'binance' | 'okx' | 'bybit', FakeExchange>;
let live: LiveIndex;
const registry = new Registry();

async function until<T>(what: string, f: () => T | undefined | false, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

beforeAll(async () => {
  const tape = loadBinanceTape();
  fakes = {
    binance: await startFakeExchange('binance', { tape, stepMs: 40, volume24h: '600000000.00000000' }),
    okx: await startFakeExchange('okx', { tape, stepMs: 40, offsetBps: 10_002n, volume24h: '300000000' }),
    bybit: await startFakeExchange('bybit', { tape, stepMs: 40, offsetBps: 9_998n, volume24h: '100000000' }),
  };
  live = createLiveIndex({
    listings: [BTC],
    configOf: () => ({
      sources: [
        { exchange: 'binance', symbol: 'BTC/USDT', watch: 'trades' },
        { exchange: 'okx', symbol: 'BTC/USDT' },
        { exchange: 'bybit', symbol: 'BTC/USDT' },
      ],
      maxAgeMs: 1500,
      jumpBps: 2500,
      minSources: 2,
    }),
    now: Date.now,
    log,
    exchangeOf: (id) => createProExchange(id, fakes[id as keyof typeof fakes].ccxtOverrides),
    timings: { restAfterMs: 600, pollMs: 150, retryMs: 200 },
    registry,
  });
  live.start();
}, 30_000);
afterAll(async () => {
  await live?.stop();
  await Promise.all(Object.values(fakes ?? {}).map((f) => f.close()));
});

/** Holds every tape, waits until each source has its exchange's held price, and answers those prices. */
async function steady(): Promise<Record<string, string>> {
  for (const f of Object.values(fakes)) f.hold(true);
  await sleep(300);
  return until('every source at its held price', () => {
    const want: Record<string, string> = {};
    for (const s of live.sourcesOf('BTC/USDT')) {
      const q = s.latest();
      const f = fakes[s.name as keyof typeof fakes];
      if (!q || f.lastPrice === null || toUnits(q.price, 8) !== toUnits(f.lastPrice, 8) || q.volume24h === '0') return undefined;
      want[s.name] = f.lastPrice;
    }
    return want;
  });
}

/** sum(price x volume) / sum(volume) half up at 2 decimals, on 8-decimal units: the expected index. */
function weighted(parts: [string, bigint][]): string {
  let num = 0n;
  let den = 0n;
  for (const [p, w] of parts) {
    num += toUnits(p, 8) * w;
    den += w;
  }
  const d = den * 1_000_000n;
  return formatDecimal((2n * num + d) / (2n * d), 2);
}

describe('the live index over CCXT Pro and local exchanges', () => {
  it('weights the three sources by 24 h volume, exactly', async () => {
    const p = await steady();
    const tick = live.tick(BTC);
    expect(tick).toMatchObject({ stale: false, reason: null, used: 3 });
    expect(tick?.inputs.map((i) => [i.source, i.status, i.volume24h])).toEqual([
      ['binance', 'used', '600000000'],
      ['okx', 'used', '300000000'],
      ['bybit', 'used', '100000000'],
    ]);
    expect(tick?.price).toBe(
      weighted([
        [p.binance as string, 6n],
        [p.okx as string, 3n],
        [p.bybit as string, 1n],
      ]),
    );
    // every source was priced by its stream (the REST fallback only fills gaps)
    expect(live.sourcesOf('BTC/USDT').map((s) => [s.name, s.stats.wsUpdates > 0, s.stats.lastError])).toEqual([
      ['binance', true, null],
      ['okx', true, null],
      ['bybit', true, null],
    ]);
  }, 20_000);

  it('clamps a source spiking 20% to the median +3%', async () => {
    fakes.okx.multiplierBps = 12_000n;
    const p = await steady();
    const tick = live.tick(BTC);
    // median = binance's price (the middle of bybit 0.9998x, binance, okx 1.2x); okx enters at binance x 1.03
    const cap = formatDecimal((toUnits(p.binance as string, 8) * 10_300n) / 10_000n, 8);
    expect(tick?.inputs[1]).toMatchObject({ source: 'okx', status: 'clamped' });
    expect(toUnits(tick?.inputs[1]?.usedPrice as string, 8)).toBe(toUnits(cap, 8));
    expect(tick?.price).toBe(
      weighted([
        [p.binance as string, 6n],
        [cap, 3n],
        [p.bybit as string, 1n],
      ]),
    );
    fakes.okx.multiplierBps = 10_000n;
  }, 20_000);

  it('keeps a source whose stream stops alive through its REST ticker', async () => {
    const bybit = live.sourcesOf('BTC/USDT')[2];
    const before = bybit?.stats.restUpdates ?? 0;
    fakes.bybit.silence(true, false);
    await until('bybit priced by REST', () => (bybit?.stats.restUpdates ?? 0) > before);
    await sleep(1600);
    const tick = live.tick(BTC);
    expect(tick?.inputs[2]).toMatchObject({ source: 'bybit', status: 'used' });
    expect(tick?.stale).toBe(false);
    fakes.bybit.silence(false);
  }, 20_000);

  it('two sources silent: dropped as stale, the index stale under its minimum; recovery makes it live', async () => {
    for (const f of Object.values(fakes)) f.hold(false);
    fakes.okx.silence(true);
    fakes.bybit.silence(true);
    await sleep(2000);
    const stale = live.tick(BTC);
    expect(stale).toMatchObject({ stale: true, reason: 'too_few_sources', used: 1 });
    expect(stale?.inputs.map((i) => i.status)).toEqual(['used', 'stale', 'stale']);
    const okxErrors = live.sourcesOf('BTC/USDT')[1]?.stats.errors ?? 0;
    expect(okxErrors).toBeGreaterThan(0);
    const text = await registry.metrics();
    // The counters hold every failed read and quote up to the tick, per listing and source.
    expect(text).toContain(`exchange_index_source_errors_total{symbol="BTC/USDT",source="okx"} ${okxErrors}`);
    expect(text).toMatch(/exchange_index_source_updates_total\{symbol="BTC\/USDT",source="binance",via="ws"\} [1-9]/);
    expect(text).toContain('exchange_index_stale{symbol="BTC/USDT"} 1');
    expect(text).toContain('exchange_index_source_status_total{symbol="BTC/USDT",source="okx",status="stale"} 1');
    fakes.okx.silence(false);
    fakes.bybit.silence(false);
    const back = await until('the index live again', () => {
      const t = live.tick(BTC);
      return t && !t.stale && t.used === 3 ? t : undefined;
    });
    expect(back.reason).toBeNull();
    expect(await registry.metrics()).toContain('exchange_index_stale{symbol="BTC/USDT"} 0');
  }, 30_000);
});
