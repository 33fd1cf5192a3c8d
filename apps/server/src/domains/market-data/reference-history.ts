/**
 * The k-line history from the reference paths: the bars missing from the database written at start (and when the
 * paths are attached later), the reference's part of the period before the start put into each open bar, and the
 * open bars of periods with no trade yet opened from the reference price. Units as in series.ts.
 */
import type { FastifyBaseLogger } from 'fastify';
import { KLINE_PERIOD_MS, type KlinePeriod } from '@exchange/api';
import type { Listing } from './catalogue';
import { maxB, minB } from '../../platform/shared/decimal';
import { PERIODS, aggregateBars, barOpen, mergeBars, type Bar } from './kline-math';
import { rowFromBar, type KlineStore } from './klines';
import type { KlineRow, MarketDataRepository } from './market-data.repository';
import type { ReferencePrices } from './reference-prices';
import type { SeriesSet } from './series';
import { DAY_MS } from './ticker-window';

/** Bars of history seeded per period (1min covers the 24 h window and the 1500 max limit). */
const HISTORY_BARS: Record<KlinePeriod, number> = { '1min': 1500, '5min': 500, '15min': 500, '30min': 500, '1hour': 500, '1day': 500, '1week': 260 };

/** What the backfill needs. */
export interface ReferenceHistoryDeps {
  repo: MarketDataRepository;
  series: SeriesSet;
  reference: ReferencePrices;
  klines: KlineStore;
  log: FastifyBaseLogger;
  /** Clock (ms). */
  now: () => number;
  /** When this process's market data started (ms): bars opened before it count as history already stored. */
  t0: number;
  /** Listings whose history is written elsewhere (contract listings fed by their perpetual: contract-feed.ts). */
  skip?: (l: Listing) => boolean;
  /**
   * The newest stored bar time before each period's bound (`repo.latestKlineTimesBefore` by default); a service
   * with few series of its own may read them by key instead of scanning the whole table.
   */
  latestTimesBefore?: (bounds: Record<string, number>) => Promise<Array<{ symbol: string; type: string; period: string; time: number }>>;
}

/**
 * Returns the backfill: writes the reference history missing from the database: for every listing and period, up
 * to HISTORY_BARS bars before the current bar, after the newest bar stored by an earlier run (so restarts fill
 * only the gap; bars already there, e.g. from live trades, are kept). Contract listings reuse the bars of the spot
 * market of the same pair. The 24 h windows get the new 1-minute bars directly. A no-op without reference paths.
 */
