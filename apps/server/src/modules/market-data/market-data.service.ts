/**
 * Market data: listings (spot and contract), coin introductions, 24 h tickers, k-lines, public depth with a
 * sequence number, latest trades, banners and notices; the reference prices (ReferencePaths, attached by the
 * feeds job) and the index prices of contract listings (set by the index job).
 *
 * Live data comes from the engine's events (host.onEvents): trades feed the trade list, the rolling 24 h window
 * and the k-lines of every period; depthChanged batches update the book and its sequence. Bars are persisted in
 * batches (every FLUSH_MS and on close). Subscribers (the WebSocket gateway) get MarketUpdate messages: depth and
 * trades per engine command, tickers and k-lines throttled to one per PUBLISH_MS per series.
 *
 * Money: prices are bigint price units (10^-priceDecimals quote), volumes bigint qty units (10^-qtyDecimals base),
 * quote volumes bigint quote asset units (10^-8). Decimal strings only at the edge; no floats.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Banner, CoinIntro, Kline, KlinePeriod, Lang, MarketType, Notice, NoticeDetail, Pair, PublicTrade } from '@exchange/api';
import { KLINE_PERIOD_MS } from '@exchange/api';
import type { Command, EngineEvent, TradeEvent } from '@exchange/core';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import type { EngineHost } from '../../engine-host/engine-host';
import type { PriceBar, ReferencePaths } from '../../jobs/price-source';
import { DepthBook, type LevelChange } from './depth-book';
import { divRound, fromUnits, maxB, minB, percentChange, pow10, rescale, toUnits } from './decimal';
import { PERIODS, addTick, addTrade, aggregateBars, barOpen, fillFlatBars, flatBar, mergeBars, newBar, type Bar } from './kline-math';
import { createMarketDataRepository, type KlineRow, type MarketDataRepository } from './market-data.repository';
import { seedContent, seedEngine } from './seed/seed';
import { ASSET_SCALE, TOP_PAIRS } from './seed/catalog';
import { DAY_MS, TickerWindow } from './ticker-window';

/** How often dirty bars are written to the database (ms). */
const FLUSH_MS = 2_000;
/** Minimum interval between two ticker or k-line pushes of one series (ms): at most 2 per second. */
const PUBLISH_MS = 500;
/** Every ticker is re-published at least this often, so the rolling window and reference prices move (ms). */
const REFRESH_MS = 5_000;
/** Latest trades kept per market (getTrades max limit 200). */
const TRADES_KEPT = 200;
/** Bars of history seeded per period (1min covers the 24 h window and the 1500 max limit). */
const HISTORY_BARS: Record<KlinePeriod, number> = { '1min': 1500, '5min': 500, '15min': 500, '30min': 500, '1hour': 500, '1day': 500, '1week': 260 };

/** A listing as the service holds it (one row of `markets`). */
export interface Listing {
  symbol: string;
  type: MarketType;
  base: string;
  quote: string;
  priceDecimals: number;
  qtyDecimals: number;
  tickSize: string;
  stepSize: string;
  minQty: string;
  minNotional: string;
  listedAt: number;
  isNew: boolean;
  demoData: boolean;
  sort: number;
}

/** What the WebSocket gateway receives; `symbol` is the pairsName. */
export type MarketUpdate =
  | { kind: 'ticker'; symbol: string; type: MarketType; pair: Pair }
  | { kind: 'depth'; symbol: string; seq: number; prevSeq: number; bids: Array<[string, string]>; asks: Array<[string, string]> }
  | { kind: 'trades'; symbol: string; trades: PublicTrade[] }
  | { kind: 'kline'; symbol: string; type: MarketType; period: KlinePeriod; bar: Kline };

/** Rankings of getIndexCoin (spec section 7). */
export type IndexCoinType = 'UPDOWN' | 'VOLUME' | 'PROJECT' | 'TOP';

/** A depth snapshot as decimal strings with its sequence. */
export interface DepthSnapshot {
  seq: number;
  bids: Array<[string, string]>;
  asks: Array<[string, string]>;
}

