/**
 * K-lines: the bars of every listing and period, persisted in batches (the marked bars of series.ts, every
 * FLUSH_MS and on close) and answered from the database merged with the bars not yet written and the open bar,
 * quiet periods filled with flat bars. At start the open bars and the 24 h windows are loaded from the database.
 *
 * Units: bars hold bigint price units (10^-priceDecimals quote), qty units and quote asset units (10^-ASSET_SCALE);
 * rows and the wire hold decimal strings.
 */
import type { FastifyBaseLogger } from 'fastify';
import { KLINE_PERIOD_MS, type Kline, type KlinePeriod, type MarketType } from '@exchange/api';
import type { Listing } from './catalogue';
import { fromUnits, toUnits } from '../../platform/shared/decimal';
import { PERIODS, barOpen, fillFlatBars, type Bar } from './kline-math';
import type { KlineRow, MarketDataRepository } from './market-data.repository';
import { ASSET_SCALE } from './seed/catalog';
import type { SeriesSet } from './series';
import { DAY_MS, TickerWindow } from './ticker-window';

/** Formats a bar of listing `l` for the wire (decimal strings at the listing's decimals). */
export function klineOut(l: Listing, b: Bar): Kline {
  return {
    time: b.time,
    open: fromUnits(b.open, l.priceDecimals),
    high: fromUnits(b.high, l.priceDecimals),
    low: fromUnits(b.low, l.priceDecimals),
    close: fromUnits(b.close, l.priceDecimals),
    volume: fromUnits(b.volume, l.qtyDecimals),
  };
}

/** Parses a stored row into a bar of listing `l`. */
export function barFromRow(l: Listing, r: KlineRow): Bar {
  return {
    time: r.time,
    open: toUnits(r.open, l.priceDecimals),
    high: toUnits(r.high, l.priceDecimals),
    low: toUnits(r.low, l.priceDecimals),
    close: toUnits(r.close, l.priceDecimals),
    volume: toUnits(r.volume, l.qtyDecimals),
    quoteVolume: toUnits(r.quoteVolume, ASSET_SCALE),
  };
}

/** A bar as a row: the wire fields of `klineOut` plus the key and the quote volume (10^-ASSET_SCALE). */
export function rowFromBar(l: Listing, period: KlinePeriod, b: Bar): KlineRow {
  return { symbol: l.symbol, type: l.type, period, ...klineOut(l, b), quoteVolume: fromUnits(b.quoteVolume, ASSET_SCALE) };
}

/** What the k-line store needs. */
export interface KlineStoreDeps {
  repo: MarketDataRepository;
  series: SeriesSet;
  log: FastifyBaseLogger;
  /** Clock (ms). */
  now: () => number;
}

/** Persistence and queries of the bars. */
export interface KlineStore {
  /** Loads the rolling windows and the open bars from the database (and keeps in-memory bars that are newer). */
  loadState(): Promise<void>;
  /** Whether the database held the open bar `type|symbol|period|time` when loadState ran (it has its history). */
  hadStoredOpenBar(key: string): boolean;
  /** Writes the marked bars to the database; flushes run one after another, a failure is logged, never thrown. */
  flush(): Promise<void>;
  /** Bars before endTime (exclusive, ms), oldest first, at most `limit`; [] for an unknown listing. */
  klines(symbol: string, type: MarketType, period: KlinePeriod, limit: number, endTime?: number): Promise<Kline[]>;
}

/** The k-line store over the series' marked bars. */
export function createKlineStore(deps: KlineStoreDeps): KlineStore {
  const { repo, series, log, now } = deps;
  /** Open bars found in the database at start (type|symbol|period|time): they already hold their history. */
  const storedCurrent = new Set<string>();

  let flushing: Promise<void> = Promise.resolve();
  async function flushBars(): Promise<void> {
    if (series.dirtyBars.size === 0) return;
    const rows = [...series.dirtyBars.values()].map((d) => rowFromBar(d.listing, d.period, d.bar));
    series.dirtyBars.clear();
    await repo.upsertKlines(rows);
  }

  return {
    async loadState() {
      const t = now();
      // The bars open now (the only stored bars a start takes over as its current ones).
      const open = await repo.klinesOpenedAt(PERIODS.map((period) => ({ period, time: barOpen(period, t) })));
      for (const r of open) {
        const s = series.get(r.type as MarketType, r.symbol);
        const period = r.period as KlinePeriod;
        if (!s || !PERIODS.includes(period)) continue;
        const mem = s.current.get(period);
        if (r.time === barOpen(period, t)) storedCurrent.add(`${r.type}|${r.symbol}|${period}|${r.time}`);
        if (r.time === barOpen(period, t) && (!mem || mem.time < r.time)) s.current.set(period, barFromRow(s.listing, r));
      }
      // Each series' last 24 hours of 1-minute bars (its ticker window), read for all of them at once.
      const all = [...series.all()];
      const since = await repo.klinesOfTypesSince([...new Set(all.map((s) => s.listing.type))], '1min', barOpen('1min', t - DAY_MS));
      const rowsOf = new Map<string, KlineRow[]>();
      for (const r of since) {
        const key = `${r.type}|${r.symbol}`;
        let rows = rowsOf.get(key);
        if (!rows) rowsOf.set(key, (rows = []));
        rows.push(r);
      }
      for (const s of all) {
        const window = new TickerWindow();
        for (const r of rowsOf.get(`${s.listing.type}|${s.listing.symbol}`) ?? []) window.addBar(barFromRow(s.listing, r));
        const cur = s.current.get('1min');
        if (cur) window.addBar(cur);
        s.window = window;
      }
    },
    hadStoredOpenBar(key) {
      return storedCurrent.has(key);
    },
    flush() {
      flushing = flushing.then(flushBars).catch((err: unknown) => log.error({ err }, 'k-line flush failed'));
      return flushing;
    },
    async klines(symbol, type, period, limit, endTime) {
      const s = series.get(type, symbol);
      if (!s) return [];
      const end = endTime ?? Number.MAX_SAFE_INTEGER;
      const rows = await repo.klines(symbol, type, period, end, limit);
      const byTime = new Map<number, Bar>();
      for (const r of rows) byTime.set(r.time, barFromRow(s.listing, r));
      // Bars not yet flushed (and the open bar) are newer than or equal to what the database holds.
      const prefix = `${type}|${symbol}|${period}|`;
      for (const [k, d] of series.dirtyBars) if (k.startsWith(prefix) && d.bar.time < end) byTime.set(d.bar.time, d.bar);
      const cur = s.current.get(period);
      if (cur && cur.time < end) byTime.set(cur.time, cur);
      // Quiet periods (and a gap while the server was down, where no history was written) as flat bars, up to the
      // period now or the last one before endTime.
      const ms = KLINE_PERIOD_MS[period];
      const until = Math.min(barOpen(period, now()), barOpen(period, end - 1));
      const sorted = [...byTime.values()].sort((a, b) => a.time - b.time);
      return fillFlatBars(sorted, ms, until, limit).map((b) => klineOut(s.listing, b));
    },
  };
}
