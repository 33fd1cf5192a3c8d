/**
 * Binance spot REST under /api/v3 (https://developers.binance.com/docs/binance-spot-api-docs/rest-api):
 * Binance's paths, parameters and JSON shapes over our spot markets, through the same services as the app API.
 * This file: the general and market data endpoints (security NONE / MARKET_DATA); the trading and account
 * endpoints are in spot.trade.routes.ts. Every parameter has a schema (spot.params.ts); weights as Binance's docs
 * give them for the default parameters. docs/binance-api.md lists every difference from Binance.
 */
import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { AGGREGATED_INTERVALS } from '../../domains/market-data/bar-aggregate';
import type { BinanceRouteConfig } from './binance.auth';
import { binanceRateLimits, spotDepthWeight } from './binance.weights';
import { BX } from './binance.errors';
import { paramsOf } from './binance.hooks';
import { spotMarketOrThrow, toBinanceSymbol } from './binance.symbols';
import { exchangeInfoSymbol, symbolStatus } from './spot.format';
import {
  aggTrade,
  aggregatedKlineRows,
  avgPrice,
  bookTicker,
  klineRows,
  lastPrice,
  periodOf,
  projectedTrades,
  publicTrade,
  selectMarkets,
  ticker24h,
  type SpotMarketDeps,
} from './spot.market';
import { checkWindow, EnumParam, idParam, IntParam, intParam, notBoth, params, SymbolParam, SymbolsParam, symbolsParam, timeParam } from './spot.params';
import { createSpotRepository, projectionCaughtUp } from './spot.repository';
import spotTradeRoutes, { type SpotTradeRoutesDeps } from './spot.trade.routes';
import type { Db } from '../../platform/db/client';
import type { ServerClock } from '../../platform/shared/clock';
import {
  AggTradesResponse,
  answers,
  AvgPriceResponse,
  BookTickerResponse,
  DepthResponse,
  KlinesResponse,
  PingResponse,
  PublicTradesResponse,
  SpotExchangeInfoResponse,
  SystemStatusResponse,
  Ticker24hResponse,
  TickerPriceResponse,
  TimeResponse,
} from './binance.responses';

/** Route config of a public endpoint of `weight`. */
const pub = (weight: number): { binance: BinanceRouteConfig } => ({ binance: { weight, security: 'NONE' } });

const SymbolStatusParam = Type.Union([Type.Literal('TRADING'), Type.Literal('HALT'), Type.Literal('BREAK')]);
const symbolQuery = params({ symbol: SymbolParam });
const tickerQuery = params({ symbol: Type.Optional(SymbolParam), symbols: Type.Optional(SymbolsParam) });

/**
 * What the spot routes use: the engine and market data, the database (projected trades), the clock and the limits
 * (exchangeInfo's rateLimits), and what the trading routes use.
 */
export type SpotRoutesDeps = SpotMarketDeps & {
  db: Db;
  clock: Pick<ServerClock, 'now'>;
  config: Parameters<typeof binanceRateLimits>[0];
} & SpotTradeRoutesDeps;

