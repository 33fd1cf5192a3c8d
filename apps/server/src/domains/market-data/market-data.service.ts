/**
 * Market data: listings (spot and contract), coin introductions, 24 h tickers, k-lines, public depth with a
 * sequence number, latest trades, banners and notices; the reference prices (ReferencePaths, attached by the
 * feeds job) and the index prices of contract listings (set by the index job).
 *
 * Contract listings with a perpetual market show that market's own ticker and trade bars (contract-feed.ts, attached
 * by domains/market-data/perp): one source for the quotes list, the pair detail and the contract trade screen.
 *
 * Live data comes from the engine's events (host.onEvents): trades feed the trade list, the rolling 24 h window
 * and the k-lines of every period; depthChanged batches update the book and its sequence. Bars are persisted in
 * batches (every FLUSH_MS and on close). Subscribers (the WebSocket gateway) get MarketUpdate messages: depth and
 * trades per engine command, tickers and k-lines throttled to one per PUBLISH_MS per series.
 *
 * This file composes the concerns, each in its own file: catalogue.ts (listings, coins), series.ts (the live
 * windows and open bars), tickers.ts (pairs, rankings, index prices), klines.ts (bars: persistence and queries),
 * reference-prices.ts and reference-history.ts (the reference paths as prices and as k-line history), depth.ts,
 * trades.ts, content.ts (the seeded banner image files; banners and notices are domains/content's) and updates.ts (the subscribers).
 *
 * Money: prices are bigint price units (10^-priceDecimals quote), volumes bigint qty units (10^-qtyDecimals base),
 * quote volumes bigint quote asset units (10^-8). Decimal strings only at the edge; no floats.
 */
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { CoinIntro, Kline, KlinePeriod, Lang, MarketType, Pair, PublicTrade } from '@exchange/api';
import type { Command, EngineEvent } from '@exchange/core';
import type { Config } from '../../platform/config/env';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { ReferencePaths } from './price-source';
import { loadCatalogue, type Listing } from './catalogue';
import { bannerFilePath } from './content';
import type { ContractFeed, ContractFeedSink } from './contract-feed';
import { fromUnits } from '../../platform/shared/decimal';
import { createDepthBooks, type DepthSnapshot } from './depth';
import type { LevelChange } from './depth-book';
import { createKlineStore, klineOut } from './klines';
import { createMarketDataRepository, type MarketDataRepository } from './market-data.repository';
import { createReferenceHistory } from './reference-history';
import { createReferencePrices } from './reference-prices';
import { seedPerpMarkets } from './seed/perp';
import { seedContent, seedEngine } from './seed/seed';
import { SeriesSet } from './series';
import { createTickers, type IndexCoinType } from './tickers';
import { createTradeLists } from './trades';
import { MarketUpdates, type MarketUpdate } from './updates';

export type { Listing } from './catalogue';
export type { ContractFeed, ContractFeedSink, ContractFigures } from './contract-feed';
export type { DepthSnapshot } from './depth';
export type { IndexCoinType } from './tickers';
export type { MarketUpdate } from './updates';
export { barFromReference } from './reference-prices';

/** How often dirty bars are written to the database (ms). */
const FLUSH_MS = 2_000;
/** Minimum interval between two ticker or k-line pushes of one series (ms): at most 2 per second. */
const PUBLISH_MS = 500;
/** Every ticker is re-published at least this often, so the rolling window and reference prices move (ms). */
const REFRESH_MS = 5_000;

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
  /**
   * Opening price of a listing's rolling 24 h window, the `open` its Pair's `updown` is computed from (decimal
   * string at priceDecimals); null for an unknown listing or an empty window (Binance ticker/24hr openPrice).
   */
  open24h(symbol: string, type: MarketType): string | null;
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
  /** Absolute path of a banner image file, or undefined for an unknown name. */
  bannerFile(file: string): string | undefined;
  /** Listen to market updates; returns an unsubscribe. */
  subscribe(listener: (u: MarketUpdate) => void): () => void;
  /**
   * Makes the perpetual markets the source of the contract listings of the same symbols (contract-feed.ts): their
   * pairs, k-lines and pushes; the reference history of those listings is then the feed's. The latest attached feed
   * wins; the sink's detach removes it.
   */
  attachContractFeed(feed: ContractFeed): ContractFeedSink;
  /** Writes pending bars to the database now. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Dependencies; `referencePaths` may also be attached later with setReferencePaths. */
export interface MarketDataDeps {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  host: EnginePort;
  referencePaths?: ReferencePaths;
  /** Clock (ms); tests pass a fixed one. */
  now?: () => number;
}

