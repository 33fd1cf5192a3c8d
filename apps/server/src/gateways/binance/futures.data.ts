/**
 * Binance's futures trading data under /futures/data (https://developers.binance.com/docs/derivatives/usds-margined-futures/market-data/rest-api/Open-Interest-Statistics):
 * `GET /futures/data/openInterestHist`, the open interest of a perpetual market at each period boundary, from the
 * samples the open interest job records every 5 minutes (domains/market-jobs/open-interest.job.ts). Nothing is
 * interpolated: a boundary with no sample (before the first one, or while the server was down) has no row.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { and, asc, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { formatDecimal, type PerpMarketConfig } from '@exchange/core';
import type { BinanceRouteConfig } from './binance.auth';
import { BX } from './binance.errors';
import { paramsOf } from './binance.hooks';
import { answers, OpenInterestHistResponse } from './binance.responses';
import { toBinanceSymbol } from './binance.symbols';
import { FInt, FSymbol, intParam, publicParams, required, timeParam } from './futures.params';
import { OPEN_INTEREST_KEEP_DAYS, perpOpenInterestSamples } from '../../domains/market-jobs/open-interest.tables';
import type { Db } from '../../platform/db/client';
import type { ServerClock } from '../../platform/shared/clock';

/** Binance's openInterestHist periods and their lengths (ms); samples are taken every 5 minutes, the finest. */
export const OPEN_INTEREST_PERIODS: Readonly<Record<string, number>> = {
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '2h': 7_200_000,
  '4h': 14_400_000,
  '6h': 21_600_000,
  '12h': 43_200_000,
  '1d': 86_400_000,
};
/** Binance keeps the latest month ("Only the data of the latest 1 month is available"): 30 days here. */
const HISTORY_MS = OPEN_INTEREST_KEEP_DAYS * 86_400_000;

/** What the /futures/data routes use: the database (the samples), the clock, and the perpetual market of a `symbol`. */
export interface FuturesDataDeps {
  db: Db;
  clock: Pick<ServerClock, 'now'>;
  /** The market of the request's `symbol` (-1102 when absent, -1121 when unknown). */
  marketOf: (p: Record<string, string>) => PerpMarketConfig;
}

/** One row of openInterestHist: open interest (base quantity) and its value at the sample's mark price (quote). */
export interface OpenInterestHistRow {
  symbol: string;
  sumOpenInterest: string;
  sumOpenInterestValue: string;
  timestamp: number;
}

/**
 * Registers GET /futures/data/openInterestHist: `symbol`, `period` (5m 15m 30m 1h 2h 4h 6h 12h 1d; another value is
 * -1130), `limit` (1..500, default 30), `startTime`, `endTime`. The rows are the samples at multiples of the period
 * since the epoch within the latest 30 days, ascending by time: from startTime the first `limit`, else the latest
 * `limit` up to endTime. sumOpenInterest is at the market's quantity decimals; sumOpenInterestValue is
 * sumOpenInterest × the mark price when sampled, exact (quantity decimals + price decimals).
 */
export function registerFuturesDataRoutes(app: FastifyInstance, deps: FuturesDataDeps): void {
  const cfg: { binance: BinanceRouteConfig } = { binance: { weight: 1, security: 'NONE' } };
  const t = perpOpenInterestSamples;
  app.get(
    '/futures/data/openInterestHist',
    {
      config: cfg,
      schema: {
        querystring: publicParams({ symbol: FSymbol, period: Type.String({ maxLength: 16 }), limit: FInt, startTime: FInt, endTime: FInt }),
        response: answers(OpenInterestHistResponse),
      },
    },
    async (req): Promise<OpenInterestHistRow[]> => {
      const p = paramsOf(req);
      required(p, 'symbol');
      const m = deps.marketOf(p);
      const period = required(p, 'period');
      const ms = Object.hasOwn(OPEN_INTEREST_PERIODS, period) ? OPEN_INTEREST_PERIODS[period] : undefined;
      if (ms === undefined) throw BX.badParam(`Data sent for parameter 'period' is not valid.`);
      const limit = intParam(p, 'limit', 1, 500, 30);
      const startTime = timeParam(p, 'startTime');
      const endTime = timeParam(p, 'endTime');
      if (startTime !== undefined && endTime !== undefined && endTime < startTime) throw BX.badParam(`startTime should be less than endTime.`);
      const oldest = Math.max(deps.clock.now() - HISTORY_MS, startTime ?? 0);
      const where = and(eq(t.symbol, m.symbol), sql`${t.ts} % ${ms} = 0`, gte(t.ts, oldest), ...(endTime !== undefined ? [lte(t.ts, endTime)] : []));
      const rows = await deps.db
        .select()
        .from(t)
        .where(where)
        .orderBy(startTime !== undefined ? asc(t.ts) : desc(t.ts))
        .limit(limit);
      if (startTime === undefined) rows.reverse();
      return rows.map((r) => {
        const oi = BigInt(r.openInterest);
        return {
          symbol: toBinanceSymbol(r.symbol),
          sumOpenInterest: formatDecimal(oi, r.qtyDecimals),
          sumOpenInterestValue: formatDecimal(oi * BigInt(r.markPrice), r.qtyDecimals + r.priceDecimals),
          timestamp: r.ts,
        };
      });
    },
  );
}
