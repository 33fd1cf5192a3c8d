/**
 * The live series of every listing: its rolling 24 h ticker window and its open bar per k-line period, with the
 * marks of what changed since it was last persisted (bars) and published (tickers, k-lines). Trades and index
 * ticks update the series here; klines.ts persists the marked bars, the service publishes the marked series.
 *
 * Units: prices bigint price units (10^-priceDecimals quote), volumes qty units, quote volumes quote asset units.
 */
import type { KlinePeriod, MarketType } from '@exchange/api';
import { PERIODS, addTick, addTrade, barOpen, flatBar, newBar, type Bar } from './kline-math';
import { listingKey, type Listing } from './catalogue';
import { TickerWindow } from './ticker-window';

/** The live state of one listing. */
export interface Series {
  listing: Listing;
  window: TickerWindow;
  /** Current (open) bar per period. */
  current: Map<KlinePeriod, Bar>;
}

/** A bar waiting to be written to the database. */
export interface DirtyBar {
  listing: Listing;
  period: KlinePeriod;
  bar: Bar;
}

/** Every listing's series and the change marks. */
export class SeriesSet {
  private readonly byKey = new Map<string, Series>();
  /** Bars changed since the last flush, keyed type|symbol|period|time. */
  readonly dirtyBars = new Map<string, DirtyBar>();
  /** Series whose ticker changed since the last publish (listingKey). */
  private readonly dirtyTickers = new Set<string>();
  /** Open bars changed since the last publish, keyed type|symbol|period. */
  private readonly dirtyKlines = new Map<string, { s: Series; period: KlinePeriod }>();

  /** An empty series (window and bars) for each listing. */
  constructor(listings: readonly Listing[]) {
    for (const l of listings) this.byKey.set(listingKey(l.type, l.symbol), { listing: l, window: new TickerWindow(), current: new Map() });
  }

  /** The series of a listing, or undefined. */
  get(type: MarketType, symbol: string): Series | undefined {
    return this.byKey.get(listingKey(type, symbol));
  }

  /** Every series, display order of the listings. */
  all(): IterableIterator<Series> {
    return this.byKey.values();
  }

  /** Marks `bar` (the `period` bar of `s`) to be persisted and published. */
  markBar(s: Series, period: KlinePeriod, bar: Bar): void {
    this.dirtyBars.set(`${s.listing.type}|${s.listing.symbol}|${period}|${bar.time}`, { listing: s.listing, period, bar });
    this.dirtyKlines.set(`${s.listing.type}|${s.listing.symbol}|${period}`, { s, period });
  }

  /** Marks the ticker of `s` (or, without `s`, of every series) to be published. */
  markTicker(s?: Series): void {
    if (s) this.dirtyTickers.add(listingKey(s.listing.type, s.listing.symbol));
    else for (const k of this.byKey.keys()) this.dirtyTickers.add(k);
  }

  /** Adds a trade (price units, qty units, quote units at `ts` ms) to every period's open bar and to the window. */
  applyTrade(s: Series, ts: number, price: bigint, qty: bigint, quote: bigint): void {
    for (const period of PERIODS) {
      const open = barOpen(period, ts);
      let bar = s.current.get(period);
      if (!bar || bar.time < open) {
        bar = newBar(open, price, qty, quote);
        s.current.set(period, bar);
      } else {
        addTrade(bar, price, qty, quote);
      }
      this.markBar(s, period, bar);
    }
    s.window.addTrade(ts, price, qty, quote);
    this.markTicker(s);
  }

  /** Adds an index price tick (price units, no volume) at `ts` to every period's open bar and to the window. */
  applyTick(s: Series, ts: number, price: bigint): void {
    for (const period of PERIODS) {
      const open = barOpen(period, ts);
      let bar = s.current.get(period);
      if (!bar || bar.time < open) {
        bar = newBar(open, price, 0n, 0n);
        s.current.set(period, bar);
      } else addTick(bar, price);
      this.markBar(s, period, bar);
    }
    s.window.addTrade(ts, price, 0n, 0n);
    this.markTicker(s);
  }

  /**
   * Opens a flat bar (`flatBar`) for every period whose current bar has ended with no trade since: a quiet minute
   * gets its bar (persisted and published like any other), so the chart never shows a gap at the live end.
   */
  rollQuietBars(t: number): void {
    for (const s of this.byKey.values()) {
      for (const period of PERIODS) {
        const cur = s.current.get(period);
        const open = barOpen(period, t);
        if (!cur || cur.time >= open) continue;
        const bar = flatBar(open, cur.close);
        s.current.set(period, bar);
        this.markBar(s, period, bar);
      }
    }
  }

  /** Calls `fn` for each series with a marked ticker, then clears the marks. */
  drainTickers(fn: (s: Series) => void): void {
    for (const k of this.dirtyTickers) {
      const s = this.byKey.get(k);
      if (s) fn(s);
    }
    this.dirtyTickers.clear();
  }

  /** Calls `fn` for each marked open bar (series and period), then clears the marks. */
  drainKlines(fn: (s: Series, period: KlinePeriod) => void): void {
    for (const { s, period } of this.dirtyKlines.values()) fn(s, period);
    this.dirtyKlines.clear();
  }

  /** Drops the publish marks (nobody listens). */
  clearPublishMarks(): void {
    this.dirtyTickers.clear();
    this.dirtyKlines.clear();
  }
}