/** Creates the service: seeds the engine and the content tables, loads state and listens to engine events. */
export async function createMarketDataService(deps: MarketDataDeps): Promise<MarketDataService> {
  const { config, db, log, host } = deps;
  const now = deps.now ?? (() => Date.now());
  const repo: MarketDataRepository = createMarketDataRepository(db);
  const bannerDir = path.join(config.dataDir, 'static', 'banners');

  const t0 = now();
  await seedEngine(host, log);
  await seedPerpMarkets(host, log, { insurance: config.demoMode });
  await seedContent(repo, t0);

  const catalogue = await loadCatalogue(repo);
  const series = new SeriesSet(catalogue.all);
  const reference = createReferencePrices(log, deps.referencePaths);
  const updates = new MarketUpdates(log);
  /** Attached contract feeds, the last one in use (contract-feed.ts). */
  const feeds: ContractFeed[] = [];
  const feed = (): ContractFeed | undefined => feeds[feeds.length - 1];
  /** Whether the contract listing `symbol` is fed by a perpetual market now. */
  const fed = (symbol: string) => feed()?.figures(symbol, now()) !== undefined;
  const tickers = createTickers({ config, host, catalogue, series, reference, now, contracts: feed });
  const klines = createKlineStore({ repo, series, log, now });
  const depth = createDepthBooks(host, catalogue);
  const trades = createTradeLists({ repo, host, catalogue, log });
  const skip = (l: Listing) => l.type === 'CONTRACT' && fed(l.symbol);
  const ownBackfill = createReferenceHistory({ repo, series, reference, klines, log, now, t0, skip });
  /** Market data's reference history, then the contract feed's (one after the other: the machine is small). */
  const backfill = async () => {
    await ownBackfill();
    await feed()?.backfill();
  };

  /** Applies one engine command's events: trades to the series and trade lists, depth changes to the books. */
  function onEvents(events: EngineEvent[], _cmd: Command): void {
    const changes = new Map<string, LevelChange[]>();
    const batch = new Map<string, PublicTrade[]>();
    for (const e of events) {
      if (e.type === 'trade') {
        const s = series.get('SPOT', e.symbol);
        if (!s) continue;
        series.applyTrade(s, e.ts, e.price, e.quantity, e.quoteAmount);
        trades.add(e, s.listing, batch);
      } else if (e.type === 'depthChanged') {
        let list = changes.get(e.symbol);
        if (!list) changes.set(e.symbol, (list = []));
        list.push({ side: e.side, price: e.price, quantity: e.quantity });
      }
    }
    for (const [symbol, list] of changes) {
      const u = depth.apply(symbol, list);
      if (u) updates.emit(u);
    }
    for (const [symbol, list] of batch) updates.emit({ kind: 'trades', symbol, trades: list });
  }

  // Depth books from the engine's state now, then every change from the events (synchronously, no gap).
  const unsubscribe = host.onEvents(onEvents);
  for (const l of catalogue.all) if (l.type === 'SPOT') depth.load(l.symbol);

  await klines.loadState();
  await trades.loadRecent();

  /** Rolls quiet bars, then pushes the marked tickers and open bars (every series' ticker each REFRESH_MS). */
  let lastRefresh = now();
  function publish(): void {
    const t = now();
    series.rollQuietBars(t);
    if (t - lastRefresh >= REFRESH_MS) {
      lastRefresh = t;
      series.markTicker();
    }
    if (updates.size === 0) {
      series.clearPublishMarks();
      return;
    }
    series.drainTickers((s) => updates.emit({ kind: 'ticker', symbol: s.listing.symbol, type: s.listing.type, pair: tickers.pairOf(s, t) }));
    series.drainKlines((s, period) => {
      if (skip(s.listing)) return; // a fed contract listing's bars are pushed by its feed (barChanged)
      const bar = s.current.get(period);
      if (bar) updates.emit({ kind: 'kline', symbol: s.listing.symbol, type: s.listing.type, period, bar: klineOut(s.listing, bar) });
    });
  }
  const flushTimer = setInterval(() => void klines.flush(), FLUSH_MS);
  const publishTimer = setInterval(publish, PUBLISH_MS);
  flushTimer.unref();
  publishTimer.unref();

  if (reference.paths) await ownBackfill();

  const service: MarketDataService = {
    setReferencePaths(p) {
      reference.paths = p; // reference prices are available at once; the history follows
      return backfill();
    },
    setIndexPrice: tickers.setIndexPrice,
    indexPrice: tickers.indexPrice,
    referencePrice: tickers.referencePrice,
    listings: catalogue.listings,
    listing: catalogue.listing,
    mainCurs: catalogue.mainCurs,
    pair: tickers.pair,
    open24h(symbol, type) {
      const s = series.get(type, symbol);
      const open = s?.window.stats(now()).open ?? null;
      return s && open !== null ? fromUnits(open, s.listing.priceDecimals) : null;
    },
    pairs: tickers.pairs,
    indexCoin: tickers.indexCoin,
    coinIntro: catalogue.coinIntro,
    klines(symbol, type, period, limit, endTime) {
      const f = type === 'CONTRACT' && fed(symbol) ? feed() : undefined;
      return f ? f.klines(symbol, period, limit, endTime) : klines.klines(symbol, type, period, limit, endTime);
    },
    attachContractFeed(f) {
      feeds.push(f);
      return {
        reference,
        tickerChanged(symbol) {
          const s = series.get('CONTRACT', symbol);
          if (s && feed() === f) series.markTicker(s);
        },
        barChanged(symbol, period, bar) {
          if (feed() === f && series.get('CONTRACT', symbol)) updates.emit({ kind: 'kline', symbol, type: 'CONTRACT', period, bar });
        },
        detach() {
          const i = feeds.lastIndexOf(f);
          if (i >= 0) feeds.splice(i, 1);
        },
      };
    },
    depth: depth.snapshot,
    trades: trades.latest,
    bannerFile: (file) => bannerFilePath(bannerDir, file),
    subscribe: (listener) => updates.subscribe(listener),
    flush: klines.flush,
    async close() {
      clearInterval(flushTimer);
      clearInterval(publishTimer);
      unsubscribe();
      updates.clear();
      await klines.flush();
    },
  };
  return service;
}
