/**
 * The live index (INDEX_SOURCE=live): for each contract listing, its coin's sources (index-sources.config.ts) read
 * through CCXT Pro (ccxt-source.ts), the rule applied to their last quotes at each tick (index-rule.ts), every tick
 * recorded with its inputs (index_price_ticks) and measured (metrics below). One CCXT exchange per exchange id serves
 * every coin's source on it (one socket per exchange).
 *
 * Metrics (on the process registry; Prometheus values are floats, for dashboards only, never fed back into prices):
 * `exchange_index_price{symbol}`, `exchange_index_stale{symbol}` (1 stale), `exchange_index_sources_used{symbol}`,
 * `exchange_index_source_price{symbol,source}`, `exchange_index_source_age_seconds{symbol,source}`,
 * `exchange_index_source_status_total{symbol,source,status}` (used, clamped, stale, jump, invalid per tick),
 * `exchange_index_source_updates_total{symbol,source,via}` (via ws or rest) and `exchange_index_source_errors_total{symbol,source}`.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Exchange } from 'ccxt';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Db } from '../../platform/db/client';
import { CcxtSource, createProExchange, type SourceTimings } from './ccxt-source';
import { applyIndexRule, type IndexResult } from './index-rule';
import type { CoinIndexConfig } from './index-sources.config';
import { insertIndexTicks, type IndexTickRow } from './index-price.repository';

/** A contract listing as the live index needs it. */
export interface LiveIndexListing {
  symbol: string;
  base: string;
  quote: string;
  /** Decimals of the listing's price: the index is rounded half up to them. */
  priceDecimals: number;
}

/** The last tick of a listing: the rule's result at `ts` (Unix ms). */
export type LiveIndexTick = IndexResult & { ts: number };

/** What the live index needs. */
export interface LiveIndexDeps {
  listings: readonly LiveIndexListing[];
  /** The config of a listing's coin, or undefined to leave the listing out of the live index. */
  configOf: (listing: LiveIndexListing) => CoinIndexConfig | undefined;
  /** The process clock (Unix ms): ages the quotes and dates the ticks. */
  now: () => number;
  log: FastifyBaseLogger;
  /** Builds the CCXT Pro exchange of an id; the offline tests build them with their urls pointed at local servers. */
  exchangeOf?: (id: string) => Exchange;
  timings?: Partial<SourceTimings>;
  /** Where the audit rows go; without it nothing is recorded (tests of the rule alone). */
  db?: Db;
  /** The process's metrics registry; without it no metric is kept. */
  registry?: Registry;
}

/** The running live index. */
export interface LiveIndex {
  /** Starts every source. */
  start(): void;
  /** Applies the rule to `listing`'s sources now, records and measures the tick; undefined when the listing has no sources. */
  tick(listing: LiveIndexListing): LiveIndexTick | undefined;
  /** The last tick of a symbol, or undefined before the first. */
  latest(symbol: string): LiveIndexTick | undefined;
  /** The sources of a symbol (their stats and last quotes). */
  sourcesOf(symbol: string): readonly CcxtSource[];
  /** Resolves once every recorded tick so far is in the database. */
  flush(): Promise<void>;
  /** Stops the sources and closes the exchanges, after writing the pending ticks. */
  stop(): Promise<void>;
}

/** Default timings: REST after 5 s of silence, polled every 2 s, the socket retried after 3 s. */
export const DEFAULT_SOURCE_TIMINGS: SourceTimings = { restAfterMs: 5000, pollMs: 2000, retryMs: 3000 };

function metricsOf(registry: Registry | undefined) {
  if (!registry) return undefined;
  const registers = [registry];
  return {
    price: new Gauge({ name: 'exchange_index_price', help: 'Live index price of a contract listing (quote units)', labelNames: ['symbol'], registers }),
    stale: new Gauge({
      name: 'exchange_index_stale',
      help: '1 when the live index has fewer live sources than its minimum',
      labelNames: ['symbol'],
      registers,
    }),
    used: new Gauge({ name: 'exchange_index_sources_used', help: 'Sources that entered the live index at its last tick', labelNames: ['symbol'], registers }),
    sourcePrice: new Gauge({ name: 'exchange_index_source_price', help: 'Last price of an index source', labelNames: ['symbol', 'source'], registers }),
    sourceAge: new Gauge({
      name: 'exchange_index_source_age_seconds',
      help: 'Age of an index source price at the last tick',
      labelNames: ['symbol', 'source'],
      registers,
    }),
    status: new Counter({
      name: 'exchange_index_source_status_total',
      help: 'Index ticks by what the rule did with a source (used, clamped, stale, jump, invalid)',
      labelNames: ['symbol', 'source', 'status'],
      registers,
    }),
    updates: new Counter({
      name: 'exchange_index_source_updates_total',
      help: 'Quotes received from an index source by path',
      labelNames: ['symbol', 'source', 'via'],
      registers,
    }),
    errors: new Counter({
      name: 'exchange_index_source_errors_total',
      help: 'Failed socket or REST reads of an index source',
      labelNames: ['symbol', 'source'],
      registers,
    }),
  };
}

