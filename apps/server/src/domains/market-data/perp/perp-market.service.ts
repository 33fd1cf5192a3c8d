/**
 * The perpetual contracts' public market data: markets with last, mark and index prices, 24 h ticker,
 * funding (predicted rate, next funding time, settled history), depth, recent book trades and k-lines of the trades
 * and of the mark price. Live from the engine's events (host.onEvents):
 * - perpTrade of kind BOOK: the recent trades, the 24 h window and the trade bars (liquidation takeovers and
 *   auto-deleveraging happen off the book at the bankruptcy price and are not public trades);
 * - markPrice: the mark price bars, the index price bars (the tick's index), the premium index bars (the tick's premium
 *   sample of the funding rate, premium-sample.ts) and the contractMark push;
 * - perpDepthChanged: a coalesced depth snapshot push. (Settled funding rates are the projector's rows.)
 *
 * Bars reuse market data's series and k-line store (domains/market-data series.ts, klines.ts) over the same klines
 * table, with the row type 'PERP' for trade bars, 'MARK' for mark price bars, 'INDEX' for index price bars and
 * 'PREMIUM' for premium index bars (spot rows are 'SPOT', the index bars of the contract listings 'CONTRACT'), so they are persisted in batches, survive a restart (open bars and the
 * 24 h window are loaded back) and quiet periods are flat bars, exactly as spot's. The recent trades are loaded back
 * from the projected perp_trades after a restart.
 *
 * One source for every screen: the 24 h figures (`figures`: last price = the last book trade, else the mark price,
 * else the index; change, high, low and volumes of the trades' 24 h window) are this service's, and market data
 * shows them for the contract listings of the same symbols (market-data/contract-feed.ts: getPairsByMainCur and
 * getCoinInfo type CONTRACT, the ticker push), with the trade bars as their k-lines (getKline type CONTRACT, the
 * kline push). Before the first trade the trade bars are the reference history of the pair, written by the same
 * backfill as spot's (market-data/reference-history.ts) when the reference paths are attached, so the charts and
 * the 24 h window are not empty after a fresh start; mark, index and premium bars have no history before the service
 * ran (their reads answer [] before the first tick).
 *
 * Money: bigint engine units inside (prices in price units, quantities in qty units, amounts in USDT units of 1e-8);
 * decimal strings only in the answers (packages/api contract-market.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import { and, asc, desc, eq, gte, lt } from 'drizzle-orm';
import type {
  ContractDepth,
  ContractFunding,
  ContractKlinePrice,
  ContractMarket,
  ContractMarkTick,
  ContractTrade,
  Kline,
  KlinePeriod,
  MarketType,
} from '@exchange/api';
import { bracketTiers, formatDecimal, type EngineEvent, type PerpMarketConfig } from '@exchange/core';
import type { Db } from '../../../platform/db/client';
import { klines as klinesTable } from '../market-data.tables';
import { perpFundingRates, perpTrades } from '../../perp/perp.tables';
import type { EnginePort } from '../../../platform/engine-port/engine-port';
import type { Listing } from '../catalogue';
import type { ContractFeedSink, ContractFigures } from '../contract-feed';
import { fromUnits, percentChange, toUnits } from '../../../platform/shared/decimal';
import { createKlineStore, klineOut } from '../klines';
import { maxB, minB } from '../../../platform/shared/decimal';
import { createReferenceHistory } from '../reference-history';
import { createMarketDataRepository } from '../market-data.repository';
import type { MarketDataService } from '../market-data.service';
import { SeriesSet, type Series } from '../series';
import { premiumSampleOfBook } from './premium-sample';

/** Row types of the klines table for the perpetual markets' bars. */
export const PERP_TRADE_BARS = 'PERP' as MarketType;
export const PERP_MARK_BARS = 'MARK' as MarketType;
/** Row types of the index price bars and of the premium index bars (E8 fractions, 8 decimals) of each perpetual. */
export const PERP_INDEX_BARS = 'INDEX' as MarketType;
export const PERP_PREMIUM_BARS = 'PREMIUM' as MarketType;
/** Decimals of a premium index bar: the engine's E8 fraction, as Binance prints it ("-0.00042931"). */
export const PREMIUM_DECIMALS = 8;

