/**
 * Routes of the perpetual contracts' public market data (packages/api contract-market.ts): GET
 * contract/market/getMarkets, getMarket, getDepth, getTrades, getKlines (price=last|mark), getFundingHistory.
 * Public, thin: validation by the schemas, answers from the perpetual market service in the envelope; an unknown
 * market is market_not_found (400, field symbol) in the request's language.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CONTRACT_MARKET_PATHS,
  ContractDepth,
  ContractDepthQuery,
  ContractFunding,
  ContractFundingQuery,
  ContractKline,
  ContractKlineQuery,
  ContractMarket,
  ContractSymbolQuery,
  ContractTrade,
  ContractTradesQuery,
  Envelope,
} from '@exchange/api';
import { ok } from '../../../platform/shared/envelope';
import { AppError } from '../../../platform/shared/errors';
import type { PerpMarketService } from './perp-market.service';
import type { PlatformContext } from '../../../platform/platform-context';

/** Defaults as spot's: 20 depth levels, 50 trades, 300 bars; 100 fundings (a month at 8 h). */
export const DEPTH_DEFAULT = 20;
export const TRADES_DEFAULT = 50;
export const KLINES_DEFAULT = 300;
export const FUNDING_DEFAULT = 100;

/** An integer the schema let through (AJV coerces "1e308", "Infinity") outside [min, max] is a 400. */
function intIn(v: number | undefined, field: string, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isSafeInteger(v) || v < min || v > max) throw new AppError('validation_failed', 400, field);
  return v;
}

const tags = ['contract market'];

/** The perpetual market routes over the perpetual market service and the engine port (`host`: which perpetual markets exist). */
export default function perpMarketRoutes({ perpMarket, host }: { perpMarket: PerpMarketService } & Pick<PlatformContext, 'host'>): FastifyPluginAsync {
  return async function perpMarketRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const known = (symbol: string) => {
      if (!host.engine.perpMarket(symbol)) throw new AppError('market_not_found', 400, 'symbol');
    };

    app.get(
      `/api/${CONTRACT_MARKET_PATHS.getMarkets}`,
      {
        schema: {
          tags,
          summary: 'Every perpetual market: last, mark and index price, 24 h change and volume, funding, leverage, lot, tick and step',
          response: { 200: Envelope(Type.Array(ContractMarket)) },
        },
      },
      async () => ok(perpMarket.markets()),
    );

    app.get(
      `/api/${CONTRACT_MARKET_PATHS.getMarket}`,
      { schema: { tags, summary: 'One perpetual market', querystring: ContractSymbolQuery, response: { 200: Envelope(ContractMarket) } } },
      async (req) => {
        const m = perpMarket.market(req.query.symbol);
        if (!m) throw new AppError('market_not_found', 400, 'symbol');
        return ok(m);
      },
    );

    app.get(
      `/api/${CONTRACT_MARKET_PATHS.getDepth}`,
      {
        schema: {
          tags,
          summary: 'The book of a perpetual market: best levels per side',
          querystring: ContractDepthQuery,
          response: { 200: Envelope(ContractDepth) },
        },
      },
      async (req) => {
        const limit = intIn(req.query.limit, 'limit', 1, 200) ?? DEPTH_DEFAULT;
        const d = perpMarket.depth(req.query.symbol, limit);
        if (!d) throw new AppError('market_not_found', 400, 'symbol');
        return ok(d);
      },
    );

    app.get(
      `/api/${CONTRACT_MARKET_PATHS.getTrades}`,
      {
        schema: {
          tags,
          summary: 'Latest book trades of a perpetual market, newest first',
          querystring: ContractTradesQuery,
          response: { 200: Envelope(Type.Array(ContractTrade)) },
        },
      },
      async (req) => {
        const limit = intIn(req.query.limit, 'limit', 1, 200) ?? TRADES_DEFAULT;
        known(req.query.symbol);
        return ok(perpMarket.trades(req.query.symbol, limit));
      },
    );

    app.get(
      `/api/${CONTRACT_MARKET_PATHS.getKlines}`,
      {
        schema: {
          tags,
          summary: 'K-lines of the trades (price=last, default) or of the mark price (price=mark), oldest first',
          querystring: ContractKlineQuery,
          response: { 200: Envelope(Type.Array(ContractKline)) },
        },
      },
      async (req) => {
        const q = req.query;
        const limit = intIn(q.limit, 'limit', 1, 1500) ?? KLINES_DEFAULT;
        const endTime = intIn(q.endTime, 'endTime', 0, Number.MAX_SAFE_INTEGER);
        known(q.symbol);
        return ok(await perpMarket.klines(q.symbol, q.price ?? 'last', q.period, limit, endTime));
      },
    );

    app.get(
      `/api/${CONTRACT_MARKET_PATHS.getFundingHistory}`,
      {
        schema: {
          tags,
          summary: 'Settled funding rates of a perpetual market, newest first',
          querystring: ContractFundingQuery,
          response: { 200: Envelope(Type.Array(ContractFunding)) },
        },
      },
      async (req) => {
        const q = req.query;
        const limit = intIn(q.limit, 'limit', 1, 1000) ?? FUNDING_DEFAULT;
        const endTime = intIn(q.endTime, 'endTime', 0, Number.MAX_SAFE_INTEGER);
        known(q.symbol);
        return ok(await perpMarket.fundingHistory(q.symbol, limit, endTime));
      },
    );
  };
}