/** Builds the live index over `deps.listings`; nothing connects before start(). */
export function createLiveIndex(deps: LiveIndexDeps): LiveIndex {
  const timings: SourceTimings = { ...DEFAULT_SOURCE_TIMINGS, ...deps.timings };
  const exchanges = new Map<string, Exchange>();
  const exchangeOf = (id: string): Exchange => {
    let ex = exchanges.get(id);
    if (!ex) {
      ex = deps.exchangeOf ? deps.exchangeOf(id) : createProExchange(id);
      exchanges.set(id, ex);
    }
    return ex;
  };
  const bySymbol = new Map<string, { listing: LiveIndexListing; config: CoinIndexConfig; sources: CcxtSource[] }>();
  /** Each source's counts already added to the update and error counters. */
  const reported = new Map<CcxtSource, { ws: number; rest: number; errors: number }>();
  for (const listing of deps.listings) {
    const config = deps.configOf(listing);
    if (!config) continue;
    const sources = config.sources.map((spec) => new CcxtSource(spec, exchangeOf(spec.exchange), timings, deps.now));
    bySymbol.set(listing.symbol, { listing, config, sources });
  }
  const metrics = metricsOf(deps.registry);
  const last = new Map<string, LiveIndexTick>();
  let pending: IndexTickRow[] = [];
  let writing: Promise<void> = Promise.resolve();
  const write = (): Promise<void> => {
    const db = deps.db;
    if (!db || pending.length === 0) return writing;
    const rows = pending;
    pending = [];
    writing = writing.then(() => insertIndexTicks(db, rows)).catch((err: unknown) => deps.log.error({ err, rows: rows.length }, 'index ticks not recorded'));
    return writing;
  };

  return {
    start() {
      for (const { sources } of bySymbol.values()) for (const s of sources) s.start();
    },
    tick(listing) {
      const entry = bySymbol.get(listing.symbol);
      if (!entry) return undefined;
      const ts = deps.now();
      const quotes = entry.sources.flatMap((s) => {
        const q = s.latest();
        return q ? [q] : [];
      });
      const result = applyIndexRule(quotes, ts, { priceDecimals: listing.priceDecimals, ...entry.config });
      const tick: LiveIndexTick = { ...result, ts };
      const prev = last.get(listing.symbol);
      last.set(listing.symbol, tick);
      if (prev && prev.stale !== tick.stale) {
        deps.log.warn(
          { symbol: listing.symbol, stale: tick.stale, reason: tick.reason, used: tick.used },
          tick.stale ? 'live index stale' : 'live index recovered',
        );
      }
      pending.push({ symbol: listing.symbol, ts, result });
      void write();
      if (metrics) {
        if (result.price !== null) metrics.price.set({ symbol: listing.symbol }, Number(result.price));
        metrics.stale.set({ symbol: listing.symbol }, result.stale ? 1 : 0);
        metrics.used.set({ symbol: listing.symbol }, result.used);
        for (const i of result.inputs) {
          metrics.sourcePrice.set({ symbol: listing.symbol, source: i.source }, Number(i.price) || 0);
          metrics.sourceAge.set({ symbol: listing.symbol, source: i.source }, i.ageMs / 1000);
          metrics.status.inc({ symbol: listing.symbol, source: i.source, status: i.status });
        }
        // The sources count from their start; the counters take what came since the last tick.
        for (const s of entry.sources) {
          const seen = reported.get(s) ?? { ws: 0, rest: 0, errors: 0 };
          const labels = { symbol: listing.symbol, source: s.name };
          if (s.stats.wsUpdates > seen.ws) metrics.updates.inc({ ...labels, via: 'ws' }, s.stats.wsUpdates - seen.ws);
          if (s.stats.restUpdates > seen.rest) metrics.updates.inc({ ...labels, via: 'rest' }, s.stats.restUpdates - seen.rest);
          if (s.stats.errors > seen.errors) metrics.errors.inc(labels, s.stats.errors - seen.errors);
          reported.set(s, { ws: s.stats.wsUpdates, rest: s.stats.restUpdates, errors: s.stats.errors });
        }
      }
      return tick;
    },
    latest: (symbol) => last.get(symbol),
    sourcesOf: (symbol) => bySymbol.get(symbol)?.sources ?? [],
    flush: () => write(),
    async stop() {
      await Promise.all([...bySymbol.values()].flatMap((e) => e.sources.map((s) => s.stop())));
      await Promise.all([...exchanges.values()].map((ex) => ex.close().catch(() => undefined)));
      await write();
    },
  };
}