export function createReferenceHistory(deps: ReferenceHistoryDeps): () => Promise<void> {
  const { repo, series, reference, klines, log, now, t0 } = deps;
  /** The series this backfill writes. */
  const own = () => [...series.all()].filter((s) => !deps.skip?.(s.listing));

  /**
   * Opens the current bar of every period that has none yet (no trade or index tick since it began) from the
   * reference path: open = reference price at the bar's open, close = the price now, no volume. Without it the
   * chart would miss the bars between the end of the history and the first live trade.
   */
  function openCurrentBars(ts: number): void {
    for (const s of own()) {
      for (const period of PERIODS) {
        const open = barOpen(period, ts);
        const cur = s.current.get(period);
        if (cur && cur.time >= open) continue;
        const o = reference.units(s.listing, open);
        const c = reference.units(s.listing, ts);
        if (o === null || c === null) continue;
        const bar: Bar = { time: open, open: o, high: maxB(o, c), low: minB(o, c), close: c, volume: 0n, quoteVolume: 0n };
        s.current.set(period, bar);
        series.markBar(s, period, bar);
      }
    }
  }

  /**
   * The reference's bar over [open, until) of listing `l` (open on the minute grid): whole days, then hours, then
   * minutes, so even a week's open bar takes a few dozen reference bars, then the started minute as the reference
   * price from its open to `until` with its share of that minute's volume; null when the range is empty.
   */
  function referencePartial(l: Listing, open: number, until: number): Bar | null {
    const parts: Bar[] = [];
    let cursor = open;
    for (const p of ['1day', '1hour', '1min'] as const) {
      const ms = KLINE_PERIOD_MS[p];
      const end = cursor + Math.floor((until - cursor) / ms) * ms;
      if (end > cursor) parts.push(...reference.bars(l, p, cursor, end));
      cursor = end;
    }
    const minute = reference.bars(l, '1min', cursor, cursor + KLINE_PERIOD_MS['1min'])[0];
    const close = reference.units(l, until);
    if (until > cursor && minute && close !== null) {
      const share = BigInt(until - cursor);
      const ms = BigInt(KLINE_PERIOD_MS['1min']);
      parts.push({
        time: cursor,
        open: minute.open,
        high: maxB(minute.open, close),
        low: minB(minute.open, close),
        close,
        volume: (minute.volume * share) / ms,
        quoteVolume: (minute.quoteVolume * share) / ms,
      });
    }
    return aggregateBars(parts, open);
  }

  /**
   * The open bar of each period when this process started holds only the live trades since then, so a fresh start
   * would show a near-empty bar (a day's bar with minutes of volume). Unless the database already had that bar,
   * the reference's part of the period before the start (the same history the earlier bars come from) goes into
   * it: open, high, low and volume; the close stays the live one.
   */
  function addHistoryToOpenBars(started: number): void {
    const until = t0;
    for (const s of own()) {
      for (const period of PERIODS) {
        const open = barOpen(period, started);
        if (until <= open || klines.hadStoredOpenBar(`${s.listing.type}|${s.listing.symbol}|${period}|${open}`)) continue;
        const history = referencePartial(s.listing, open, until);
        if (!history) continue;
        const cur = s.current.get(period);
        const bar = cur && cur.time === open ? mergeBars(history, cur) : history;
        s.current.set(period, bar);
        series.markBar(s, period, bar);
        // The 24 h window's bucket of that minute holds the same live trades as the minute's bar.
        if (period === '1min') s.window.putBar(bar);
      }
    }
  }

  return async function backfill(): Promise<void> {
    if (!reference.paths) return;
    const started = now();
    await klines.flush();
    // Only bars that opened before this process's first bar of the period count as history already there: bars
    // written from this run's live trades (the bots may trade before the backfill runs) must not hide the history.
    const bounds = Object.fromEntries(PERIODS.map((p) => [p, barOpen(p, t0)]));
    const latest = new Map((await (deps.latestTimesBefore ?? repo.latestKlineTimesBefore)(bounds)).map((r) => [`${r.type}|${r.symbol}|${r.period}`, r.time]));
    const computed = new Map<string, Bar[]>();
    let rows: KlineRow[] = [];
    let total = 0;
    let insertMs = 0;
    const ordered = own().sort((a, b) => (a.listing.type === b.listing.type ? 0 : a.listing.type === 'SPOT' ? -1 : 1));
    for (const s of ordered) {
      for (const period of PERIODS) {
        const ms = KLINE_PERIOD_MS[period];
        const end = barOpen(period, started);
        let from = end - HISTORY_BARS[period] * ms;
        const last = latest.get(`${s.listing.type}|${s.listing.symbol}|${period}`);
        if (last !== undefined) from = Math.max(from, last + ms);
        if (from >= end) continue;
        const cacheKey = `${s.listing.symbol}|${period}|${from}`;
        const spot = series.get('SPOT', s.listing.symbol)?.listing;
        const sameRules = spot !== undefined && spot.priceDecimals === s.listing.priceDecimals && spot.qtyDecimals === s.listing.qtyDecimals;
        const bars = (sameRules ? computed.get(cacheKey) : undefined) ?? reference.bars(s.listing, period, from, end);
        if (s.listing.type === 'SPOT') computed.set(cacheKey, bars);
        if (period === '1min') s.window.mergeHistory(bars.filter((b) => b.time + KLINE_PERIOD_MS['1min'] > started - DAY_MS));
        for (const b of bars) rows.push(rowFromBar(s.listing, period, b));
        if (rows.length >= 10_000) {
          total += rows.length;
          const t1 = now();
          await repo.insertKlines(rows);
          insertMs += now() - t1;
          rows = [];
        }
      }
    }
    total += rows.length;
    const t1 = now();
    await repo.insertKlines(rows);
    insertMs += now() - t1;
    addHistoryToOpenBars(started);
    openCurrentBars(now());
    log.info({ bars: total, ms: now() - started, insertMs }, 'k-line history backfilled from reference paths');
  };
}
