/**
 * Binance USDⓈ-M futures REST under /fapi (see
 * https://developers.binance.com/docs/derivatives/usds-margined-futures/general-info) over our USDT perpetuals,
 * through the same services as the app API: market data from the perpetual market service (markets, mark/index/funding,
 * depth with its sequence, trades, k-lines, funding history) and the engine's reads, and everything that changes
 * state through the perpetuals service (placeOrder, cancelOrder, amendOrder, setLeverage, setMarginMode, setTpSl), so through the same
 * journaled engine commands. Shapes in futures.format.ts, futures error codes in futures.errors.ts; the
 * differences from Binance are listed in docs/binance-api.md ("USDⓈ-M futures REST").
 *
 * Every route declares its weight and security (binance.auth.ts) and a TypeBox schema of every parameter
 * (futures.params.ts). Keyed routes read the caller from callerOf(req): a key of user A only ever reads or changes
 * A's orders, positions and balances.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { PerpConditionType, PerpMarketConfig, PerpOrderView } from '@exchange/core';
import { bracketTiers, formatDecimal } from '@exchange/core';
import type { KlinePeriod } from '@exchange/api';
import { KLINE_PERIOD_MS } from '@exchange/api';
import { callerOf, type BinanceRouteConfig } from './binance.auth';
import { binanceRateLimits, futuresDepthWeight } from './binance.weights';
import { BinanceError, BX } from './binance.errors';
import { paramsOf } from './binance.hooks';
import { perpMarketOrThrow, toBinanceSymbol } from './binance.symbols';
import { rowToPerpOrderView } from '../../domains/perp/perp.format';
import { createPerpRepository } from '../../domains/perp/perp.repository';
import { canonicalOrderId } from '../../platform/shared/order-fields';
import type { ConditionalOrderInput, PerpService } from '../../domains/perp/perp.service';
import { PREMIUM_DECIMALS, type PerpBarSeries, type PerpMarketService } from '../../domains/market-data/perp/perp-market.service';
import type { IndexComponentsService } from '../../domains/index-price/index-components.service';
import type { MarketDataService } from '../../domains/market-data/market-data.service';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { ServerClock } from '../../platform/shared/clock';
import { fromUnits, toUnits } from '../../platform/shared/decimal';
import { AGGREGATED_INTERVALS, aggregatedKlines } from '../../domains/market-data/bar-aggregate';
import {
  AlgoCancelResponse,
  FuturesAlgoOrder,
  algoOrder,
  balanceEntry,
  binanceOrder,
  e8Rate,
  exchangeSymbol,
  positionRiskV2,
  positionRiskV3,
  ticker24h,
  tpSlOrder,
  userTrade,
  INCOME_TYPES,
  incomeRows,
  trimZeros,
} from './futures.format';
import { FX, futuresCall } from './futures.errors';
import {
  FBool,
  FClientId,
  FDecimal,
  FEnum,
  FInt,
  FInterval,
  FSymbol,
  boolParam,
  checkWindow,
  idParam,
  intParam,
  optional,
  outOfRange,
  publicParams,
  required,
  signedParams,
  timeParam,
} from './futures.params';
import { createFuturesRepository } from './futures.repository';
import { registerFuturesBatchRoutes } from './futures.batch';
import { registerFuturesDataRoutes } from './futures.data';
import {
  AccountConfigResponse,
  answers,
  CodeMsgResponse,
  CoinMarginedExchangeInfoResponse,
  DualSideResponse,
  FundingInfoResponse,
  MultiAssetsMarginResponse,
  OpenInterestResponse,
  SymbolConfigResponse,
  FuturesAccountV2Response,
  FuturesAccountV3Response,
  FuturesBalanceResponse,
  FuturesCommissionResponse,
  FuturesOrder,
  FuturesUserTradesResponse,
  IncomeResponse,
  LeverageBracketResponse,
  LeverageResponse,
  PositionRiskV2Response,
  PositionRiskV3Response,
  FundingRateResponse,
  FuturesBookTickerResponse,
  FuturesDepthResponse,
  FuturesExchangeInfoResponse,
  FuturesTicker24hResponse,
  FuturesTickerPriceResponse,
  FuturesAggTradesResponse,
  FuturesTradesResponse,
  KlinesResponse,
  PingResponse,
  PremiumIndexResponse,
  ConstituentsResponse,
  TimeResponse,
} from './binance.responses';
import { perpScales, type PerpScales } from '../../platform/shared/market-scales';

/** Binance's kline intervals that we keep bars of (others answer -1120 Invalid interval). */
const INTERVALS: Record<string, KlinePeriod> = { '1m': '1min', '5m': '5min', '15m': '15min', '30m': '30min', '1h': '1hour', '1d': '1day', '1w': '1week' };
/** Binance's depth limits (GET /fapi/v1/depth). */
const DEPTH_LIMITS = new Set([5, 10, 20, 50, 100, 500, 1000]);
/** Longest wait for the projection before a history read goes ahead (ms). */
const PROJECTION_WAIT_MS = 3000;
/** Binance's conditional order types of POST /fapi/v1/order (docs/perp-conditional-orders.md). */
const CONDITION_TYPES = new Set<string>(['STOP', 'TAKE_PROFIT', 'STOP_MARKET', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET']);
/** Parameters only the conditional types take: sent with LIMIT or MARKET they are -1106, as at Binance. */
const CONDITION_ONLY = ['stopPrice', 'activationPrice', 'callbackRate'] as const;
/** Binance's contract types of continuousKlines (the delivery ones have no contract here). */
const CONTRACT_TYPES = new Set(['PERPETUAL', 'CURRENT_QUARTER', 'NEXT_QUARTER', 'TRADFI_PERPETUAL']);
/** Binance's seven-day window of allOrders and userTrades. */
const HISTORY_DAYS = 7;

const cfg = (weight: number, security: BinanceRouteConfig['security'], permission?: BinanceRouteConfig['permission']): { binance: BinanceRouteConfig } => ({
  binance: { weight, security, ...(permission ? { permission } : {}) },
});
/** USER_DATA (read) and TRADE (futuresTrade) route configs. */
const userData = (weight: number) => cfg(weight, 'USER_DATA', 'read');
const trade = (weight: number) => cfg(weight, 'TRADE', 'futuresTrade');

/**
 * What the futures routes use: the engine, the database (projected orders and trades), the clock, the limits
 * (exchangeInfo's rateLimits), the contracts' service and market data, and market data (a market's listing date).
 */
export interface FuturesRoutesDeps {
  host: EnginePort;
  db: Db;
  clock: Pick<ServerClock, 'now'>;
  config: Parameters<typeof binanceRateLimits>[0];
  perp: Pick<
    PerpService,
    'placeOrder' | 'placeConditional' | 'cancelOrder' | 'amendOrder' | 'setLeverage' | 'setMarginMode' | 'setTpSl' | 'settings' | 'positions' | 'account'
  >;
  perpMarket: Pick<PerpMarketService, 'depth' | 'depthSeq' | 'figures' | 'fundingHistory' | 'klines' | 'trades'>;
  marketData: Pick<MarketDataService, 'listing'>;
  indexComponents: Pick<IndexComponentsService, 'components'>;
}

/** Binance's USDⓈ-M futures routes over the contracts' services. */
export default function futuresRoutes({ host, db, clock, config, perp, perpMarket, marketData, indexComponents }: FuturesRoutesDeps): FastifyPluginAsync {
  return async function futuresRoutes(app) {
    const engine = () => host.engine;
    const contractRepo = createPerpRepository(db);
    const repo = createFuturesRepository(db);
    const marketOf = (p: Record<string, string>): PerpMarketConfig => perpMarketOrThrow(host, optional(p, 'symbol'));
    /** The market of an optional `symbol`: undefined when absent, -1121 when unknown. */
    const maybeMarket = (p: Record<string, string>): PerpMarketConfig | undefined => (optional(p, 'symbol') === undefined ? undefined : marketOf(p));
    const scalesCache = new Map<string, PerpScales>();
    const scalesOf = (symbol: string): PerpScales => {
      const m = engine().perpMarket(symbol);
      if (!m) throw BX.invalidSymbol();
      let s = scalesCache.get(symbol);
      if (!s || s.market !== m) scalesCache.set(symbol, (s = perpScales(m, engine().asset(m.quote)?.scale)));
      return s;
    };
    const settleScale = () => engine().asset(engine().perpMarkets()[0]?.quote ?? 'USDT')?.scale ?? 8;
    const orderOut = (o: PerpOrderView, withTime = true) => binanceOrder(o, scalesOf(o.symbol), withTime);
    async function caughtUp(): Promise<void> {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([host.projected(), new Promise<void>((resolve) => (timer = setTimeout(resolve, PROJECTION_WAIT_MS)))]);
      clearTimeout(timer);
    }
    const onboardDate = (m: PerpMarketConfig) => marketData.listing(m.symbol, 'CONTRACT')?.listedAt ?? 0;
    const P = (req: FastifyRequest) => paramsOf(req);

    // ------------------------------------------------------------------ market data (NONE / MARKET_DATA)

    app.get('/fapi/v1/ping', { config: cfg(1, 'NONE'), schema: { querystring: publicParams({}), response: answers(PingResponse) } }, async () => ({}));
    app.get('/fapi/v1/time', { config: cfg(1, 'NONE'), schema: { querystring: publicParams({}), response: answers(TimeResponse) } }, async () => ({
      serverTime: clock.now(),
    }));

    app.get(
      '/fapi/v1/exchangeInfo',
      { config: cfg(1, 'NONE'), schema: { querystring: publicParams({}), response: answers(FuturesExchangeInfoResponse) } },
      async () => {
        const markets = engine().perpMarkets();
        const assets = [...new Set(markets.map((m) => m.quote))].map((asset) => ({ asset, marginAvailable: true, autoAssetExchange: '0' }));
        return {
          timezone: 'UTC',
          serverTime: clock.now(),
          futuresType: 'U_MARGINED',
          rateLimits: binanceRateLimits(config),
          exchangeFilters: [],
          assets,
          symbols: markets.map((m) => exchangeSymbol(m, onboardDate(m))),
        };
      },
    );

    // CCXT's loadMarkets also asks for the coin-margined markets: we list none.
    app.get(
      '/dapi/v1/exchangeInfo',
      { config: cfg(1, 'NONE'), schema: { querystring: publicParams({}), response: answers(CoinMarginedExchangeInfoResponse) } },
      async () => ({
        timezone: 'UTC',
        serverTime: clock.now(),
        rateLimits: binanceRateLimits(config),
        exchangeFilters: [],
        symbols: [],
      }),
    );

    app.get(
      '/fapi/v1/depth',
      {
        config: { binance: { ...cfg(10, 'NONE').binance, weightBy: futuresDepthWeight } },
        schema: { querystring: publicParams({ symbol: FSymbol, limit: FInt }), response: answers(FuturesDepthResponse) },
      },
      async (req) => {
        const p = P(req);
        const m = marketOf(p);
        const limit = intParam(p, 'limit', 1, 1000, 500);
        if (!DEPTH_LIMITS.has(limit)) throw FX.invalidDepthLimit();
        // Read together (synchronously): the book and its sequence are of the same engine state.
        const d = perpMarket.depth(m.symbol, limit);
        const lastUpdateId = perpMarket.depthSeq(m.symbol);
        const now = clock.now();
        return { lastUpdateId, E: now, T: now, bids: d?.bids ?? [], asks: d?.asks ?? [] };
      },
    );

    app.get(
      '/fapi/v1/trades',
      { config: cfg(5, 'NONE'), schema: { querystring: publicParams({ symbol: FSymbol, limit: FInt }), response: answers(FuturesTradesResponse) } },
      async (req) => {
        const p = P(req);
        const m = marketOf(p);
        const limit = intParam(p, 'limit', 1, 1000, 500);
        return perpMarket
          .trades(m.symbol, limit)
          .slice()
          .reverse()
          .map((t) => {
            const s = scalesOf(m.symbol);
            const quote = toUnits(t.price, m.priceDecimals) * toUnits(t.amount, m.qtyDecimals) * s.mult;
            return { id: Number(t.id), price: t.price, qty: t.amount, quoteQty: fromUnits(quote, s.scale), time: t.time, isBuyerMaker: t.side === 'SELL' };
          });
      },
    );

    // Binance "Compressed/Aggregate Trades List" (CCXT's fetchTrades for a perpetual): our trades are not aggregated,
    // so each book trade is its own aggregate (a = f = l = the trade id). fromId, or startTime/endTime at most 1 h
    // apart, or the latest; limit 500, at most 1000. From the projected trades, after the projection caught up.
    app.get(
      '/fapi/v1/aggTrades',
      {
        config: cfg(20, 'NONE'),
        schema: {
          querystring: publicParams({ symbol: FSymbol, fromId: FInt, startTime: FInt, endTime: FInt, limit: FInt }),
          response: answers(FuturesAggTradesResponse),
        },
      },
      async (req) => {
        const p = P(req);
        const m = marketOf(p);
        const limit = intParam(p, 'limit', 1, 1000, 500);
        const startTime = timeParam(p, 'startTime');
        const endTime = timeParam(p, 'endTime');
        const fromId = idParam(p, 'fromId');
        if (fromId !== undefined && (startTime !== undefined || endTime !== undefined)) {
          throw new BinanceError(-1128, 'Combination of optional parameters invalid.', 400);
        }
        if (startTime !== undefined && endTime !== undefined && endTime - startTime > 3_600_000) {
          throw new BinanceError(-1127, 'More than 1 hours between startTime and endTime.', 400);
        }
        await caughtUp();
        const rows = await repo.publicTrades(m.symbol, {
          limit,
          ...(fromId !== undefined ? { fromId } : {}),
          ...(startTime !== undefined ? { startTime } : {}),
          ...(endTime !== undefined ? { endTime } : {}),
        });
        return rows.map((t) => {
          const id = Number(t.id);
          return {
            a: id,
            p: fromUnits(BigInt(t.price), m.priceDecimals),
            q: fromUnits(BigInt(t.quantity), m.qtyDecimals),
            f: id,
            l: id,
            T: t.ts,
            m: t.takerSide === 'SELL',
          };
        });
      },
    );

    /**
     * K-lines of the trades (GET /fapi/v1/klines), the mark price (markPriceKlines), the index price
     * (indexPriceKlines) or the premium index (premiumIndexKlines), Binance's rows: the last three with volume "0".
     */
    async function klineRows(p: Record<string, string>, price: PerpBarSeries) {
      const m = marketOf(p);
      const interval = required(p, 'interval');
      const aggregated = Object.hasOwn(AGGREGATED_INTERVALS, interval) ? AGGREGATED_INTERVALS[interval] : undefined;
      const period = Object.hasOwn(INTERVALS, interval) ? INTERVALS[interval] : undefined;
      if (!period && !aggregated) throw BX.invalidInterval();
      const limit = intParam(p, 'limit', 1, 1500, 500);
      const startTime = timeParam(p, 'startTime');
      const endTime = timeParam(p, 'endTime');
      if (aggregated !== undefined) {
        // An interval the contract market does not store (3m, 2h, 4h, 6h, 8h, 12h, 3d, 1M): built from a finer one.
        const read = (source: KlinePeriod, count: number, end: number | undefined) => perpMarket.klines(m.symbol, price, source, count, end);
        const q = { limit, ...(startTime !== undefined ? { startTime } : {}), ...(endTime !== undefined ? { endTime } : {}) };
        // Premium bars are E8 fractions: summed and compared at their own 8 decimals, not the market's price decimals.
        const decimals = price === 'premium' ? { priceDecimals: PREMIUM_DECIMALS, qtyDecimals: 0 } : m;
        const rows = await aggregatedKlines(read, aggregated, decimals, q);
        return rows.map((b) => [b.time, b.open, b.high, b.low, b.close, price === 'last' ? b.volume : '0', b.closeTime, '0', 0, '0', '0', '0']);
      }
      if (!period) throw BX.invalidInterval();
      const ms = KLINE_PERIOD_MS[period];
      // endTime is inclusive of a bar's open time; from startTime on the first `limit` bars (quiet bars are flat bars).
      let end = endTime === undefined ? undefined : endTime + 1;
      if (startTime !== undefined) {
        const byStart = startTime + limit * ms + ms;
        end = end === undefined ? byStart : Math.min(end, byStart);
      }
      const bars = await perpMarket.klines(m.symbol, price, period, startTime === undefined ? limit : limit + 2, end);
      const kept = (startTime === undefined ? bars : bars.filter((b) => b.time >= startTime)).slice(0, limit);
      return kept.map((b) => [b.time, b.open, b.high, b.low, b.close, price === 'last' ? b.volume : '0', b.time + ms - 1, '0', 0, '0', '0', '0']);
    }
    const klineQuery = publicParams({ symbol: FSymbol, interval: FInterval, startTime: FInt, endTime: FInt, limit: FInt });
    app.get('/fapi/v1/klines', { config: cfg(5, 'NONE'), schema: { querystring: klineQuery, response: answers(KlinesResponse) } }, async (req) =>
      klineRows(P(req), 'last'),
    );
    app.get('/fapi/v1/markPriceKlines', { config: cfg(5, 'NONE'), schema: { querystring: klineQuery, response: answers(KlinesResponse) } }, async (req) =>
      klineRows(P(req), 'mark'),
    );
    // Binance "Index Price Kline/Candlestick Data" (by `pair`) and "Premium Index Kline Data" (by `symbol`): the index
    // price and the premium index samples each mark price tick recorded (perp-market.service.ts); [] before the first.
    const indexKlineQuery = publicParams({ pair: FSymbol, interval: FInterval, startTime: FInt, endTime: FInt, limit: FInt });
    app.get(
      '/fapi/v1/indexPriceKlines',
      { config: cfg(5, 'NONE'), schema: { querystring: indexKlineQuery, response: answers(KlinesResponse) } },
      async (req) => {
        const p = P(req);
        return klineRows({ ...p, symbol: required(p, 'pair') }, 'index');
      },
    );
    app.get('/fapi/v1/premiumIndexKlines', { config: cfg(5, 'NONE'), schema: { querystring: klineQuery, response: answers(KlinesResponse) } }, async (req) =>
      klineRows(P(req), 'premium'),
    );
    // Binance "Continuous Contract Kline/Candlestick Data": the klines of a pair's contract of `contractType`. Our only
    // contracts are perpetuals: PERPETUAL is the perpetual's trade bars; the delivery types have no contract here (no
    // rows); another value is -1130.
    const continuousQuery = publicParams({ pair: FSymbol, contractType: FEnum, interval: FInterval, startTime: FInt, endTime: FInt, limit: FInt });
    app.get(
      '/fapi/v1/continuousKlines',
      { config: cfg(5, 'NONE'), schema: { querystring: continuousQuery, response: answers(KlinesResponse) } },
      async (req) => {
        const p = P(req);
        const pair = required(p, 'pair');
        const contractType = required(p, 'contractType');
        if (!CONTRACT_TYPES.has(contractType)) throw BX.badParam("Data sent for parameter 'contractType' is not valid.");
        const rows = await klineRows({ ...p, symbol: pair }, 'last');
        return contractType === 'PERPETUAL' ? rows : [];
      },
    );

    /** GET /fapi/v1/premiumIndex of one market. */
    function premiumIndex(m: PerpMarketConfig) {
      const st = engine().perpMarkState(m.symbol);
      const pd = m.priceDecimals;
      const fig = perpMarket.figures(m.symbol);
      const mark = st?.markPrice ?? fig?.index ?? 0n;
      const index = st?.indexPrice ?? fig?.index ?? 0n;
      const now = clock.now();
      return {
        symbol: toBinanceSymbol(m.symbol),
        markPrice: fromUnits(mark, pd),
        indexPrice: fromUnits(index, pd),
        estimatedSettlePrice: fromUnits(index, pd),
        lastFundingRate: e8Rate(st?.predictedFundingRateE8 ?? 0),
        interestRate: e8Rate(m.interestRateE8),
        nextFundingTime: st?.nextFundingTs ?? Math.floor(now / m.fundingIntervalMs + 1) * m.fundingIntervalMs,
        time: st && st.markTs > 0 ? st.markTs : now,
        // not Binance's: present only while the contract is paused on a stale index (orders then answer -4400)
        ...(st?.indexStale ? { indexStale: true, pauseReason: 'index_stale', pausedSince: st.indexStaleSince ?? 0 } : {}),
      };
    }
    app.get(
      '/fapi/v1/premiumIndex',
      { config: cfg(1, 'NONE'), schema: { querystring: publicParams({ symbol: FSymbol }), response: answers(PremiumIndexResponse) } },
      async (req) => {
        const m = maybeMarket(P(req));
        return m ? premiumIndex(m) : engine().perpMarkets().map(premiumIndex);
      },
    );

    // Binance "Query Index Price Constituents": the sources that entered the last index tick's average (a dropped
    // source is not listed), each source's pair as we read it (the unified BASE/QUOTE; the replay's sources are ours).
    app.get(
      '/fapi/v1/constituents',
      { config: cfg(2, 'NONE'), schema: { querystring: publicParams({ symbol: FSymbol }), response: answers(ConstituentsResponse) } },
      async (req) => {
        const m = marketOf(P(req));
        const c = await indexComponents.components(m.symbol);
        const pair = c.mode === 'live' ? `${m.base}/${m.quote}` : toBinanceSymbol(m.symbol);
        return {
          symbol: toBinanceSymbol(m.symbol),
          time: c.time,
          constituents: c.components
            .filter((x) => x.status === 'used' || x.status === 'clamped')
            .map((x) => ({ exchange: x.source, symbol: pair, price: x.price, weight: x.weight })),
        };
      },
    );

    app.get(
      '/fapi/v1/fundingRate',
      {
        config: cfg(1, 'NONE'),
        schema: { querystring: publicParams({ symbol: FSymbol, startTime: FInt, endTime: FInt, limit: FInt }), response: answers(FundingRateResponse) },
      },
      async (req) => {
        const p = P(req);
        const limit = intParam(p, 'limit', 1, 1000, 100);
        const startTime = timeParam(p, 'startTime');
        const endTime = timeParam(p, 'endTime');
        const markets = maybeMarket(p) ? [marketOf(p)] : engine().perpMarkets();
        const out: Array<{ symbol: string; fundingRate: string; fundingTime: number; markPrice: string }> = [];
        for (const m of markets) {
          const rows = await perpMarket.fundingHistory(m.symbol, limit, endTime === undefined ? undefined : endTime + 1, startTime);
          const asc = startTime === undefined ? rows.slice().reverse() : rows;
          // Our history keeps rates as percent strings with 6 decimals: Binance prints the fraction with 8.
          for (const r of asc)
            out.push({ symbol: toBinanceSymbol(m.symbol), fundingRate: percentToFraction(r.fundingRate), fundingTime: r.fundingTime, markPrice: r.markPrice });
        }
        out.sort((a, b) => a.fundingTime - b.fundingTime);
        return startTime === undefined ? out.slice(-limit) : out.slice(0, limit);
      },
    );

    // Binance "Get Funding Rate Info": each market's funding rate cap and floor (the clamp of the rate, a fraction
    // with 8 decimals, from the market's fundingCapE8) and its interval in hours.
    app.get('/fapi/v1/fundingInfo', { config: cfg(1, 'NONE'), schema: { querystring: publicParams({}), response: answers(FundingInfoResponse) } }, async () =>
      engine()
        .perpMarkets()
        .map((m) => ({
          symbol: toBinanceSymbol(m.symbol),
          adjustedFundingRateCap: formatDecimal(BigInt(m.fundingCapE8), 8),
          adjustedFundingRateFloor: formatDecimal(-BigInt(m.fundingCapE8), 8),
          fundingIntervalHours: Math.max(1, Math.round(m.fundingIntervalMs / 3_600_000)),
          disclaimer: false,
        })),
    );

    // Binance "Open Interest": the market's open contracts (the total size of its long positions), base quantity.
    app.get(
      '/fapi/v1/openInterest',
      { config: cfg(1, 'NONE'), schema: { querystring: publicParams({ symbol: FSymbol }), response: answers(OpenInterestResponse) } },
      async (req) => {
        const p = P(req);
        required(p, 'symbol');
        const m = marketOf(p);
        return { openInterest: formatDecimal(engine().openInterest(m.symbol), m.qtyDecimals), symbol: toBinanceSymbol(m.symbol), time: clock.now() };
      },
    );

    // Binance "Open Interest Statistics" (GET /futures/data/openInterestHist) from the 5-minute samples (futures.data.ts).
    registerFuturesDataRoutes(app, { db, clock, marketOf });

    const tickerOf = (m: PerpMarketConfig) => {
      const f = perpMarket.figures(m.symbol);
      if (!f) throw BX.invalidSymbol();
      return ticker24h(m, f, perpMarket.trades(m.symbol, 1)[0], clock.now());
    };
    app.get(
      '/fapi/v1/ticker/24hr',
      { config: cfg(1, 'NONE'), schema: { querystring: publicParams({ symbol: FSymbol }), response: answers(FuturesTicker24hResponse) } },
      async (req) => {
        const m = maybeMarket(P(req));
        return m ? tickerOf(m) : engine().perpMarkets().map(tickerOf);
      },
    );

    const priceOf = (m: PerpMarketConfig) => {
      const f = perpMarket.figures(m.symbol);
      return { symbol: toBinanceSymbol(m.symbol), price: fromUnits(f?.last ?? 0n, m.priceDecimals), time: clock.now() };
    };
    for (const v of ['v1', 'v2']) {
      app.get(
        `/fapi/${v}/ticker/price`,
        { config: cfg(1, 'NONE'), schema: { querystring: publicParams({ symbol: FSymbol }), response: answers(FuturesTickerPriceResponse) } },
        async (req) => {
          const m = maybeMarket(P(req));
          return m ? priceOf(m) : engine().perpMarkets().map(priceOf);
        },
      );
    }

    const bookOf = (m: PerpMarketConfig) => {
      const d = engine().perpDepth(m.symbol, 1);
      const seq = perpMarket.depthSeq(m.symbol);
      const pd = m.priceDecimals;
      const qd = m.qtyDecimals;
      const bid = d.bids[0];
      const ask = d.asks[0];
      return {
        symbol: toBinanceSymbol(m.symbol),
        bidPrice: fromUnits(bid?.price ?? 0n, pd),
        bidQty: fromUnits(bid?.quantity ?? 0n, qd),
        askPrice: fromUnits(ask?.price ?? 0n, pd),
        askQty: fromUnits(ask?.quantity ?? 0n, qd),
        time: clock.now(),
        lastUpdateId: seq,
      };
    };
    app.get(
      '/fapi/v1/ticker/bookTicker',
      { config: cfg(2, 'NONE'), schema: { querystring: publicParams({ symbol: FSymbol }), response: answers(FuturesBookTickerResponse) } },
      async (req) => {
        const m = maybeMarket(P(req));
        return m ? bookOf(m) : engine().perpMarkets().map(bookOf);
      },
    );

    // ------------------------------------------------------------------ orders (TRADE / USER_DATA)

    const orderParams = signedParams({
      symbol: FSymbol,
      side: FEnum,
      positionSide: FEnum,
      type: FEnum,
      timeInForce: FEnum,
      quantity: FDecimal,
      reduceOnly: FBool,
      price: FDecimal,
      newClientOrderId: FClientId,
      stopPrice: FDecimal,
      closePosition: FBool,
      activationPrice: FDecimal,
      callbackRate: FDecimal,
      workingType: FEnum,
      priceProtect: FBool,
      newOrderRespType: FEnum,
      priceMatch: FEnum,
      selfTradePreventionMode: FEnum,
      goodTillDate: FInt,
    });

    app.post(
      '/fapi/v1/order',
      { config: { binance: { ...trade(0).binance, order: true } }, schema: { querystring: orderParams, body: orderParams, response: answers(FuturesOrder) } },
      async (req) => newOrder(callerOf(req).userId, P(req)),
    );

    /**
     * One new order of `userId` from Binance's parameters `p` (POST /fapi/v1/order, and each element of POST
     * /fapi/v1/batchOrders): every check and error of "New Order (TRADE)", then the perpetuals service. Its answer, or a
     * BinanceError.
     */
    async function newOrder(userId: string, p: Record<string, string>) {
      const m = marketOf(p);
      const side = required(p, 'side');
      if (side !== 'BUY' && side !== 'SELL') throw BX.invalidSide();
      const positionSide = optional(p, 'positionSide');
      if (positionSide !== undefined && positionSide !== 'BOTH') throw FX.positionSideMismatch();
      const type = required(p, 'type');
      const clientOrderId = optional(p, 'newClientOrderId');
      const reduceOnly = boolParam(p, 'reduceOnly');
      if ((type === 'STOP_MARKET' || type === 'TAKE_PROFIT_MARKET') && boolParam(p, 'closePosition')) {
        // The close-position form is the position's take profit / stop loss in our engine.
        if (optional(p, 'quantity') !== undefined) throw FX.notRequired('quantity');
        if (optional(p, 'reduceOnly') !== undefined) throw FX.notRequired('reduceOnly');
        const stopPrice = required(p, 'stopPrice');
        const pos = engine().position(userId, m.symbol);
        if (!pos || (pos.side === 'LONG') !== (side === 'SELL')) throw FX.reduceOnlyRejected();
        const field = type === 'TAKE_PROFIT_MARKET' ? 'takeProfit' : 'stopLoss';
        const after = await futuresCall(() => perp.setTpSl(userId, { symbol: m.symbol, [field]: stopPrice }));
        return tpSlOrder(
          toBinanceSymbol(m.symbol),
          side,
          type,
          type === 'TAKE_PROFIT_MARKET' ? after.takeProfit : after.stopLoss,
          clientOrderId ?? '',
          clock.now(),
        );
      }
      if (CONDITION_TYPES.has(type)) {
        const input = conditionalInput(p, m.symbol, side, type as PerpConditionType, reduceOnly, clientOrderId);
        const placed = await futuresCall(async () => {
          try {
            return await perp.placeConditional(userId, input);
          } catch (err) {
            throw bandError(err, m, side, input.price);
          }
        });
        return orderOut(placed, false);
      }
      if (type !== 'LIMIT' && type !== 'MARKET') throw BX.invalidOrderType();
      for (const name of CONDITION_ONLY) if (optional(p, name) !== undefined) throw FX.notRequired(name);
      const quantity = required(p, 'quantity');
      if (/^0*\.?0*$/.test(quantity)) throw FX.quantityNotPositive();
      let timeInForce: 'GTC' | 'IOC' | 'FOK' | 'POST_ONLY' | undefined;
      let price: string | undefined;
      if (type === 'LIMIT') {
        const tif = required(p, 'timeInForce');
        if (tif !== 'GTC' && tif !== 'IOC' && tif !== 'FOK' && tif !== 'GTX') throw BX.invalidTimeInForce();
        timeInForce = tif === 'GTX' ? 'POST_ONLY' : tif;
        price = required(p, 'price');
      } else if (optional(p, 'price') !== undefined) {
        throw FX.notRequired('price');
      }
      const placed = await futuresCall(async () => {
        try {
          return await perp.placeOrder(
            userId,
            {
              symbol: m.symbol,
              side,
              orderType: type,
              quantity,
              ...(price !== undefined ? { price } : {}),
              ...(reduceOnly ? { reduceOnly: true } : {}),
              ...(clientOrderId ? { clientOrderId } : {}),
            },
            timeInForce ? { timeInForce } : undefined,
          );
        } catch (err) {
          throw bandError(err, m, side, price);
        }
      });
      return orderOut((await orderById(userId, placed.orderId)) ?? missingOrder(), false);
    }

    /** price_out_of_band as Binance words it (-4016 / -4024 with the limit at the current mark), else the error. */
    function bandError(err: unknown, m: PerpMarketConfig, side: string, price: string | undefined): unknown {
      const code = (err as { code?: unknown }).code;
      const mark = engine().perpMarkState(m.symbol)?.markPrice ?? null;
      if (code !== 'price_out_of_band' || mark === null || price === undefined) return err;
      const band = BigInt(m.priceBandPpm);
      if (side === 'BUY') return FX.priceTooHigh(fromUnits(((mark * (1_000_000n + band)) / 1_000_000n / m.tickSize) * m.tickSize, m.priceDecimals));
      return FX.priceTooLow(fromUnits(ceilDiv(mark * (1_000_000n - band), 1_000_000n * m.tickSize) * m.tickSize, m.priceDecimals));
    }

    /** One of the caller's orders by id: the engine's (open or retained) else the projected row; undefined for anyone else's. */
    async function orderById(userId: string, orderId: string): Promise<PerpOrderView | undefined> {
      const id = canonicalOrderId(orderId);
      if (id === null) return undefined;
      let o = engine().perpOrder(id);
      if (!o) {
        await caughtUp();
        const row = await contractRepo.order(id);
        o = row ? rowToPerpOrderView(row) : undefined;
      }
      return o && o.userId === userId ? o : undefined;
    }

    /** The caller's order named by orderId or origClientOrderId in market `m`, or undefined. */
    async function findOrder(userId: string, m: PerpMarketConfig, p: Record<string, string>): Promise<PerpOrderView | undefined> {
      const id = idParam(p, 'orderId');
      const cid = optional(p, 'origClientOrderId');
      if (id === undefined && cid === undefined) throw FX.idOrClientIdMissing();
      let o: PerpOrderView | undefined;
      if (id !== undefined) o = await orderById(userId, id);
      else {
        o = engine()
          .perpOpenOrders(userId, m.symbol)
          .find((x) => x.clientOrderId === cid);
        if (!o) {
          await caughtUp();
          const row = await repo.orderByClientId(userId, cid!);
          o = row ? (engine().perpOrder(row.id.toString()) ?? rowToPerpOrderView(row)) : undefined;
        }
      }
      if (!o || o.symbol !== m.symbol || (cid !== undefined && o.clientOrderId !== cid)) return undefined;
      return o;
    }

    const oneOrderParams = signedParams({ symbol: FSymbol, orderId: FInt, origClientOrderId: FClientId });
    app.get('/fapi/v1/order', { config: userData(1), schema: { querystring: oneOrderParams, response: answers(FuturesOrder) } }, async (req) => {
      const p = P(req);
      const m = marketOf(p);
      const o = await findOrder(callerOf(req).userId, m, p);
      if (!o) throw FX.noSuchOrder();
      return orderOut(o);
    });

    app.delete(
      '/fapi/v1/order',
      { config: trade(1), schema: { querystring: oneOrderParams, body: oneOrderParams, response: answers(FuturesOrder) } },
      async (req) => {
        const p = P(req);
        const userId = callerOf(req).userId;
        const m = marketOf(p);
        const o = await findOrder(userId, m, p);
        if (!o) throw FX.unknownOrder();
        const after = await futuresCall(() => perp.cancelOrder(userId, { orderId: o.orderId }));
        return orderOut((await orderById(userId, after.orderId)) ?? o, false);
      },
    );

    // Binance "Modify Order (TRADE)": a resting LIMIT order's price and total quantity, in place under its orderId
    // (the engine's perpAmendOrder through ContractService.amendOrder). Weight 0, one order against the order limits.
    const modifyParams = signedParams({
      symbol: FSymbol,
      side: FEnum,
      orderId: FInt,
      origClientOrderId: FClientId,
      quantity: FDecimal,
      price: FDecimal,
      priceMatch: FEnum,
    });
    app.put(
      '/fapi/v1/order',
      { config: { binance: { ...trade(0).binance, order: true } }, schema: { querystring: modifyParams, body: modifyParams, response: answers(FuturesOrder) } },
      async (req) => modifyOrder(callerOf(req).userId, P(req)),
    );

    /**
     * One modify of `userId` from Binance's parameters `p` (PUT /fapi/v1/order): -1102 without side, quantity, price or
     * an order id; -1117 a bad side; -1106 priceMatch (not supported here); -2013 an order that is not the caller's or
     * not of `symbol`; -2011 one that ended (filled, cancelled, expired); -1130 a side other than the order's; -4003 quantity 0; -5027 the same price and
     * quantity ("No need to modify the order."); -2011 a conditional order still pending; then the engine's checks
     * (-4014, -4023, -4004, -4016/-4024, -2019, -2027) with the order left as it was.
     */
    async function modifyOrder(userId: string, p: Record<string, string>) {
      const m = marketOf(p);
      const side = required(p, 'side');
      if (side !== 'BUY' && side !== 'SELL') throw BX.invalidSide();
      if (optional(p, 'priceMatch') !== undefined) throw FX.notRequired('priceMatch');
      const quantity = required(p, 'quantity');
      const price = required(p, 'price');
      if (/^0*\.?0*$/.test(quantity)) throw FX.quantityNotPositive();
      // orderId prevails when both are sent (Binance).
      const q = idParam(p, 'orderId') !== undefined ? { orderId: p.orderId! } : p;
      const o = await findOrder(userId, m, q);
      if (!o) throw FX.noSuchOrder();
      if (o.status !== 'NEW' && o.status !== 'PARTIALLY_FILLED') throw FX.unknownOrder();
      if (o.side !== side) throw FX.invalidData('side');
      if (o.condition !== undefined && o.condition.workingTs === null) throw FX.unknownOrder();
      if (sameUnits(price, o.price ?? -1n, m.priceDecimals) && sameUnits(quantity, o.quantity, m.qtyDecimals)) throw FX.noNeedToModify();
      const after = await futuresCall(async () => {
        try {
          return await perp.amendOrder(userId, { orderId: o.orderId, price, quantity });
        } catch (err) {
          if ((err as { code?: unknown }).code === 'invalid_order') throw FX.unknownOrder();
          throw bandError(err, m, side, price);
        }
      });
      return orderOut(after, false);
    }

    registerFuturesBatchRoutes(app, {
      orderParams,
      newOrder,
      modifyParams,
      modifyOrder,
      findOrder,
      marketOf,
      orderById,
      orderOut,
      cancelOrder: (userId, orderId) => perp.cancelOrder(userId, { orderId }),
    });

    app.get(
      '/fapi/v1/openOrders',
      { config: userData(1), schema: { querystring: signedParams({ symbol: FSymbol }), response: answers(Type.Array(FuturesOrder)) } },
      async (req) => {
        const p = P(req);
        const m = maybeMarket(p);
        return engine()
          .perpOpenOrders(callerOf(req).userId, m?.symbol)
          .map((o) => orderOut(o));
      },
    );

    app.get('/fapi/v1/openOrder', { config: userData(1), schema: { querystring: oneOrderParams, response: answers(FuturesOrder) } }, async (req) => {
      const p = P(req);
      const m = marketOf(p);
      const o = await findOrder(callerOf(req).userId, m, p);
      if (!o || (o.status !== 'NEW' && o.status !== 'PARTIALLY_FILLED')) throw new BinanceError(-2013, 'Order does not exist.');
      return orderOut(o);
    });

    app.get(
      '/fapi/v1/allOrders',
      {
        config: userData(5),
        schema: {
          querystring: signedParams({ symbol: FSymbol, orderId: FInt, startTime: FInt, endTime: FInt, limit: FInt }),
          response: answers(Type.Array(FuturesOrder)),
        },
      },
      async (req) => {
        const p = P(req);
        const userId = callerOf(req).userId;
        const m = marketOf(p);
        const limit = intParam(p, 'limit', 1, 1000, 500);
        const startTime = timeParam(p, 'startTime');
        const endTime = timeParam(p, 'endTime');
        checkWindow(startTime, endTime, HISTORY_DAYS);
        const fromId = idParam(p, 'orderId');
        await caughtUp();
        const rows = await repo.orders(userId, m.symbol, {
          limit,
          ...(fromId !== undefined ? { fromId } : {}),
          ...(startTime !== undefined ? { startTime } : {}),
          ...(endTime !== undefined ? { endTime } : {}),
        });
        // An order still open is shown in its current state (the engine's), ended ones as projected.
        return rows.map((r) => orderOut((r.closed ? undefined : engine().perpOrder(r.id.toString())) ?? rowToPerpOrderView(r)));
      },
    );

    const symbolOnly = signedParams({ symbol: FSymbol });
    app.delete(
      '/fapi/v1/allOpenOrders',
      { config: trade(1), schema: { querystring: symbolOnly, body: symbolOnly, response: answers(CodeMsgResponse) } },
      async (req) => {
        const p = P(req);
        const userId = callerOf(req).userId;
        const m = marketOf(p);
        for (const o of engine().perpOpenOrders(userId, m.symbol)) {
          await futuresCall(() => perp.cancelOrder(userId, { orderId: o.orderId })).catch((err: unknown) => {
            // An order that ended meanwhile (filled, expired) is not an error of the whole request.
            if (!(err instanceof BinanceError && err.code === -2011)) throw err;
          });
        }
        // Binance's cancel-all also cancels the close-position conditional orders: here the position's TP/SL.
        const pos = engine().position(userId, m.symbol);
        if (pos && (pos.takeProfit !== null || pos.stopLoss !== null))
          await futuresCall(() => perp.setTpSl(userId, { symbol: m.symbol, takeProfit: '', stopLoss: '' }));
        return { code: 200, msg: 'The operation of cancel all open order is done.' };
      },
    );

    // ------------------------------------------------------------------ algo (conditional) orders

    // Binance "New Algo Order (TRADE)", POST /fapi/v1/algoOrder (algoType CONDITIONAL), where CCXT 4.5 sends a linear
    // swap's trigger, stop-loss, take-profit and trailing orders: the same engine conditional orders as POST
    // /fapi/v1/order's types, answered in the algo shape; the algoId is the orderId (GET /fapi/v1/order finds it too).
    const algoParams = signedParams({
      algoType: FEnum,
      symbol: FSymbol,
      side: FEnum,
      positionSide: FEnum,
      type: FEnum,
      timeInForce: FEnum,
      quantity: FDecimal,
      price: FDecimal,
      triggerPrice: FDecimal,
      workingType: FEnum,
      priceMatch: FEnum,
      closePosition: FBool,
      priceProtect: FBool,
      reduceOnly: FBool,
      activatePrice: FDecimal,
      activationPrice: FDecimal,
      callbackRate: FDecimal,
      clientAlgoId: FClientId,
      selfTradePreventionMode: FEnum,
      goodTillDate: FInt,
      newOrderRespType: FEnum,
    });
    app.post(
      '/fapi/v1/algoOrder',
      { config: { binance: { ...trade(0).binance, order: true } }, schema: { querystring: algoParams, body: algoParams, response: answers(FuturesAlgoOrder) } },
      async (req) => {
        const p = P(req);
        const userId = callerOf(req).userId;
        const algoType = required(p, 'algoType');
        if (algoType !== 'CONDITIONAL') throw FX.invalidData('algoType');
        const m = marketOf(p);
        const side = required(p, 'side');
        if (side !== 'BUY' && side !== 'SELL') throw BX.invalidSide();
        const positionSide = optional(p, 'positionSide');
        if (positionSide !== undefined && positionSide !== 'BOTH') throw FX.positionSideMismatch();
        const type = required(p, 'type');
        if (!CONDITION_TYPES.has(type)) throw BX.invalidOrderType();
        for (const name of ['stopPrice', 'newClientOrderId']) if (optional(p, name) !== undefined) throw FX.notRequired(name);
        // The algo route names the trigger price triggerPrice and the activation price activatePrice (Binance's
        // parameter; CCXT 4.5 sends activationPrice, the /fapi/v1/order name: both are read).
        const q: Record<string, string> = { ...p };
        delete q.triggerPrice;
        delete q.activatePrice;
        const trigger = optional(p, 'triggerPrice');
        const activate = optional(p, 'activatePrice');
        if (trigger !== undefined) q.stopPrice = trigger;
        if (activate !== undefined) q.activationPrice = activate;
        const input = conditionalInput(q, m.symbol, side, type as PerpConditionType, boolParam(p, 'reduceOnly'), optional(p, 'clientAlgoId'));
        const placed = await futuresCall(async () => {
          try {
            return await perp.placeConditional(userId, input);
          } catch (err) {
            throw bandError(err, m, side, input.price);
          }
        });
        return algoOut(placed);
      },
    );

    /** The caller's conditional order named by algoId or clientAlgoId, or undefined (anyone else's, or a plain order). */
    async function findAlgo(userId: string, p: Record<string, string>): Promise<PerpOrderView | undefined> {
      const id = idParam(p, 'algoId');
      const cid = optional(p, 'clientAlgoId');
      if (id === undefined && cid === undefined) throw new BinanceError(-1102, "Param 'clientAlgoId' or 'algoId' must be sent, but both were empty/null!");
      let o: PerpOrderView | undefined;
      if (id !== undefined) o = await orderById(userId, id);
      else {
        o = engine()
          .perpOpenOrders(userId)
          .find((x) => x.clientOrderId === cid);
        if (!o) {
          await caughtUp();
          const row = await repo.orderByClientId(userId, cid!);
          o = row ? (engine().perpOrder(row.id.toString()) ?? rowToPerpOrderView(row)) : undefined;
        }
      }
      const m = maybeMarket(p);
      if (!o?.condition || (cid !== undefined && o.clientOrderId !== cid) || (m !== undefined && o.symbol !== m.symbol)) return undefined;
      return o;
    }
    const algoOut = (o: PerpOrderView) => algoOrder(o, scalesOf(o.symbol));
    // CCXT sends the symbol with these (Binance's docs list none): read, and the order must be of that market.
    const oneAlgoParams = signedParams({ symbol: FSymbol, algoId: FInt, clientAlgoId: FClientId });

    app.get('/fapi/v1/algoOrder', { config: userData(1), schema: { querystring: oneAlgoParams, response: answers(FuturesAlgoOrder) } }, async (req) => {
      const o = await findAlgo(callerOf(req).userId, P(req));
      if (!o) throw FX.noSuchOrder();
      return algoOut(o);
    });

    app.delete(
      '/fapi/v1/algoOrder',
      { config: trade(1), schema: { querystring: oneAlgoParams, body: oneAlgoParams, response: answers(AlgoCancelResponse) } },
      async (req) => {
        const userId = callerOf(req).userId;
        const o = await findAlgo(userId, P(req));
        // Only a pending algo order can be cancelled here; once triggered it is the order it became.
        if (!o || o.condition!.workingTs !== null || o.status !== 'NEW') throw FX.unknownOrder();
        await futuresCall(() => perp.cancelOrder(userId, { orderId: o.orderId }));
        return { algoId: Number(o.orderId), clientAlgoId: o.clientOrderId ?? '', code: '200', msg: 'success' };
      },
    );

    /** The caller's pending conditional orders, of one market or all. */
    const pendingAlgos = (userId: string, symbol?: string) =>
      engine()
        .perpOpenOrders(userId, symbol)
        .filter((o) => o.condition !== undefined && o.condition.workingTs === null);

    app.get(
      '/fapi/v1/openAlgoOrders',
      {
        config: userData(1),
        schema: { querystring: signedParams({ symbol: FSymbol, algoType: FEnum, algoId: FInt }), response: answers(Type.Array(FuturesAlgoOrder)) },
      },
      async (req) => {
        const p = P(req);
        const m = maybeMarket(p);
        const algoType = optional(p, 'algoType');
        if (algoType !== undefined && algoType !== 'CONDITIONAL') throw FX.invalidData('algoType');
        const id = idParam(p, 'algoId');
        return pendingAlgos(callerOf(req).userId, m?.symbol)
          .filter((o) => id === undefined || o.orderId === id)
          .map(algoOut);
      },
    );

    // Binance "Query All Algo Orders": the caller's conditional orders of a market, pending and ended, oldest first.
    app.get(
      '/fapi/v1/allAlgoOrders',
      {
        config: userData(5),
        schema: {
          querystring: signedParams({ symbol: FSymbol, algoId: FInt, startTime: FInt, endTime: FInt, page: FInt, limit: FInt }),
          response: answers(Type.Array(FuturesAlgoOrder)),
        },
      },
      async (req) => {
        const p = P(req);
        const userId = callerOf(req).userId;
        const m = marketOf(p);
        const limit = intParam(p, 'limit', 1, 1000, 500);
        // Binance's page: 1-based pages of `limit` orders.
        const page = intParam(p, 'page', 1, 1000, 1);
        const startTime = timeParam(p, 'startTime');
        const endTime = timeParam(p, 'endTime');
        checkWindow(startTime, endTime, HISTORY_DAYS);
        const fromId = idParam(p, 'algoId');
        await caughtUp();
        const rows = await repo.orders(userId, m.symbol, {
          limit: 1000,
          ...(fromId !== undefined ? { fromId } : {}),
          ...(startTime !== undefined ? { startTime } : {}),
          ...(endTime !== undefined ? { endTime } : {}),
        });
        return rows
          .map((r) => engine().perpOrder(r.id.toString()) ?? rowToPerpOrderView(r))
          .filter((o) => o.condition !== undefined)
          .slice((page - 1) * limit, page * limit)
          .map(algoOut);
      },
    );

    app.delete(
      '/fapi/v1/algoOpenOrders',
      { config: trade(1), schema: { querystring: symbolOnly, body: symbolOnly, response: answers(CodeMsgResponse) } },
      async (req) => {
        const p = P(req);
        const userId = callerOf(req).userId;
        const m = marketOf(p);
        for (const o of pendingAlgos(userId, m.symbol)) {
          await futuresCall(() => perp.cancelOrder(userId, { orderId: o.orderId })).catch((err: unknown) => {
            if (!(err instanceof BinanceError && err.code === -2011)) throw err;
          });
        }
        return { code: 200, msg: 'The operation of cancel all open order is done.' };
      },
    );

    app.get(
      '/fapi/v1/userTrades',
      {
        config: userData(5),
        schema: {
          querystring: signedParams({ symbol: FSymbol, orderId: FInt, startTime: FInt, endTime: FInt, fromId: FInt, limit: FInt }),
          response: answers(FuturesUserTradesResponse),
        },
      },
      async (req) => {
        const p = P(req);
        const userId = callerOf(req).userId;
        const m = marketOf(p);
        const s = scalesOf(m.symbol);
        const limit = intParam(p, 'limit', 1, 1000, 500);
        const startTime = timeParam(p, 'startTime');
        const endTime = timeParam(p, 'endTime');
        checkWindow(startTime, endTime, HISTORY_DAYS);
        const fromId = idParam(p, 'fromId');
        const orderId = idParam(p, 'orderId');
        await caughtUp();
        if (orderId !== undefined) {
          const o = await orderById(userId, orderId);
          if (!o || o.symbol !== m.symbol) return [];
          const fills = await contractRepo.fills(orderId);
          return fills
            .filter((t) => t.kind === 'BOOK' || t.takerUserId === userId || t.makerUserId === userId)
            .slice(0, limit)
            .map((t) => userTrade(t, userId, s));
        }
        const rows = await repo.trades(userId, m.symbol, {
          limit,
          ...(fromId !== undefined ? { fromId } : {}),
          ...(startTime !== undefined ? { startTime } : {}),
          ...(endTime !== undefined ? { endTime } : {}),
        });
        return rows.map((t) => userTrade(t, userId, s));
      },
    );

    // Binance "Get Income History (USER_DATA)": realized PnL, commissions and funding fees (CCXT's fetchFundingHistory
    // and fetchLedger). Without startTime and endTime, the last 7 days; oldest first; limit 100, at most 1000.
    app.get(
      '/fapi/v1/income',
      {
        config: userData(30),
        schema: {
          querystring: signedParams({ symbol: FSymbol, incomeType: FEnum, startTime: FInt, endTime: FInt, page: FInt, limit: FInt }),
          response: answers(IncomeResponse),
        },
      },
      async (req) => {
        const p = P(req);
        const userId = callerOf(req).userId;
        const m = maybeMarket(p);
        const incomeType = optional(p, 'incomeType');
        if (incomeType !== undefined && !(INCOME_TYPES as readonly string[]).includes(incomeType))
          throw new BinanceError(-1130, "Data sent for parameter 'incomeType' is not valid.", 400);
        const limit = intParam(p, 'limit', 1, 1000, 100);
        // Pages after the 10th are refused (-1100): deeper history is read with startTime, as CCXT pages it.
        const page = intParam(p, 'page', 1, 10, 1);
        let startTime = timeParam(p, 'startTime');
        let endTime = timeParam(p, 'endTime');
        if (startTime !== undefined && endTime !== undefined && endTime < startTime)
          throw new BinanceError(-1128, 'Combination of optional parameters invalid.', 400);
        endTime ??= clock.now();
        startTime ??= endTime - HISTORY_DAYS * 86_400_000;
        const types = new Set(incomeType !== undefined ? [incomeType] : ['REALIZED_PNL', 'COMMISSION', 'FUNDING_FEE']);
        const want = { pnl: types.has('REALIZED_PNL'), fee: types.has('COMMISSION') };
        const upTo = page * limit;
        await caughtUp();
        const [trades, funding] = await Promise.all([
          want.pnl || want.fee ? repo.tradesBetween(userId, m?.symbol, startTime, endTime, upTo, want) : [],
          types.has('FUNDING_FEE') ? repo.fundingBetween(userId, m?.symbol, startTime, endTime, upTo) : [],
        ]);
        return incomeRows(trades, funding, userId, types, engine().perpMarkets()[0]?.quote ?? 'USDT', settleScale(), upTo).slice((page - 1) * limit);
      },
    );

    // ------------------------------------------------------------------ leverage, margin type, position mode

    const leverageParams = signedParams({ symbol: FSymbol, leverage: FInt });
    app.post(
      '/fapi/v1/leverage',
      { config: trade(1), schema: { querystring: leverageParams, body: leverageParams, response: answers(LeverageResponse) } },
      async (req) => {
        const p = P(req);
        const userId = callerOf(req).userId;
        const m = marketOf(p);
        const raw = required(p, 'leverage');
        const leverage = Number(raw);
        const max = m.brackets[0]?.maxLeverage ?? 1;
        if (!Number.isSafeInteger(leverage) || leverage < 1 || leverage > max) throw FX.leverageInvalid(raw);
        const st = await futuresCall(async () => {
          try {
            return await perp.setLeverage(userId, { symbol: m.symbol, leverage });
          } catch (err) {
            // Raising the position's margin for a lower leverage needs the balance: Binance's -2028.
            if ((err as { code?: unknown }).code === 'contract_insufficient_balance') throw FX.leverageMarginInsufficient();
            throw err;
          }
        });
        return { leverage: st.leverage, maxNotionalValue: trimZeros(st.maxNotional), symbol: toBinanceSymbol(m.symbol) };
      },
    );

    const marginTypeParams = signedParams({ symbol: FSymbol, marginType: FEnum });
    app.post(
      '/fapi/v1/marginType',
      { config: trade(1), schema: { querystring: marginTypeParams, body: marginTypeParams, response: answers(CodeMsgResponse) } },
      async (req) => {
        const p = P(req);
        const userId = callerOf(req).userId;
        const m = marketOf(p);
        const raw = required(p, 'marginType').toUpperCase();
        if (raw !== 'ISOLATED' && raw !== 'CROSSED') throw outOfRange('marginType', 'ISOLATED, CROSSED');
        const marginMode = raw === 'ISOLATED' ? 'ISOLATED' : 'CROSS';
        if (engine().perpSettings(userId, m.symbol).marginMode === marginMode) throw FX.noMarginTypeChange();
        if (engine().position(userId, m.symbol)) throw FX.marginTypePosition();
        if (engine().perpOpenOrders(userId, m.symbol).length > 0) throw FX.marginTypeOpenOrders();
        await futuresCall(() => perp.setMarginMode(userId, { symbol: m.symbol, marginMode }));
        return { code: 200, msg: 'success' };
      },
    );

    // Binance "Symbol Configuration": the caller's margin type and leverage in each market (or one), as set by
    // /fapi/v1/leverage and /fapi/v1/marginType (defaults when never set); margin is never added automatically.
    app.get(
      '/fapi/v1/symbolConfig',
      { config: userData(5), schema: { querystring: signedParams({ symbol: FSymbol }), response: answers(SymbolConfigResponse) } },
      async (req) => {
        const p = P(req);
        const userId = callerOf(req).userId;
        const one = maybeMarket(p);
        return (one ? [one] : engine().perpMarkets()).map((m) => {
          const st = perp.settings(userId, m.symbol);
          return {
            symbol: toBinanceSymbol(m.symbol),
            marginType: st.marginMode === 'ISOLATED' ? ('ISOLATED' as const) : ('CROSSED' as const),
            isAutoAddMargin: false,
            leverage: st.leverage,
            maxNotionalValue: trimZeros(st.maxNotional),
          };
        });
      },
    );

    // Binance "Futures Account Configuration": one-way positions, single-asset margin, the base fee tier.
    app.get(
      '/fapi/v1/accountConfig',
      { config: userData(5), schema: { querystring: signedParams({}), response: answers(AccountConfigResponse) } },
      async () => ({
        feeTier: 0,
        canTrade: true,
        canDeposit: true,
        canWithdraw: true,
        dualSidePosition: false,
        updateTime: 0,
        multiAssetsMargin: false,
        tradeGroupId: -1,
      }),
    );

    // Binance "Get Current Multi-Assets Mode": single-asset (USDT) margin only.
    app.get(
      '/fapi/v1/multiAssetsMargin',
      { config: userData(30), schema: { querystring: signedParams({}), response: answers(MultiAssetsMarginResponse) } },
      async () => ({ multiAssetsMargin: false as const }),
    );

    app.get(
      '/fapi/v1/positionSide/dual',
      { config: userData(30), schema: { querystring: signedParams({}), response: answers(DualSideResponse) } },
      async () => ({
        dualSidePosition: false,
      }),
    );
    const dualParams = signedParams({ dualSidePosition: FBool });
    app.post(
      '/fapi/v1/positionSide/dual',
      { config: trade(1), schema: { querystring: dualParams, body: dualParams, response: answers(CodeMsgResponse) } },
      async (req) => {
        const p = P(req);
        required(p, 'dualSidePosition');
        // One-way positions only: asking for one-way again is Binance's "no need to change"; hedge mode is refused.
        if (!boolParam(p, 'dualSidePosition')) throw FX.noPositionSideChange();
        throw FX.invalidData('dualSidePosition');
      },
    );

    app.get(
      '/fapi/v1/leverageBracket',
      { config: userData(1), schema: { querystring: signedParams({ symbol: FSymbol }), response: answers(LeverageBracketResponse) } },
      async (req) => {
        const p = P(req);
        const one = maybeMarket(p);
        const scale = settleScale();
        const entry = (m: PerpMarketConfig) => ({
          symbol: toBinanceSymbol(m.symbol),
          notionalCoef: 1,
          brackets: bracketTiers(m.brackets).map((t, i) => ({
            bracket: i + 1,
            initialLeverage: t.maxLeverage,
            notionalCap: Number(formatDecimal(t.notionalCap, scale)),
            notionalFloor: Number(formatDecimal(t.notionalFloor, scale)),
            maintMarginRatio: Number(formatDecimal(BigInt(t.maintMarginPpm), 6)),
            cum: Number(formatDecimal(t.cumE6, 6 + scale)),
          })),
        });
        callerOf(req);
        return one ? [entry(one)] : engine().perpMarkets().map(entry);
      },
    );

    // Binance "User Commission Rate (USER_DATA)", GET /fapi/v1/commissionRate: the market's maker/taker rates (the same
    // for every account), as decimal fractions ("0.000200" for 0.02 %).
    app.get(
      '/fapi/v1/commissionRate',
      { config: userData(20), schema: { querystring: signedParams({ symbol: FSymbol }), response: answers(FuturesCommissionResponse) } },
      async (req) => {
        const m = perpMarketOrThrow(host, required(P(req), 'symbol'));
        return {
          symbol: toBinanceSymbol(m.symbol),
          makerCommissionRate: formatDecimal(BigInt(m.makerFeePpm), 6),
          takerCommissionRate: formatDecimal(BigInt(m.takerFeePpm), 6),
        };
      },
    );

    // ------------------------------------------------------------------ positions and balances

    /** The caller's settings of a market (leverage, margin mode, max notional). */
    const settingsOf = (userId: string, m: PerpMarketConfig) => perp.settings(userId, m.symbol);
    const markOf = (m: PerpMarketConfig) => fromUnits(engine().perpMarkState(m.symbol)?.markPrice ?? 0n, m.priceDecimals);

    app.get(
      '/fapi/v2/positionRisk',
      { config: userData(5), schema: { querystring: signedParams({ symbol: FSymbol }), response: answers(PositionRiskV2Response) } },
      async (req) => {
        const p = P(req);
        const userId = callerOf(req).userId;
        const one = maybeMarket(p);
        const positions = perp.positions(userId);
        const scale = settleScale();
        return (one ? [one] : engine().perpMarkets()).map((m) =>
          positionRiskV2(
            m,
            settingsOf(userId, m),
            positions.find((x) => x.symbol === m.symbol),
            scale,
            markOf(m),
          ),
        );
      },
    );

    app.get(
      '/fapi/v3/positionRisk',
      { config: userData(5), schema: { querystring: signedParams({ symbol: FSymbol }), response: answers(PositionRiskV3Response) } },
      async (req) => {
        const p = P(req);
        const userId = callerOf(req).userId;
        const one = maybeMarket(p);
        const scale = settleScale();
        return perp.positions(userId, one?.symbol).map((x) => {
          const m = engine().perpMarket(x.symbol)!;
          return positionRiskV3(m, settingsOf(userId, m), x, scale);
        });
      },
    );

    for (const v of ['v2', 'v3']) {
      app.get(
        `/fapi/${v}/balance`,
        { config: userData(5), schema: { querystring: signedParams({}), response: answers(FuturesBalanceResponse) } },
        async (req) => {
          const userId = callerOf(req).userId;
          const b = balanceEntry(perp.account(userId), settleScale(), clock.now());
          return [
            {
              accountAlias: 'SgsR',
              asset: b.asset,
              balance: b.walletBalance,
              crossWalletBalance: b.crossWalletBalance,
              crossUnPnl: b.crossUnPnl,
              availableBalance: b.availableBalance,
              maxWithdrawAmount: b.maxWithdrawAmount,
              marginAvailable: true,
              updateTime: b.updateTime,
            },
          ];
        },
      );
    }

    /** GET /fapi/v2|v3/account: the totals, the USDT asset and the positions (v2: every market with its settings). */
    function account(userId: string, v2: boolean) {
      const scale = settleScale();
      const b = balanceEntry(perp.account(userId), scale, clock.now());
      const positions = perp.positions(userId);
      const markets = engine().perpMarkets();
      const shown = v2 ? markets : markets.filter((m) => positions.some((x) => x.symbol === m.symbol));
      const pos = shown.map((m) => {
        const x = positions.find((q) => q.symbol === m.symbol);
        const st = settingsOf(userId, m);
        const r = positionRiskV2(m, st, x, scale, markOf(m));
        const zero = fromUnits(0n, scale);
        const base = {
          symbol: r.symbol,
          positionSide: 'BOTH',
          positionAmt: r.positionAmt,
          unrealizedProfit: r.unRealizedProfit,
          isolatedMargin: r.isolatedMargin,
          notional: r.notional,
          isolatedWallet: r.isolatedWallet,
          initialMargin: x?.margin ?? zero,
          maintMargin: x?.maintMargin ?? zero,
          updateTime: r.updateTime,
        };
        return v2
          ? {
              ...base,
              positionInitialMargin: x?.margin ?? zero,
              openOrderInitialMargin: zero,
              leverage: r.leverage,
              isolated: r.marginType === 'isolated',
              entryPrice: r.entryPrice,
              breakEvenPrice: r.breakEvenPrice,
              maxNotional: r.maxNotionalValue,
              bidNotional: zero,
              askNotional: zero,
            }
          : base;
      });
      const totals = {
        totalInitialMargin: b.initialMargin,
        totalMaintMargin: b.maintMargin,
        totalWalletBalance: b.walletBalance,
        totalUnrealizedProfit: b.unrealizedProfit,
        totalMarginBalance: b.marginBalance,
        totalPositionInitialMargin: b.positionInitialMargin,
        totalOpenOrderInitialMargin: b.openOrderInitialMargin,
        totalCrossWalletBalance: b.crossWalletBalance,
        totalCrossUnPnl: b.crossUnPnl,
        availableBalance: b.availableBalance,
        maxWithdrawAmount: b.maxWithdrawAmount,
      };
      return v2
        ? {
            feeTier: 0,
            feeBurn: false,
            canTrade: true,
            canDeposit: true,
            canWithdraw: true,
            updateTime: 0,
            multiAssetsMargin: false,
            tradeGroupId: -1,
            ...totals,
            assets: [b],
            positions: pos,
          }
        : { ...totals, assets: [b], positions: pos };
    }
    app.get('/fapi/v2/account', { config: userData(5), schema: { querystring: signedParams({}), response: answers(FuturesAccountV2Response) } }, async (req) =>
      account(callerOf(req).userId, true),
    );
    app.get('/fapi/v3/account', { config: userData(5), schema: { querystring: signedParams({}), response: answers(FuturesAccountV3Response) } }, async (req) =>
      account(callerOf(req).userId, false),
    );
  };
}

/** A percent string of our funding history ("0.010000") as Binance's fraction with 8 decimals ("0.00010000"). */
function percentToFraction(pct: string): string {
  const neg = pct.startsWith('-');
  const [int = '0', frac = ''] = (neg ? pct.slice(1) : pct).split('.');
  const units = BigInt(int + frac.padEnd(6, '0').slice(0, 6)); // 1e-6 percent = 1e-8 fraction
  return formatDecimal(neg ? -units : units, 8);
}

/** Whether the decimal string `v` is exactly `units` at `decimals` (false when it has more significant decimals). */
function sameUnits(v: string, units: bigint, decimals: number): boolean {
  const frac = (v.split('.')[1] ?? '').replace(/0+$/, '');
  return frac.length <= decimals && toUnits(v, decimals) === units;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** The order a successful placement named was not found: a programmer error (answered -1000). */
function missingOrder(): never {
  throw new Error('placed perpetual order not found');
}

/**
 * The conditional order of a POST /fapi/v1/order (or /fapi/v1/algoOrder, whose `triggerPrice` is passed as
 * `stopPrice`) as the perpetuals service takes it, with Binance's parameter errors (USDⓈ-M "New Order (TRADE)": STOP and
 * TAKE_PROFIT need quantity, price and stopPrice; STOP_MARKET and TAKE_PROFIT_MARKET quantity and stopPrice;
 * TRAILING_STOP_MARKET quantity and callbackRate 0.1..10 (percent, -2007 outside), no stopPrice; workingType MARK_PRICE
 * or CONTRACT_PRICE; priceProtect not with a trailing order). The engine checks the rest (tick, step, -2021).
 */
export function conditionalInput(
  p: Record<string, string>,
  symbol: string,
  side: 'BUY' | 'SELL',
  type: PerpConditionType,
  reduceOnly: boolean,
  clientOrderId: string | undefined,
): ConditionalOrderInput {
  const isLimit = type === 'STOP' || type === 'TAKE_PROFIT';
  const trailing = type === 'TRAILING_STOP_MARKET';
  // closePosition (the algo route's; POST /fapi/v1/order keeps its TP/SL form): no quantity, no reduceOnly (Binance).
  const closePosition = boolParam(p, 'closePosition');
  if (closePosition && optional(p, 'quantity') !== undefined) throw FX.notRequired('quantity');
  if (closePosition && optional(p, 'reduceOnly') !== undefined) throw FX.notRequired('reduceOnly');
  if (closePosition && type !== 'STOP_MARKET' && type !== 'TAKE_PROFIT_MARKET') throw FX.notRequired('closePosition');
  const quantity = closePosition ? undefined : required(p, 'quantity');
  if (quantity !== undefined && /^0*\.?0*$/.test(quantity)) throw FX.quantityNotPositive();
  let price: string | undefined;
  let timeInForce: 'GTC' | 'IOC' | 'FOK' | undefined;
  if (isLimit) {
    price = required(p, 'price');
    const tif = optional(p, 'timeInForce') ?? 'GTC';
    if (tif !== 'GTC' && tif !== 'IOC' && tif !== 'FOK') throw BX.invalidTimeInForce();
    timeInForce = tif;
  } else if (optional(p, 'price') !== undefined) throw FX.notRequired('price');
  let stopPrice: string | undefined;
  let callbackRateBps: number | undefined;
  let activationPrice: string | undefined;
  if (trailing) {
    if (optional(p, 'stopPrice') !== undefined) throw FX.notRequired('stopPrice');
    if (optional(p, 'priceProtect') !== undefined) throw FX.notRequired('priceProtect');
    callbackRateBps = callbackRateBpsOf(required(p, 'callbackRate'));
    activationPrice = optional(p, 'activationPrice');
  } else {
    stopPrice = required(p, 'stopPrice');
    if (optional(p, 'callbackRate') !== undefined) throw FX.notRequired('callbackRate');
    if (optional(p, 'activationPrice') !== undefined) throw FX.notRequired('activationPrice');
  }
  const wt = optional(p, 'workingType');
  if (wt !== undefined && wt !== 'MARK_PRICE' && wt !== 'CONTRACT_PRICE') throw outOfRange('workingType', 'MARK_PRICE, CONTRACT_PRICE');
  return {
    symbol,
    side,
    condition: type,
    ...(quantity !== undefined ? { quantity } : {}),
    ...(closePosition ? { closePosition: true } : {}),
    ...(price !== undefined ? { price } : {}),
    ...(timeInForce !== undefined ? { timeInForce } : {}),
    ...(stopPrice !== undefined ? { stopPrice } : {}),
    ...(wt !== undefined ? { workingType: wt } : {}),
    ...(boolParam(p, 'priceProtect') ? { priceProtect: true } : {}),
    ...(reduceOnly ? { reduceOnly: true } : {}),
    ...(callbackRateBps !== undefined ? { callbackRateBps } : {}),
    ...(activationPrice !== undefined ? { activationPrice } : {}),
    ...(clientOrderId ? { clientOrderId } : {}),
  };
}

/** Binance's callbackRate (percent, 0.1..10 in steps of 0.1) in basis points; -2007 otherwise. */
export function callbackRateBpsOf(raw: string): number {
  const m = /^(\d{1,2})(?:\.(\d{1,8}))?$/.exec(raw);
  if (!m) throw FX.callbackRateInvalid();
  const frac = (m[2] ?? '').padEnd(8, '0');
  if (!/^\d0{7}$/.test(frac)) throw FX.callbackRateInvalid();
  const bps = Number(m[1]) * 100 + Number(frac[0]) * 10;
  if (bps < 10 || bps > 1000) throw FX.callbackRateInvalid();
  return bps;
}