/** Market data for routes, the WebSocket gateway and the jobs (see the file comment). */
export interface MarketDataService {
  /**
   * Attaches the reference price paths (feeds job): reference prices are used at once; the returned promise
   * resolves when the missing k-line history has been written (the caller may let it run in the background).
   */
  setReferencePaths(paths: ReferencePaths): Promise<void>;
  /** Sets the index price (decimal string in quote) of the contract listing `symbol` ("BTC/USDT") at ts (ms). */
  setIndexPrice(symbol: string, price: string, ts?: number): void;
  /** Index price of a contract listing as a decimal string, or null before the index job ran. */
  indexPrice(symbol: string): string | null;
  /** Reference price of a listing (decimal string at its priceDecimals), or null without reference paths. */
  referencePrice(symbol: string, type?: MarketType): string | null;
  /** Listings of a type (or all), display order. */
  listings(type?: MarketType): Listing[];
  listing(symbol: string, type: MarketType): Listing | undefined;
  /** Quote currencies of the spot markets, display order (spec: getMainCurs). */
  mainCurs(): string[];
  /** The Pair (spec section 3) of a listing now; undefined for an unknown listing. */
  pair(symbol: string, type: MarketType): Pair | undefined;
  /** Pairs of one quote currency and type. */
  pairs(mainCur: string, type: MarketType): Pair[];
  /** A ranking (UPDOWN by change desc, VOLUME by 24 h quote volume desc, PROJECT new listings, TOP headline pairs). */
  indexCoin(kind: IndexCoinType): Pair[];
  /** Coin introduction in `lang`; undefined when unknown. */
  coinIntro(code: string, lang: Lang): CoinIntro | undefined;
  /** Bars before endTime (exclusive), oldest first, at most `limit`. */
  klines(symbol: string, type: MarketType, period: KlinePeriod, limit: number, endTime?: number): Promise<Kline[]>;
  /** Best `limit` levels per side and the depth sequence (contract listings: empty book, seq 0). */
  depth(symbol: string, type: MarketType, limit: number): DepthSnapshot;
  /** Latest trades, newest first. */
  trades(symbol: string, type: MarketType, limit: number): PublicTrade[];
  banners(lang: Lang, bannerType?: string): Promise<Banner[]>;
  notices(lang: Lang, noticeType?: string): Promise<Notice[]>;
  notice(id: number, lang: Lang): Promise<NoticeDetail | undefined>;
  /** Absolute path of a banner image file, or undefined for an unknown name. */
  bannerFile(file: string): string | undefined;
  /** Listen to market updates; returns an unsubscribe. */
  subscribe(listener: (u: MarketUpdate) => void): () => void;
  /** Writes pending bars to the database now. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Dependencies; `referencePaths` may also be attached later with setReferencePaths. */
export interface MarketDataDeps {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  host: EngineHost;
  referencePaths?: ReferencePaths;
  /** Clock (ms); tests pass a fixed one. */
  now?: () => number;
}

interface Series {
  listing: Listing;
  window: TickerWindow;
  /** Current (open) bar per period. */
  current: Map<KlinePeriod, Bar>;
}

const seriesKey = (type: MarketType, symbol: string) => `${type}|${symbol}`;

/** Formats a bar for the wire. */
function klineOut(l: Listing, b: Bar): Kline {
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
function barFromRow(l: Listing, r: KlineRow): Bar {
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
function rowFromBar(l: Listing, period: KlinePeriod, b: Bar): KlineRow {
  return { symbol: l.symbol, type: l.type, period, ...klineOut(l, b), quoteVolume: fromUnits(b.quoteVolume, ASSET_SCALE) };
}

/** Quote units of `qty` (qty units) at `price` (price units) in listing `l`: exact (pd + qd <= 8). */
function quoteOf(l: Listing, price: bigint, qty: bigint): bigint {
  return price * qty * pow10(ASSET_SCALE - l.priceDecimals - l.qtyDecimals);
}

/** Converts a reference bar (decimal strings) into a bar of listing `l`, keeping high >= open, close >= low. */
export function barFromReference(l: Listing, p: PriceBar): Bar {
  const open = toUnits(p.open, l.priceDecimals);
  const close = toUnits(p.close, l.priceDecimals);
  const high = maxB(toUnits(p.high, l.priceDecimals), maxB(open, close));
  const low = minB(toUnits(p.low, l.priceDecimals), minB(open, close));
  const volume = toUnits(p.volume, l.qtyDecimals);
  // The reference carries no VWAP: the quote volume of a history bar uses the bar's mean of O, H, L, C.
  const typical = (open + high + low + close) / 4n;
  return { time: p.time, open, high, low, close, volume, quoteVolume: quoteOf(l, typical, volume) };
}

/** Creates the service: seeds the engine and the content tables, loads state and listens to engine events. */
export async function createMarketDataService(deps: MarketDataDeps): Promise<MarketDataService> {
  const { config, db, log, host } = deps;
  const now = deps.now ?? (() => Date.now());
  const repo: MarketDataRepository = createMarketDataRepository(db);
  const bannerDir = path.join(config.dataDir, 'static', 'banners');

  const t0 = now();
  await seedEngine(host, log);
  await seedContent(repo, bannerDir, t0);

  const listings: Listing[] = (await repo.markets()).map((r) => ({
    symbol: r.symbol,
    type: r.type as MarketType,
    base: r.base,
    quote: r.quote,
    priceDecimals: r.priceDecimals,
    qtyDecimals: r.qtyDecimals,
    tickSize: r.tickSize,
    stepSize: r.stepSize,
    minQty: r.minQty,
    minNotional: r.minNotional,
    listedAt: r.listedAt,
    isNew: r.isNew,
    demoData: r.demoData,
    sort: r.sort,
  }));
  const coinRows = new Map((await repo.coins()).map((c) => [c.code, c]));
  const series = new Map<string, Series>();
  for (const l of listings) series.set(seriesKey(l.type, l.symbol), { listing: l, window: new TickerWindow(), current: new Map() });

  let paths: ReferencePaths | undefined = deps.referencePaths;
  const indexPrices = new Map<string, bigint>(); // contract symbol -> price units
  const books = new Map<string, DepthBook>(); // spot symbol -> book
  const tradeRing = new Map<string, PublicTrade[]>(); // spot symbol -> newest first
  const dirtyBars = new Map<string, { listing: Listing; period: KlinePeriod; bar: Bar }>();
  const dirtyTickers = new Set<string>();
  const dirtyKlines = new Map<string, { s: Series; period: KlinePeriod }>();
  const listeners = new Set<(u: MarketUpdate) => void>();
  /** Open bars found in the database at start (type|symbol|period|time): they already hold their history. */
  const storedCurrent = new Set<string>();

  const emit = (u: MarketUpdate) => {
    for (const fn of listeners) {
      try {
        fn(u);
      } catch (err) {
        log.error({ err }, 'market update listener failed');
      }
    }
  };

  const markBar = (s: Series, period: KlinePeriod, bar: Bar) => {
    dirtyBars.set(`${s.listing.type}|${s.listing.symbol}|${period}|${bar.time}`, { listing: s.listing, period, bar });
    dirtyKlines.set(`${s.listing.type}|${s.listing.symbol}|${period}`, { s, period });
  };

  /** Loads the rolling windows and the open bars from the database (and keeps in-memory bars that are newer). */
  async function loadSeriesState(): Promise<void> {
    const t = now();
    const latest = await repo.latestKlines();
    for (const r of latest) {
      const s = series.get(seriesKey(r.type as MarketType, r.symbol));
      const period = r.period as KlinePeriod;
      if (!s || !PERIODS.includes(period)) continue;
      const mem = s.current.get(period);
      if (r.time === barOpen(period, t)) storedCurrent.add(`${r.type}|${r.symbol}|${period}|${r.time}`);
      if (r.time === barOpen(period, t) && (!mem || mem.time < r.time)) s.current.set(period, barFromRow(s.listing, r));
    }
    for (const s of series.values()) {
      const window = new TickerWindow();
      const rows = await repo.klinesSince(s.listing.symbol, s.listing.type, '1min', barOpen('1min', t - DAY_MS));
      for (const r of rows) window.addBar(barFromRow(s.listing, r));
      const cur = s.current.get('1min');
      if (cur) window.addBar(cur);
      s.window = window;
    }
  }

  // ---------------------------------------------------------------- prices

  const listingOf = (symbol: string, type: MarketType) => series.get(seriesKey(type, symbol))?.listing;

  /** Reference price in price units of `l`, or null. Cross pairs (X/BTC) divide X/USDT by BTC/USDT. */
  function refUnits(l: Listing, ts: number): bigint | null {
    if (!paths) return null;
    try {
      const pairPath = l.quote === 'USDT' ? undefined : paths.pair?.(l.base, l.quote);
      if (pairPath) return toUnits(pairPath.priceAt(ts), l.priceDecimals);
      const basePath = paths.get(l.base);
      if (!basePath) return null;
      const baseUsdt = toUnits(basePath.priceAt(ts), ASSET_SCALE);
      if (l.quote === 'USDT') return rescale(baseUsdt, ASSET_SCALE, l.priceDecimals);
      const quotePath = paths.get(l.quote);
      if (!quotePath) return null;
      const quoteUsdt = toUnits(quotePath.priceAt(ts), ASSET_SCALE);
      if (quoteUsdt <= 0n) return null;
      return divRound(baseUsdt * pow10(l.priceDecimals), quoteUsdt);
    } catch (err) {
      log.warn({ err, symbol: l.symbol }, 'reference price unavailable');
      return null;
    }
  }

  /** Last price of a listing in price units: spot = last trade, else reference, else last bar; contract = index. */
  function lastUnits(s: Series, ts: number): bigint | null {
    const l = s.listing;
    if (l.type === 'SPOT') {
      const traded = host.engine.lastPrice(l.symbol);
      if (traded !== null) return traded;
    } else {
      const idx = indexPrices.get(l.symbol);
      if (idx !== undefined) return idx;
    }
    const ref = refUnits(l, ts);
    if (ref !== null) return ref;
    const cur = s.current.get('1min');
    if (cur) return cur.close;
    return s.window.stats(ts).close;
  }

  /** CNY value of `priceUnits` of listing `l`: 2 decimals, or 4 below 1 CNY. Null when a BTC rate is missing. */
  function cnyOf(l: Listing, priceUnits: bigint, ts: number): string {
    const rate = toUnits(config.usdtCnyRate, ASSET_SCALE);
    let value: bigint; // CNY in 10^-(decimals) units
    let decimals: number;
    if (l.quote === 'USDT') {
      value = priceUnits * rate;
      decimals = l.priceDecimals + ASSET_SCALE;
    } else {
      const q = series.get(seriesKey('SPOT', `${l.quote}/USDT`));
      const qp = q ? lastUnits(q, ts) : null;
      if (!q || qp === null) return '0.00';
      value = priceUnits * qp * rate;
      decimals = l.priceDecimals + q.listing.priceDecimals + ASSET_SCALE;
    }
    const one = pow10(decimals);
    const out = value >= one ? 2 : 4;
    return fromUnits(rescale(value, decimals, out), out);
  }

  function pairOf(s: Series, ts: number): Pair {
    const l = s.listing;
    const st = s.window.stats(ts);
    const last = lastUnits(s, ts) ?? 0n;
    const high = st.high === null ? last : maxB(st.high, last);
    const low = st.low === null ? last : minB(st.low, last);
    const pair: Pair = {
      pairsName: l.symbol,
      tokenCur: l.base,
      mainCur: l.quote,
      type: l.type,
      price: fromUnits(last, l.priceDecimals),
      chPrice: cnyOf(l, last, ts),
      updown: st.open === null ? '0.00' : percentChange(st.open, last),
      volume: fromUnits(st.volume, l.qtyDecimals),
      quoteVolume: fromUnits(st.quoteVolume, ASSET_SCALE),
      high: fromUnits(high, l.priceDecimals),
      low: fromUnits(low, l.priceDecimals),
      priceDecimals: l.priceDecimals,
      qtyDecimals: l.qtyDecimals,
      tickSize: l.tickSize,
      stepSize: l.stepSize,
      minQty: l.minQty,
      minNotional: l.minNotional,
      isNew: l.isNew,
      demoData: l.demoData,
    };
    if (l.type === 'CONTRACT') {
      const idx = indexPrices.get(l.symbol);
      pair.indexPrice = fromUnits(idx ?? last, l.priceDecimals);
    }
    return pair;
  }

  // ---------------------------------------------------------------- live updates

  /** Adds a price (and volume) to every period's open bar and to the 24 h window of `s`. */
  function applyToSeries(s: Series, ts: number, price: bigint, qty: bigint, quote: bigint): void {
    for (const period of PERIODS) {
      const open = barOpen(period, ts);
      let bar = s.current.get(period);
      if (!bar || bar.time < open) {
        bar = newBar(open, price, qty, quote);
        s.current.set(period, bar);
      } else {
        addTrade(bar, price, qty, quote);
      }
      markBar(s, period, bar);
    }
    s.window.addTrade(ts, price, qty, quote);
    dirtyTickers.add(seriesKey(s.listing.type, s.listing.symbol));
  }

  function onTrade(e: TradeEvent, batch: Map<string, PublicTrade[]>): void {
    const s = series.get(seriesKey('SPOT', e.symbol));
    if (!s) return;
    const l = s.listing;
    applyToSeries(s, e.ts, e.price, e.quantity, e.quoteAmount);
    const t: PublicTrade = {
      id: e.tradeId,
      price: fromUnits(e.price, l.priceDecimals),
      amount: fromUnits(e.quantity, l.qtyDecimals),
      side: e.takerSide,
      time: e.ts,
    };
    let ring = tradeRing.get(e.symbol);
    if (!ring) tradeRing.set(e.symbol, (ring = []));
    ring.unshift(t);
    if (ring.length > TRADES_KEPT) ring.length = TRADES_KEPT;
    let list = batch.get(e.symbol);
    if (!list) batch.set(e.symbol, (list = []));
    list.unshift(t);
  }

  const bookOf = (symbol: string): DepthBook => {
    let b = books.get(symbol);
    if (!b) {
      b = new DepthBook();
      if (host.engine.market(symbol)) b.load(host.engine.depth(symbol, 1_000_000));
      books.set(symbol, b);
    }
    return b;
  };

  function onEvents(events: EngineEvent[], _cmd: Command): void {
    const depth = new Map<string, LevelChange[]>();
    const trades = new Map<string, PublicTrade[]>();
    for (const e of events) {
      if (e.type === 'trade') onTrade(e, trades);
      else if (e.type === 'depthChanged') {
        let list = depth.get(e.symbol);
        if (!list) depth.set(e.symbol, (list = []));
        list.push({ side: e.side, price: e.price, quantity: e.quantity });
      }
    }
    for (const [symbol, changes] of depth) {
      const book = bookOf(symbol);
      const prevSeq = book.seq;
      const seq = book.apply(changes);
      const l = listingOf(symbol, 'SPOT');
      if (!l) continue;
      // The delta carries the final quantity of each changed level (last change of a level wins).
      const last = new Map<string, LevelChange>();
      for (const c of changes) last.set(`${c.side}|${c.price}`, c);
      const bids: Array<[string, string]> = [];
      const asks: Array<[string, string]> = [];
      for (const c of last.values()) {
        const row: [string, string] = [fromUnits(c.price, l.priceDecimals), fromUnits(c.quantity, l.qtyDecimals)];
        (c.side === 'BUY' ? bids : asks).push(row);
      }
      emit({ kind: 'depth', symbol, seq, prevSeq, bids, asks });
    }
    for (const [symbol, list] of trades) emit({ kind: 'trades', symbol, trades: list });
  }

  // Depth books from the engine's state now, then every change from the events (synchronously, no gap).
  const unsubscribe = host.onEvents(onEvents);
  for (const l of listings) if (l.type === 'SPOT') bookOf(l.symbol);

  await loadSeriesState();
  await loadRecentTrades();

  /**
   * Fills the latest-trades lists from the projected trades (so getTrades is not empty after a restart), merged
   * with trades that arrived meanwhile. Waits for the projector to catch up with the recovered engine first.
   */
  async function loadRecentTrades(): Promise<void> {
    try {
      await host.projected();
      for (const l of listings) {
        if (l.type !== 'SPOT') continue;
        const rows = await repo.recentTrades(l.symbol, TRADES_KEPT);
        const ring = tradeRing.get(l.symbol) ?? [];
        const byId = new Map(ring.map((x) => [x.id, x]));
        for (const r of rows) {
          const id = r.id.toString();
          if (byId.has(id)) continue;
          byId.set(id, {
            id,
            price: fromUnits(BigInt(r.price), l.priceDecimals),
            amount: fromUnits(BigInt(r.quantity), l.qtyDecimals),
            side: r.takerSide === 'SELL' ? 'SELL' : 'BUY',
            time: r.ts,
          });
        }
        const merged = [...byId.values()].sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1)).slice(0, TRADES_KEPT);
        if (merged.length > 0) tradeRing.set(l.symbol, merged);
      }
    } catch (err) {
      log.warn({ err }, 'recent trades not loaded');
    }
  }

  // ---------------------------------------------------------------- persistence and publishing

  let flushing: Promise<void> = Promise.resolve();
  async function flushBars(): Promise<void> {
    if (dirtyBars.size === 0) return;
    const rows = [...dirtyBars.values()].map((d) => rowFromBar(d.listing, d.period, d.bar));
    dirtyBars.clear();
    await repo.upsertKlines(rows);
  }
  const flush = (): Promise<void> => {
    flushing = flushing.then(flushBars).catch((err: unknown) => log.error({ err }, 'k-line flush failed'));
    return flushing;
  };

  /**
   * Opens a flat bar (`flatBar`) for every period whose current bar has ended with no trade since: a quiet minute
   * gets its bar (persisted and published like any other), so the chart never shows a gap at the live end.
   */
  function rollQuietBars(t: number): void {
    for (const s of series.values()) {
      for (const period of PERIODS) {
        const cur = s.current.get(period);
        const open = barOpen(period, t);
        if (!cur || cur.time >= open) continue;
        const bar = flatBar(open, cur.close);
        s.current.set(period, bar);
        markBar(s, period, bar);
      }
    }
  }

  let lastRefresh = now();
  function publish(): void {
    const t = now();
    rollQuietBars(t);
    if (t - lastRefresh >= REFRESH_MS) {
      lastRefresh = t;
      for (const k of series.keys()) dirtyTickers.add(k);
    }
    if (listeners.size === 0) {
      dirtyTickers.clear();
      dirtyKlines.clear();
      return;
    }
    for (const k of dirtyTickers) {
      const s = series.get(k);
      if (s) emit({ kind: 'ticker', symbol: s.listing.symbol, type: s.listing.type, pair: pairOf(s, t) });
    }
    dirtyTickers.clear();
    for (const { s, period } of dirtyKlines.values()) {
      const bar = s.current.get(period);
      if (bar) emit({ kind: 'kline', symbol: s.listing.symbol, type: s.listing.type, period, bar: klineOut(s.listing, bar) });
    }
    dirtyKlines.clear();
  }
  const flushTimer = setInterval(() => void flush(), FLUSH_MS);
  const publishTimer = setInterval(publish, PUBLISH_MS);
  flushTimer.unref();
  publishTimer.unref();

  // ---------------------------------------------------------------- reference history

  /** Bars of listing `l` from the reference paths in [from, to); cross pairs derived from two USDT paths. */
  function referenceBars(l: Listing, period: KlinePeriod, from: number, to: number): Bar[] {
    if (!paths) return [];
    const ms = KLINE_PERIOD_MS[period];
    const basePath = paths.get(l.base);
    if (!basePath) return [];
    if (l.quote === 'USDT') return basePath.bars(ms, from, to).map((p) => barFromReference(l, p));
    const pairPath = paths.pair?.(l.base, l.quote);
    if (pairPath) return pairPath.bars(ms, from, to).map((p) => barFromReference(l, p));
    const quotePath = paths.get(l.quote);
    if (!quotePath) return [];
    const quoteBars = new Map(quotePath.bars(ms, from, to).map((b) => [b.time, b]));
    const out: Bar[] = [];
    const ratio = (a: string, b: string): bigint | null => {
      const den = toUnits(b, ASSET_SCALE);
      return den > 0n ? divRound(toUnits(a, ASSET_SCALE) * pow10(l.priceDecimals), den) : null;
    };
    for (const x of basePath.bars(ms, from, to)) {
      const q = quoteBars.get(x.time);
      if (!q) continue;
      const open = ratio(x.open, q.open);
      const close = ratio(x.close, q.close);
      const hi = ratio(x.high, q.high);
      const lo = ratio(x.low, q.low);
      if (open === null || close === null || hi === null || lo === null) continue;
      const high = maxB(hi, maxB(open, close));
      const low = minB(lo, minB(open, close));
      // Derived history: the cross pair's base volume is taken as 5% of the base coin's USDT-market volume.
      const volume = toUnits(x.volume, l.qtyDecimals) / 20n;
      out.push({ time: x.time, open, high, low, close, volume, quoteVolume: quoteOf(l, (open + high + low + close) / 4n, volume) });
    }
    return out;
  }

  /**
   * Opens the current bar of every period that has none yet (no trade or index tick since it began) from the
   * reference path: open = reference price at the bar's open, close = the price now, no volume. Without it the
   * chart would miss the bars between the end of the history and the first live trade.
   */
  function openCurrentBars(ts: number): void {
    for (const s of series.values()) {
      for (const period of PERIODS) {
        const open = barOpen(period, ts);
        const cur = s.current.get(period);
        if (cur && cur.time >= open) continue;
        const o = refUnits(s.listing, open);
        const c = refUnits(s.listing, ts);
        if (o === null || c === null) continue;
        const bar: Bar = { time: open, open: o, high: maxB(o, c), low: minB(o, c), close: c, volume: 0n, quoteVolume: 0n };
        s.current.set(period, bar);
        markBar(s, period, bar);
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
      if (end > cursor) parts.push(...referenceBars(l, p, cursor, end));
      cursor = end;
    }
    const minute = referenceBars(l, '1min', cursor, cursor + KLINE_PERIOD_MS['1min'])[0];
    const close = refUnits(l, until);
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
    for (const s of series.values()) {
      for (const period of PERIODS) {
        const open = barOpen(period, started);
        if (until <= open || storedCurrent.has(`${s.listing.type}|${s.listing.symbol}|${period}|${open}`)) continue;
        const history = referencePartial(s.listing, open, until);
        if (!history) continue;
        const cur = s.current.get(period);
        const bar = cur && cur.time === open ? mergeBars(history, cur) : history;
        s.current.set(period, bar);
        markBar(s, period, bar);
        // The 24 h window's bucket of that minute holds the same live trades as the minute's bar.
        if (period === '1min') s.window.putBar(bar);
      }
    }
  }

  /**
   * Writes the reference history missing from the database: for every listing and period, up to HISTORY_BARS
   * bars before the current bar, after the newest bar stored by an earlier run (so restarts fill only the gap;
   * bars already there, e.g. from live trades, are kept). Contract listings
   * reuse the bars of the spot market of the same pair. The 24 h windows get the new 1-minute bars directly.
   */
  async function backfill(): Promise<void> {
    if (!paths) return;
    const started = now();
    await flush();
    // Only bars that opened before this process's first bar of the period count as history already there: bars
    // written from this run's live trades (the bots may trade before the backfill runs) must not hide the history.
    const bounds = Object.fromEntries(PERIODS.map((p) => [p, barOpen(p, t0)]));
    const latest = new Map((await repo.latestKlineTimesBefore(bounds)).map((r) => [`${r.type}|${r.symbol}|${r.period}`, r.time]));
    const computed = new Map<string, Bar[]>();
    let rows: KlineRow[] = [];
    let total = 0;
    let insertMs = 0;
    const ordered = [...series.values()].sort((a, b) => (a.listing.type === b.listing.type ? 0 : a.listing.type === 'SPOT' ? -1 : 1));
    for (const s of ordered) {
      for (const period of PERIODS) {
        const ms = KLINE_PERIOD_MS[period];
        const end = barOpen(period, started);
        let from = end - HISTORY_BARS[period] * ms;
        const last = latest.get(`${s.listing.type}|${s.listing.symbol}|${period}`);
        if (last !== undefined) from = Math.max(from, last + ms);
        if (from >= end) continue;
        const cacheKey = `${s.listing.symbol}|${period}|${from}`;
        const spot = series.get(seriesKey('SPOT', s.listing.symbol))?.listing;
        const sameRules = spot !== undefined && spot.priceDecimals === s.listing.priceDecimals && spot.qtyDecimals === s.listing.qtyDecimals;
        const bars = (sameRules ? computed.get(cacheKey) : undefined) ?? referenceBars(s.listing, period, from, end);
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
  }

  if (paths) await backfill();

  // ---------------------------------------------------------------- the service

  const service: MarketDataService = {
    setReferencePaths(p) {
      paths = p; // reference prices are available at once; the history follows
      return backfill();
    },
    setIndexPrice(symbol, price, ts = now()) {
      const s = series.get(seriesKey('CONTRACT', symbol));
      if (!s) return;
      const units = toUnits(price, s.listing.priceDecimals);
      if (units <= 0n) return;
      indexPrices.set(symbol, units);
      // Contract listings have no trades yet: their bars follow the index price (no volume).
      for (const period of PERIODS) {
        const open = barOpen(period, ts);
        let bar = s.current.get(period);
        if (!bar || bar.time < open) {
          bar = newBar(open, units, 0n, 0n);
          s.current.set(period, bar);
        } else addTick(bar, units);
        markBar(s, period, bar);
      }
      s.window.addTrade(ts, units, 0n, 0n);
      dirtyTickers.add(seriesKey('CONTRACT', symbol));
    },
    indexPrice(symbol) {
      const l = listingOf(symbol, 'CONTRACT');
      const v = indexPrices.get(symbol);
      return l && v !== undefined ? fromUnits(v, l.priceDecimals) : null;
    },
    referencePrice(symbol, type = 'SPOT') {
      const l = listingOf(symbol, type);
      if (!l) return null;
      const v = refUnits(l, now());
      return v === null ? null : fromUnits(v, l.priceDecimals);
    },
    listings(type) {
      return listings.filter((l) => type === undefined || l.type === type);
    },
    listing: listingOf,
    mainCurs() {
      const out: string[] = [];
      for (const l of listings) if (l.type === 'SPOT' && !out.includes(l.quote)) out.push(l.quote);
      return out;
    },
    pair(symbol, type) {
      const s = series.get(seriesKey(type, symbol));
      return s ? pairOf(s, now()) : undefined;
    },
    pairs(mainCur, type) {
      const t = now();
      return [...series.values()].filter((s) => s.listing.type === type && s.listing.quote === mainCur).map((s) => pairOf(s, t));
    },
    indexCoin(kind) {
      const t = now();
      if (kind === 'TOP') {
        return TOP_PAIRS.map((sym) => series.get(seriesKey('SPOT', sym))).filter((s): s is Series => s !== undefined).map((s) => pairOf(s, t));
      }
      const usdtSpot = [...series.values()].filter((s) => s.listing.type === 'SPOT' && s.listing.quote === 'USDT');
      if (kind === 'PROJECT') {
        return usdtSpot
          .filter((s) => s.listing.isNew)
          .sort((a, b) => b.listing.listedAt - a.listing.listedAt)
          .map((s) => pairOf(s, t));
      }
      const pairs = usdtSpot.map((s) => pairOf(s, t));
      const key = (p: Pair) => (kind === 'UPDOWN' ? toUnits(p.updown, 2) : toUnits(p.quoteVolume, ASSET_SCALE));
      // Stable sort: ties keep display order.
      return pairs
        .map((p, i) => ({ p, i, k: key(p) }))
        .sort((a, b) => (a.k > b.k ? -1 : a.k < b.k ? 1 : a.i - b.i))
        .map((x) => x.p);
    },
    coinIntro(code, lang) {
      const c = coinRows.get(code);
      if (!c) return undefined;
      return {
        tokenCur: c.code,
        fullName: c.fullName,
        issueTime: c.issueTime,
        totalSupply: c.totalSupply,
        circulatingSupply: c.circulatingSupply,
        crowdfundingPrice: c.crowdfundingPrice,
        whitePaper: c.whitePaper,
        website: c.website,
        blockExplorer: c.blockExplorer,
        introduction: lang === 'zh' ? c.introZh : c.introEn,
      };
    },
    async klines(symbol, type, period, limit, endTime) {
      const s = series.get(seriesKey(type, symbol));
      if (!s) return [];
      const end = endTime ?? Number.MAX_SAFE_INTEGER;
      const rows = await repo.klines(symbol, type, period, end, limit);
      const byTime = new Map<number, Bar>();
      for (const r of rows) byTime.set(r.time, barFromRow(s.listing, r));
      // Bars not yet flushed (and the open bar) are newer than or equal to what the database holds.
      const prefix = `${type}|${symbol}|${period}|`;
      for (const [k, d] of dirtyBars) if (k.startsWith(prefix) && d.bar.time < end) byTime.set(d.bar.time, d.bar);
      const cur = s.current.get(period);
      if (cur && cur.time < end) byTime.set(cur.time, cur);
      // Quiet periods (and a gap while the server was down, where no history was written) as flat bars, up to the
      // period now or the last one before endTime.
      const ms = KLINE_PERIOD_MS[period];
      const until = Math.min(barOpen(period, now()), barOpen(period, end - 1));
      const sorted = [...byTime.values()].sort((a, b) => a.time - b.time);
      return fillFlatBars(sorted, ms, until, limit).map((b) => klineOut(s.listing, b));
    },
    depth(symbol, type, limit) {
      const l = listingOf(symbol, type);
      if (!l || type === 'CONTRACT') return { seq: 0, bids: [], asks: [] };
      const book = bookOf(symbol);
      const top = book.top(limit);
      const row = (d: { price: bigint; quantity: bigint }): [string, string] => [fromUnits(d.price, l.priceDecimals), fromUnits(d.quantity, l.qtyDecimals)];
      return { seq: book.seq, bids: top.bids.map(row), asks: top.asks.map(row) };
    },
    trades(symbol, type, limit) {
      if (type !== 'SPOT') return [];
      return (tradeRing.get(symbol) ?? []).slice(0, limit);
    },
    async banners(lang, bannerType = 'DATA_BANNER') {
      return (await repo.banners(bannerType)).map((b) => ({
        id: b.id,
        bannerUrl: lang === 'zh' ? b.imageZh : b.imageEn,
        title: lang === 'zh' ? b.titleZh : b.titleEn,
        link: b.link,
      }));
    },
    async notices(lang, noticeType = 'OFFICIAL') {
      return (await repo.notices(noticeType, 100)).map((n) => ({ id: n.id, title: lang === 'zh' ? n.titleZh : n.titleEn, createTime: n.createTime }));
    },
    async notice(id, lang) {
      const n = await repo.notice(id);
      if (!n) return undefined;
      return { id: n.id, title: lang === 'zh' ? n.titleZh : n.titleEn, content: lang === 'zh' ? n.contentZh : n.contentEn, createTime: n.createTime };
    },
    bannerFile(file) {
      if (!/^[a-z0-9-]{1,60}\.svg$/.test(file)) return undefined;
      const full = path.join(bannerDir, file);
      return fs.existsSync(full) ? full : undefined;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush,
    async close() {
      clearInterval(flushTimer);
      clearInterval(publishTimer);
      unsubscribe();
      listeners.clear();
      await flush();
    },
  };
  return service;
}