/**
 * Which bars a k-line read answers: the trades ('last'), the mark price ('mark'), the index price ('index') or the
 * premium index samples of the funding rate ('premium').
 */
export type PerpBarSeries = ContractKlinePrice | 'index' | 'premium';
/** Recent trades kept per market (getTrades' maximum). */
export const TRADES_KEPT = 200;
/** Levels of a contractDepth push. */
export const DEPTH_PUSH_LEVELS = 20;
/** Bars are written every FLUSH_MS, tickers pushed at most every PUBLISH_MS (as market data's). */
const FLUSH_MS = 2_000;
const PUBLISH_MS = 500;

/** The klines table's row type of each bar series. */
const BAR_TYPES: Readonly<Record<PerpBarSeries, MarketType>> = {
  last: PERP_TRADE_BARS,
  mark: PERP_MARK_BARS,
  index: PERP_INDEX_BARS,
  premium: PERP_PREMIUM_BARS,
};

/** The settle asset's scale (USDT): amounts and quote volumes. */
const SETTLE_SCALE = 8;

/** ppm as a percent string with 4 decimals (200 -> "0.0200"). */
export function ppmPercent(ppm: number): string {
  return formatDecimal(BigInt(ppm), 4);
}
/** An E8 rate as a percent string with 6 decimals, signed (10000 -> "0.010000"). */
export function e8Percent(e8: number): string {
  return formatDecimal(BigInt(e8), 6);
}

/** A public push of the contracts (packages/api ContractMarketWsMessage). */
export type PerpMarketUpdate =
  | { kind: 'contractTicker'; symbol: string; data: ContractMarket }
  | { kind: 'contractDepth'; symbol: string; data: ContractDepth }
  | { kind: 'contractTrades'; symbol: string; data: ContractTrade[] }
  | { kind: 'contractMark'; symbol: string; data: ContractMarkTick };

/**
 * The level changes of one engine command in one perpetual book (Binance's diff depth): `seq` is the book's
 * sequence after them, `prevSeq` before (seq - 1); each changed level with its new total quantity ("0" = removed),
 * decimal strings at the market's decimals; `ts` the command's time.
 */
export interface PerpDepthDelta {
  symbol: string;
  seq: number;
  prevSeq: number;
  bids: Array<[string, string]>;
  asks: Array<[string, string]>;
  ts: number;
}