/** Binance's spot general and market data routes, and the trading routes (spot.trade.routes.ts) in their scope. */
export default function spotRoutes({ host, marketData, db, clock, config, spot, chain }: SpotRoutesDeps): FastifyPluginAsync {
  return async function spotRoutes(app) {
    const market: SpotMarketDeps = { host, marketData };
    const repo = createSpotRepository(db);
    const quoteScale = (code: string) => host.engine.asset(code)?.scale ?? 8;

    app.get('/api/v3/ping', { config: pub(1), schema: { response: answers(PingResponse) } }, async () => ({}));
    app.get('/api/v3/time', { config: pub(1), schema: { response: answers(TimeResponse) } }, async () => ({ serverTime: clock.now() }));

    // Binance's wallet system status (CCXT's fetchStatus): the exchange's own readiness, as /readyz judges it (the
    // engine host takes commands and the database answers), so a bot pauses while we cannot trade.
    app.get('/sapi/v1/system/status', { config: pub(1), schema: { response: answers(SystemStatusResponse) } }, async () => {
      const maintenance = { status: 1 as const, msg: 'system maintenance' as const };
      if (!host.ready) return maintenance;
      try {
        await db.execute(sql`select 1`);
        return { status: 0 as const, msg: 'normal' as const };
      } catch {
        return maintenance;
      }
    });

    app.get(
      '/api/v3/exchangeInfo',
      {
        config: pub(20),
        schema: {
          querystring: params({
            symbol: Type.Optional(SymbolParam),
            symbols: Type.Optional(SymbolsParam),
            permissions: Type.Optional(Type.String({ pattern: '^[A-Z_",\\[\\]]{1,200}$' })),
            showPermissionSets: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
            symbolStatus: Type.Optional(SymbolStatusParam),
          }),
          response: answers(SpotExchangeInfoResponse),
        },
      },
      async (req) => {
        const p = paramsOf(req);
        notBoth(p.symbol, p.symbols, ['symbol', 'symbols']);
        notBoth(p.symbol ?? p.symbols, p.symbolStatus, ['symbol', 'symbolStatus']);
        let markets = selectMarkets(market, p.symbol, symbolsParam(p.symbols));
        if (p.symbolStatus !== undefined) markets = markets.filter((m) => symbolStatus(m) === p.symbolStatus);
        const asset = (c: string) => host.engine.asset(c);
        return {
          timezone: 'UTC',
          serverTime: clock.now(),
          rateLimits: binanceRateLimits(config),
          exchangeFilters: [],
          symbols: markets.map((m) => exchangeInfoSymbol(m, asset)),
        };
      },
    );

    app.get(
      '/api/v3/depth',
      {
        config: { binance: { weight: 5, weightBy: spotDepthWeight, security: 'NONE' } },
        schema: { querystring: params({ symbol: SymbolParam, limit: Type.Optional(IntParam) }), response: answers(DepthResponse) },
      },
      async (req) => {
        const p = paramsOf(req);
        const m = spotMarketOrThrow(host, p.symbol);
        const limit = intParam(p.limit, 'limit', { min: 1, max: 5000, fallback: 100 });
        const d = marketData.depth(m.symbol, 'SPOT', limit);
        return { lastUpdateId: d.seq, bids: d.bids, asks: d.asks };
      },
    );

    app.get(
      '/api/v3/trades',
      { config: pub(25), schema: { querystring: params({ symbol: SymbolParam, limit: Type.Optional(IntParam) }), response: answers(PublicTradesResponse) } },
      async (req) => {
        const p = paramsOf(req);
        const m = spotMarketOrThrow(host, p.symbol);
        const limit = intParam(p.limit, 'limit', { min: 1, max: 1000, fallback: 500 });
        const rows = await projectedTrades(market, repo, m, { limit });
        return rows.map((t) => publicTrade(t, m, quoteScale(m.quote)));
      },
    );

    app.get(
      '/api/v3/historicalTrades',
      {
        config: pub(25),
        schema: {
          querystring: params({ symbol: SymbolParam, limit: Type.Optional(IntParam), fromId: Type.Optional(IntParam) }),
          response: answers(PublicTradesResponse),
        },
      },
      async (req) => {
        const p = paramsOf(req);
        const m = spotMarketOrThrow(host, p.symbol);
        const limit = intParam(p.limit, 'limit', { min: 1, max: 1000, fallback: 500 });
        const fromId = idParam(p.fromId);
        const rows = await projectedTrades(market, repo, m, { limit, ...(fromId !== undefined ? { fromId } : {}) });
        return rows.map((t) => publicTrade(t, m, quoteScale(m.quote)));
      },
    );

    app.get(
      '/api/v3/aggTrades',
      {
        config: pub(4),
        schema: {
          querystring: params({
            symbol: SymbolParam,
            fromId: Type.Optional(IntParam),
            startTime: Type.Optional(IntParam),
            endTime: Type.Optional(IntParam),
            limit: Type.Optional(IntParam),
          }),
          response: answers(AggTradesResponse),
        },
      },
      async (req) => {
        const p = paramsOf(req);
        const m = spotMarketOrThrow(host, p.symbol);
        const limit = intParam(p.limit, 'limit', { min: 1, max: 1000, fallback: 500 });
        const startTime = timeParam(p.startTime, 'startTime');
        const endTime = timeParam(p.endTime, 'endTime');
        const fromId = idParam(p.fromId);
        if (fromId !== undefined && (startTime !== undefined || endTime !== undefined)) notBoth(p.fromId, p.startTime ?? p.endTime, ['fromId', 'startTime']);
        checkWindow(startTime, endTime, 1);
        const rows = await projectedTrades(market, repo, m, {
          limit,
          ...(fromId !== undefined ? { fromId } : {}),
          ...(startTime !== undefined ? { startTime } : {}),
          ...(endTime !== undefined ? { endTime } : {}),
        });
        return rows.map((t) => aggTrade(t, m));
      },
    );

    const klineQuery = params({
      symbol: SymbolParam,
      interval: Type.String({ pattern: '^[0-9]{1,3}[smhdwM]$' }),
      startTime: Type.Optional(IntParam),
      endTime: Type.Optional(IntParam),
      timeZone: Type.Optional(Type.String({ pattern: '^(\\+|-)?[0-9]{1,2}(:[0-9]{2})?$' })),
      limit: Type.Optional(IntParam),
    });
    const klines = async (req: Parameters<typeof paramsOf>[0]) => {
      const p = paramsOf(req);
      const m = spotMarketOrThrow(host, p.symbol);
      const interval = p.interval ?? '';
      const aggregated = Object.hasOwn(AGGREGATED_INTERVALS, interval) ? AGGREGATED_INTERVALS[interval] : undefined;
      const period = aggregated === undefined ? periodOf(interval) : undefined;
      // Bars are UTC; only the UTC time zone is kept.
      if (p.timeZone !== undefined && !/^(\+|-)?0{1,2}(:00)?$/.test(p.timeZone)) throw BX.badParam("Data sent for parameter 'timeZone' is not valid.");
      const limit = intParam(p.limit, 'limit', { min: 1, max: 1000, fallback: 500 });
      const startTime = timeParam(p.startTime, 'startTime');
      const endTime = timeParam(p.endTime, 'endTime');
      const q = { limit, ...(startTime !== undefined ? { startTime } : {}), ...(endTime !== undefined ? { endTime } : {}) };
      // Intervals market data does not store (3m, 2h, 4h, 6h, 8h, 12h, 3d, 1M): built from a finer stored one.
      if (aggregated !== undefined) return aggregatedKlineRows(market, m, aggregated, q);
      return klineRows(market, m, period!, q);
    };
    app.get('/api/v3/klines', { config: pub(2), schema: { querystring: klineQuery, response: answers(KlinesResponse) } }, klines);
    app.get('/api/v3/uiKlines', { config: pub(2), schema: { querystring: klineQuery, response: answers(KlinesResponse) } }, klines);

    app.get('/api/v3/avgPrice', { config: pub(2), schema: { querystring: symbolQuery, response: answers(AvgPriceResponse) } }, async (req) => {
      const m = spotMarketOrThrow(host, paramsOf(req).symbol);
      return avgPrice(market, repo, m, clock.now());
    });

    /** A ticker route's answer: an object for `symbol`, an array for `symbols` or all. */
    const perSymbol = <T>(p: Record<string, string>, one: (m: ReturnType<typeof selectMarkets>[number]) => T): T | T[] => {
      notBoth(p.symbol, p.symbols, ['symbol', 'symbols']);
      const markets = selectMarkets(market, p.symbol, symbolsParam(p.symbols));
      const rows = markets.map(one);
      return p.symbol !== undefined ? rows[0]! : rows;
    };

    app.get(
      '/api/v3/ticker/24hr',
      {
        config: pub(2),
        schema: {
          querystring: params({ symbol: Type.Optional(SymbolParam), symbols: Type.Optional(SymbolsParam), type: Type.Optional(EnumParam) }),
          response: answers(Ticker24hResponse),
        },
      },
      async (req) => {
        const p = paramsOf(req);
        const type = p.type ?? 'FULL';
        if (type !== 'FULL' && type !== 'MINI') throw BX.badParam("Data sent for parameter 'type' is not valid.");
        const now = clock.now();
        await projectionCaughtUp(host);
        const stats = await repo.tradeStats(now - 86_400_000);
        return perSymbol(p, (m) => ticker24h(market, m, stats, now, type));
      },
    );

    app.get('/api/v3/ticker/price', { config: pub(2), schema: { querystring: tickerQuery, response: answers(TickerPriceResponse) } }, async (req) =>
      perSymbol(paramsOf(req), (m) => ({ symbol: toBinanceSymbol(m.symbol), price: lastPrice(market, m) })),
    );

    app.get('/api/v3/ticker/bookTicker', { config: pub(2), schema: { querystring: tickerQuery, response: answers(BookTickerResponse) } }, async (req) =>
      perSymbol(paramsOf(req), (m) => bookTicker(market, m)),
    );

    await app.register(spotTradeRoutes({ db, host, clock, spot, chain }));
  };
}