/** The contract market data (see the file comment). */
export interface PerpMarketService {
  /** Every perpetual market, listing order. */
  markets(): ContractMarket[];
  /** One market, or undefined when the engine does not list it. */
  market(symbol: string): ContractMarket | undefined;
  depth(symbol: string, limit: number): ContractDepth | undefined;
  /**
   * The sequence of a perpetual's book: 0 at start, +1 for each engine command that changed it. Read together with
   * depth() (synchronously) it is the snapshot's update id (Binance lastUpdateId), and onDepthDelta's seq/prevSeq
   * continue it (Binance u/pu), so a client syncs from the REST snapshot as Binance documents.
   */
  depthSeq(symbol: string): number;
  /** Listen to every book change, one call per engine command and market, synchronously in order; returns an unsubscribe. */
  onDepthDelta(listener: (d: PerpDepthDelta) => void): () => void;
  /** Latest book trades, newest first. */
  trades(symbol: string, limit: number): ContractTrade[];
  /**
   * Bars of the trades ('last'), the mark price ('mark'), the index price ('index') or the premium index ('premium',
   * E8 fractions at 8 decimals, volume 0) before endTime (exclusive), oldest first; [] before the series' first sample.
   */
  klines(symbol: string, price: PerpBarSeries, period: KlinePeriod, limit: number, endTime?: number): Promise<Kline[]>;
  /**
   * Settled fundings, newest first, before endTime (exclusive); with `startTime` the first `limit` from startTime
   * (inclusive), oldest first (Binance's GET /fapi/v1/fundingRate with startTime).
   */
  fundingHistory(symbol: string, limit: number, endTime?: number, startTime?: number): Promise<ContractFunding[]>;
  /** The 24 h figures of a perpetual now (the one source of every ticker, bigint units), or undefined. */
  figures(symbol: string): ContractFigures | undefined;
  /** The mark price, index and funding now (the contractMark push), or undefined for an unknown market. */
  markTick(symbol: string): ContractMarkTick | undefined;
  /** Listen to the public pushes; returns an unsubscribe. */
  subscribe(listener: (u: PerpMarketUpdate) => void): () => void;
  /** Writes pending bars now. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Dependencies. */
export interface PerpMarketDeps {
  db: Db;
  log: FastifyBaseLogger;
  host: EnginePort;
  /**
   * Listings (display order, demo data flag), index prices, and (when given) the contract feed this service
   * attaches: market data then shows its figures and bars for the contract listings.
   */
  marketData: Pick<MarketDataService, 'listings' | 'indexPrice'> & Partial<Pick<MarketDataService, 'attachContractFeed'>>;
  now?: () => number;
}

/** The listing of a perpetual market for the series (row type given). */
function listingOf(m: PerpMarketConfig, type: MarketType, base: Listing | undefined, sort: number): Listing {
  return {
    symbol: m.symbol,
    type,
    base: m.base,
    quote: m.quote,
    priceDecimals: m.priceDecimals,
    qtyDecimals: m.qtyDecimals,
    tickSize: fromUnits(m.tickSize, m.priceDecimals),
    stepSize: fromUnits(m.stepSize, m.qtyDecimals),
    minQty: fromUnits(m.minQty, m.qtyDecimals),
    minNotional: '0',
    listedAt: base?.listedAt ?? 0,
    isNew: false,
    demoData: base?.demoData ?? false,
    sort,
  };
}

/** Creates the service: loads the bars and recent trades, then follows the engine's events. */
export async function createPerpMarketService(deps: PerpMarketDeps): Promise<PerpMarketService> {
  const { db, log, host, marketData } = deps;
  const now = deps.now ?? (() => Date.now());
  const t0 = now();
  const repo = createMarketDataRepository(db);

  // The perpetual markets in the contract listings' display order (the engine's order for any other).
  const contractListings = marketData.listings('CONTRACT');
  const order = (s: string) => {
    const i = contractListings.findIndex((l) => l.symbol === s);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  const perpMarkets = host.engine.perpMarkets().sort((a, b) => order(a.symbol) - order(b.symbol));
  const symbols = perpMarkets.map((m) => m.symbol);
  const tradeListings = perpMarkets.map((m, i) =>
    listingOf(
      m,
      PERP_TRADE_BARS,
      contractListings.find((l) => l.symbol === m.symbol),
      i,
    ),
  );
  const markListings = perpMarkets.map((m, i) =>
    listingOf(
      m,
      PERP_MARK_BARS,
      contractListings.find((l) => l.symbol === m.symbol),
      i,
    ),
  );
  const indexListings = perpMarkets.map((m, i) =>
    listingOf(
      m,
      PERP_INDEX_BARS,
      contractListings.find((l) => l.symbol === m.symbol),
      i,
    ),
  );
  // Premium bars hold E8 fractions: 8 decimals, no quantity.
  const premiumListings = indexListings.map((l) => ({
    ...l,
    type: PERP_PREMIUM_BARS,
    priceDecimals: PREMIUM_DECIMALS,
    qtyDecimals: 0,
    tickSize: '0.00000001',
  }));
  const ownListings = [...tradeListings, ...markListings, ...indexListings, ...premiumListings];
  const series = new SeriesSet(ownListings);
  const klines = createKlineStore({ repo, series, log, now });
  const tradeRings = new Map<string, ContractTrade[]>(symbols.map((s) => [s, []]));
  const listeners = new Set<(u: PerpMarketUpdate) => void>();
  const depthListeners = new Set<(d: PerpDepthDelta) => void>();
  const depthSeqs = new Map<string, number>();
  const depthDirty = new Set<string>();

  const emit = (u: PerpMarketUpdate) => {
    for (const fn of listeners) {
      try {
        fn(u);
      } catch (err) {
        log.error({ err }, 'contract market listener failed');
      }
    }
  };
  const listingFor = (symbol: string) => tradeListings.find((l) => l.symbol === symbol);

  function markTick(symbol: string): ContractMarkTick | undefined {
    const st = host.engine.perpMarkState(symbol);
    const m = host.engine.perpMarket(symbol);
    if (!st || !m) return undefined;
    return {
      markPrice: st.markPrice === null ? '' : fromUnits(st.markPrice, m.priceDecimals),
      indexPrice: st.indexPrice === null ? '' : fromUnits(st.indexPrice, m.priceDecimals),
      fundingRate: e8Percent(st.predictedFundingRateE8),
      nextFundingTime: st.nextFundingTs,
      time: st.markTs,
      indexStale: st.indexStale,
    };
  }

  /** The index price of `m` (price units): the engine's, else the index job's latest (before the first mark tick). */
  function indexOf(m: PerpMarketConfig): bigint | null {
    const st = host.engine.perpMarkState(m.symbol);
    if (st?.indexPrice !== null && st?.indexPrice !== undefined) return st.indexPrice;
    const fromJob = marketData.indexPrice(m.symbol);
    return fromJob === null ? null : toUnits(fromJob, m.priceDecimals);
  }

  /**
   * The 24 h figures of `m` at `ts`, the one source of every screen (see the file comment): last = the last book
   * trade, else the mark price, else the index, else the window's close; change, high, low and volumes over the
   * trades' 24 h window (the reference history before the first trade); a window without any bar uses the mark
   * price bars (no volume). High and low include the last price.
   */
  function figuresOf(m: PerpMarketConfig, ts: number): ContractFigures {
    const st = host.engine.perpMarkState(m.symbol);
    const tw = series.get(PERP_TRADE_BARS, m.symbol)?.window.stats(ts);
    const mw = series.get(PERP_MARK_BARS, m.symbol)?.window.stats(ts);
    const w = tw && tw.open !== null ? tw : mw;
    const last = st?.lastPrice ?? st?.markPrice ?? indexOf(m) ?? w?.close ?? null;
    const high = w?.high ?? null;
    const low = w?.low ?? null;
    return {
      last,
      open: w?.open ?? null,
      high: high === null ? last : last === null ? high : maxB(high, last),
      low: low === null ? last : last === null ? low : minB(low, last),
      volume: tw?.volume ?? 0n,
      quoteVolume: tw?.quoteVolume ?? 0n,
      index: indexOf(m),
      priceDecimals: m.priceDecimals,
      qtyDecimals: m.qtyDecimals,
    };
  }

  function marketOf(m: PerpMarketConfig, ts: number): ContractMarket {
    const st = host.engine.perpMarkState(m.symbol);
    const pd = m.priceDecimals;
    const price = (v: bigint | null | undefined) => (v === null || v === undefined ? '' : fromUnits(v, pd));
    const f = figuresOf(m, ts);
    const tiers = bracketTiers(m.brackets);
    return {
      symbol: m.symbol,
      base: m.base,
      quote: m.quote,
      status: m.status,
      priceDecimals: pd,
      qtyDecimals: m.qtyDecimals,
      tickSize: fromUnits(m.tickSize, pd),
      stepSize: fromUnits(m.stepSize, m.qtyDecimals),
      minQty: fromUnits(m.minQty, m.qtyDecimals),
      lotNotional: formatDecimal(m.lotNotional, SETTLE_SCALE),
      makerFeeRate: ppmPercent(m.makerFeePpm),
      takerFeeRate: ppmPercent(m.takerFeePpm),
      priceBandRate: ppmPercent(m.priceBandPpm),
      maxLeverage: m.brackets[0]?.maxLeverage ?? 1,
      brackets: tiers.map((t) => ({
        notionalFloor: formatDecimal(t.notionalFloor, SETTLE_SCALE),
        notionalCap: formatDecimal(t.notionalCap, SETTLE_SCALE),
        maxLeverage: t.maxLeverage,
        maintMarginRate: ppmPercent(t.maintMarginPpm),
      })),
      lastPrice: price(st?.lastPrice),
      markPrice: price(st?.markPrice),
      indexPrice: price(f.index),
      change24h: f.open !== null && f.last !== null ? percentChange(f.open, f.last) : '0.00',
      high24h: price(f.high),
      low24h: price(f.low),
      volume24h: fromUnits(f.volume, m.qtyDecimals),
      quoteVolume24h: fromUnits(f.quoteVolume, SETTLE_SCALE),
      fundingRate: e8Percent(st?.predictedFundingRateE8 ?? 0),
      lastFundingRate: e8Percent(st?.lastFundingRateE8 ?? 0),
      nextFundingTime: st?.nextFundingTs ?? Math.floor(ts / m.fundingIntervalMs + 1) * m.fundingIntervalMs,
      fundingIntervalMs: m.fundingIntervalMs,
      interestRate: e8Percent(m.interestRateE8),
      fundingCap: e8Percent(m.fundingCapE8),
      demoData: listingFor(m.symbol)?.demoData ?? false,
      paused: st?.indexStale ?? false,
      pauseReason: st?.indexStale ? 'index_stale' : '',
      pausedSince: st?.indexStaleSince ?? 0,
      time: ts,
    };
  }

  function depthOf(symbol: string, limit: number): ContractDepth | undefined {
    const m = host.engine.perpMarket(symbol);
    if (!m) return undefined;
    const d = host.engine.perpDepth(symbol, limit);
    const row = (l: { price: bigint; quantity: bigint }): [string, string] => [fromUnits(l.price, m.priceDecimals), fromUnits(l.quantity, m.qtyDecimals)];
    return { symbol, bids: d.bids.map(row), asks: d.asks.map(row), time: now() };
  }

  /** Moves the sequence of each book a command changed and tells the depth listeners its levels (last change wins). */
  function applyDepth(changes: Map<string, Map<string, Extract<EngineEvent, { type: 'perpDepthChanged' }>>>, ts: number): void {
    for (const [symbol, levels] of changes) {
      const prevSeq = depthSeqs.get(symbol) ?? 0;
      const seq = prevSeq + 1;
      depthSeqs.set(symbol, seq);
      if (depthListeners.size === 0) continue;
      const m = host.engine.perpMarket(symbol);
      if (!m) continue;
      const bids: Array<[string, string]> = [];
      const asks: Array<[string, string]> = [];
      for (const c of levels.values()) (c.side === 'BUY' ? bids : asks).push([fromUnits(c.price, m.priceDecimals), fromUnits(c.quantity, m.qtyDecimals)]);
      const d: PerpDepthDelta = { symbol, seq, prevSeq, bids, asks, ts };
      for (const fn of depthListeners) {
        try {
          fn(d);
        } catch (err) {
          log.error({ err }, 'contract depth listener failed');
        }
      }
    }
  }

  /**
   * Records the index price and the premium index sample of a mark price tick (`e`, an event of a command whose events
   * are `events`) in their bars. The sample is recomputed from the book (premium-sample.ts), which is the book the
   * engine sampled unless the same command changed it afterwards (a triggered order, a liquidation): then the book
   * sampled is gone and no premium is recorded for that tick rather than a value the engine did not use.
   */
  function recordIndexAndPremium(e: Extract<EngineEvent, { type: 'markPrice' }>, events: EngineEvent[]): void {
    const symbol = e.state.symbol;
    const index = e.state.indexPrice;
    if (index === null) return;
    const is = series.get(PERP_INDEX_BARS, symbol);
    if (is) series.applyTick(is, e.ts, index);
    const ps = series.get(PERP_PREMIUM_BARS, symbol);
    const m = host.engine.perpMarket(symbol);
    if (!ps || !m || events.some((x) => x.type === 'perpDepthChanged' && x.symbol === symbol)) return;
    series.applyTick(
      ps,
      e.ts,
      premiumSampleOfBook(m, SETTLE_SCALE, index, (s, n) => host.engine.perpDepth(s, n)),
    );
  }

  function onEvents(events: EngineEvent[], cmd?: { ts: number }): void {
    const batch = new Map<string, ContractTrade[]>();
    const depthChanges = new Map<string, Map<string, Extract<EngineEvent, { type: 'perpDepthChanged' }>>>();
    for (const e of events) {
      if (e.type === 'perpTrade') {
        if (e.kind !== 'BOOK') continue;
        const s = series.get(PERP_TRADE_BARS, e.symbol);
        const l = listingFor(e.symbol);
        if (!s || !l) continue;
        series.applyTrade(s, e.ts, e.price, e.quantity, e.quoteAmount);
        const t: ContractTrade = {
          id: e.tradeId,
          price: fromUnits(e.price, l.priceDecimals),
          amount: fromUnits(e.quantity, l.qtyDecimals),
          side: e.takerSide,
          time: e.ts,
        };
        const ring = tradeRings.get(e.symbol);
        if (ring) {
          ring.unshift(t);
          if (ring.length > TRADES_KEPT) ring.length = TRADES_KEPT;
        }
        let list = batch.get(e.symbol);
        if (!list) batch.set(e.symbol, (list = []));
        list.unshift(t);
      } else if (e.type === 'markPrice') {
        const s = series.get(PERP_MARK_BARS, e.state.symbol);
        if (!s || e.state.markPrice === null) continue;
        series.applyTick(s, e.ts, e.state.markPrice);
        recordIndexAndPremium(e, events);
        const trade = series.get(PERP_TRADE_BARS, e.state.symbol);
        if (trade) series.markTicker(trade);
        if (listeners.size > 0) {
          const tick = markTick(e.state.symbol);
          if (tick) emit({ kind: 'contractMark', symbol: e.state.symbol, data: tick });
        }
      } else if (e.type === 'perpDepthChanged') {
        depthDirty.add(e.symbol);
        let levels = depthChanges.get(e.symbol);
        if (!levels) depthChanges.set(e.symbol, (levels = new Map()));
        levels.set(`${e.side}|${e.price}`, e);
      }
    }
    if (depthChanges.size > 0) applyDepth(depthChanges, cmd?.ts ?? now());
    if (listeners.size === 0) {
      depthDirty.clear();
      return;
    }
    for (const [symbol, data] of batch) emit({ kind: 'contractTrades', symbol, data });
  }

  /**
   * Rolls quiet bars and pushes the marked tickers and the changed books (coalesced per PUBLISH_MS); market data
   * hears of the changed tickers and trade bars (its contract listings' pushes) even when nobody listens here.
   */
  function publish(): void {
    const t = now();
    series.rollQuietBars(t);
    series.drainTickers((s: Series) => {
      if (s.listing.type !== PERP_TRADE_BARS) return;
      sink?.tickerChanged(s.listing.symbol);
      if (listeners.size === 0) return;
      const m = host.engine.perpMarket(s.listing.symbol);
      if (m) emit({ kind: 'contractTicker', symbol: m.symbol, data: marketOf(m, t) });
    });
    series.drainKlines((s: Series, period) => {
      if (s.listing.type !== PERP_TRADE_BARS || !sink) return;
      const bar = s.current.get(period);
      if (bar) sink.barChanged(s.listing.symbol, period, klineOut(s.listing, bar));
    });
    if (listeners.size === 0) {
      depthDirty.clear();
      return;
    }
    for (const symbol of depthDirty) {
      const d = depthOf(symbol, DEPTH_PUSH_LEVELS);
      if (d) emit({ kind: 'contractDepth', symbol, data: d });
    }
    depthDirty.clear();
  }

  const unsubscribe = host.onEvents(onEvents);
  await klines.loadState();
  await loadRecentTrades();

  // The trade bars' reference history (as spot's, see the file comment), read by key like ownLatest.
  const ownLatestBefore = async (bounds: Record<string, number>) => {
    const out: Array<{ symbol: string; type: string; period: string; time: number }> = [];
    for (const l of tradeListings) {
      for (const [period, bound] of Object.entries(bounds)) {
        const rows = await db
          .select({ time: klinesTable.time })
          .from(klinesTable)
          .where(and(eq(klinesTable.symbol, l.symbol), eq(klinesTable.type, l.type), eq(klinesTable.period, period), lt(klinesTable.time, bound)))
          .orderBy(desc(klinesTable.time))
          .limit(1);
        if (rows[0]) out.push({ symbol: l.symbol, type: l.type, period, time: rows[0].time });
      }
    }
    return out;
  };
  let history: (() => Promise<void>) | undefined;
  const backfill = async () => {
    await history?.();
    series.markTicker(); // the windows got their history
  };
  const figures = (symbol: string, ts: number) => {
    const m = host.engine.perpMarket(symbol);
    return m ? figuresOf(m, ts) : undefined;
  };
  const sink: ContractFeedSink | undefined = marketData.attachContractFeed?.({
    figures,
    klines: (symbol, period, limit, endTime) => klines.klines(symbol, PERP_TRADE_BARS, period, limit, endTime),
    backfill,
  });
  if (sink) {
    history = createReferenceHistory({
      repo,
      series,
      reference: sink.reference,
      klines,
      log,
      now,
      t0,
      skip: (l) => l.type !== PERP_TRADE_BARS,
      latestTimesBefore: ownLatestBefore,
    });
    if (sink.reference.paths) await backfill();
  }
  const flushTimer = setInterval(() => void klines.flush(), FLUSH_MS);
  const publishTimer = setInterval(publish, PUBLISH_MS);
  flushTimer.unref();
  publishTimer.unref();

  /** Fills the recent trades from the projected perp_trades (book trades), merged with live ones. */
  async function loadRecentTrades(): Promise<void> {
    try {
      await host.projected();
      for (const l of tradeListings) {
        const rows = await db
          .select()
          .from(perpTrades)
          .where(and(eq(perpTrades.symbol, l.symbol), eq(perpTrades.kind, 'BOOK')))
          .orderBy(desc(perpTrades.id))
          .limit(TRADES_KEPT);
        const ring = tradeRings.get(l.symbol) ?? [];
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
        tradeRings.set(l.symbol, merged);
      }
    } catch (err) {
      log.warn({ err }, 'recent contract trades not loaded');
    }
  }

  return {
    markets() {
      const t = now();
      return perpMarkets.map((m) => marketOf(host.engine.perpMarket(m.symbol) ?? m, t));
    },
    market(symbol) {
      const m = host.engine.perpMarket(symbol);
      return m ? marketOf(m, now()) : undefined;
    },
    depth: depthOf,
    depthSeq: (symbol) => depthSeqs.get(symbol) ?? 0,
    onDepthDelta(listener) {
      depthListeners.add(listener);
      return () => depthListeners.delete(listener);
    },
    markTick,
    trades(symbol, limit) {
      return (tradeRings.get(symbol) ?? []).slice(0, limit);
    },
    klines(symbol, price, period, limit, endTime) {
      return klines.klines(symbol, BAR_TYPES[price], period, limit, endTime);
    },
    figures(symbol) {
      const m = host.engine.perpMarket(symbol);
      return m ? figuresOf(m, now()) : undefined;
    },
    async fundingHistory(symbol, limit, endTime, startTime) {
      const m = host.engine.perpMarket(symbol);
      if (!m) return [];
      // The rows are the projector's (fundingSettled events, rebuilt from the journal with the rest): wait for it a while.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([host.projected(), new Promise<void>((resolve) => (timer = setTimeout(resolve, 3000)))]);
      clearTimeout(timer);
      const f = perpFundingRates;
      const where = and(
        eq(f.symbol, symbol),
        endTime === undefined ? undefined : lt(f.fundingTs, endTime),
        startTime === undefined ? undefined : gte(f.fundingTs, startTime),
      );
      const rows = await db
        .select()
        .from(f)
        .where(where)
        .orderBy(startTime === undefined ? desc(f.fundingTs) : asc(f.fundingTs))
        .limit(limit);
      return rows.map((r) => ({
        symbol: r.symbol,
        fundingTime: r.fundingTs,
        fundingRate: e8Percent(r.rateE8),
        markPrice: fromUnits(BigInt(r.markPrice), m.priceDecimals),
      }));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush: klines.flush,
    async close() {
      clearInterval(flushTimer);
      clearInterval(publishTimer);
      unsubscribe();
      sink?.detach();
      listeners.clear();
      depthListeners.clear();
      await klines.flush();
    },
  };
}
