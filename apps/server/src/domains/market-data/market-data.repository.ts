/**
 * All SQL of the market-data module (coins, markets, klines). Rows carry decimal strings
 * (numeric columns) and Unix ms times; conversions to integer units happen in the service.
 */
import { and, asc, desc, eq, gte, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { coins, klines, markets } from './market-data.tables';
import { spotTrades } from '../spot/spot.tables';

/** Rows of the market tables as Drizzle selects them (numeric columns as decimal strings, times in ms). */
export type CoinRow = typeof coins.$inferSelect;
/** A listing row. */
export type MarketRow = typeof markets.$inferSelect;
/** A k-line row. */
export type KlineRow = typeof klines.$inferSelect;

/** Rows per multi-row INSERT (10 columns each; well under PostgreSQL's 65535 parameters). */
const BATCH = 2000;

/** Rows per literal INSERT of k-line history. */
const LITERAL_BATCH = 5000;
const NAME_RE = /^[A-Za-z0-9/]{1,30}$/;
const NUM_RE = /^-?[0-9]{1,40}(\.[0-9]{1,40})?$/;

/** One k-line row as a SQL VALUES tuple; throws on any field outside its strict pattern (no injection possible). */
export function klineLiteral(r: KlineRow): string {
  if (!NAME_RE.test(r.symbol) || !NAME_RE.test(r.type) || !NAME_RE.test(r.period) || !Number.isSafeInteger(r.time)) {
    throw new Error(`bad k-line key ${r.symbol} ${r.type} ${r.period} ${r.time}`);
  }
  const nums = [r.open, r.high, r.low, r.close, r.volume, r.quoteVolume];
  for (const n of nums) if (!NUM_RE.test(n)) throw new Error(`bad k-line value ${n}`);
  return `('${r.symbol}','${r.type}','${r.period}',${r.time},${nums.join(',')})`;
}

/** Repository over `db`. */
export function createMarketDataRepository(db: Db) {
  return {
    /** Inserts coins that are not there yet (by code). */
    async insertCoins(rows: Array<typeof coins.$inferInsert>): Promise<void> {
      if (rows.length > 0) await db.insert(coins).values(rows).onConflictDoNothing();
    },
    /** Inserts listings that are not there yet (by symbol and type). */
    async insertMarkets(rows: Array<typeof markets.$inferInsert>): Promise<void> {
      if (rows.length > 0) await db.insert(markets).values(rows).onConflictDoNothing();
    },
    async coins(): Promise<CoinRow[]> {
      return db.select().from(coins).orderBy(asc(coins.sort));
    },
    async markets(): Promise<MarketRow[]> {
      return db.select().from(markets).orderBy(asc(markets.sort), asc(markets.id));
    },
    /**
     * Inserts bars, skipping (symbol, type, period, time) that already exist (seeding and backfill). Bulk rows are
     * written as literal multi-row VALUES (every field is checked against a strict pattern first): on PGlite this is
     * an order of magnitude faster than bound parameters, which keeps the first start's history seeding short.
     */
    async insertKlines(rows: KlineRow[]): Promise<void> {
      for (let i = 0; i < rows.length; i += LITERAL_BATCH) {
        const values = rows
          .slice(i, i + LITERAL_BATCH)
          .map(klineLiteral)
          .join(',');
        await db.execute(
          sql.raw(`INSERT INTO klines (symbol, type, period, time, open, high, low, close, volume, quote_volume) VALUES ${values} ON CONFLICT DO NOTHING`),
        );
      }
    },
    /** Inserts or replaces bars (live bars, flushed periodically). */
    async upsertKlines(rows: KlineRow[]): Promise<void> {
      for (let i = 0; i < rows.length; i += BATCH) {
        await db
          .insert(klines)
          .values(rows.slice(i, i + BATCH))
          .onConflictDoUpdate({
            target: [klines.symbol, klines.type, klines.period, klines.time],
            set: {
              open: sql`excluded.open`,
              high: sql`excluded.high`,
              low: sql`excluded.low`,
              close: sql`excluded.close`,
              volume: sql`excluded.volume`,
              quoteVolume: sql`excluded.quote_volume`,
            },
          });
      }
    },
    /** The newest `limit` bars before `endTime` (exclusive), newest first. */
    async klines(symbol: string, type: string, period: string, endTime: number, limit: number): Promise<KlineRow[]> {
      return db
        .select()
        .from(klines)
        .where(and(eq(klines.symbol, symbol), eq(klines.type, type), eq(klines.period, period), lt(klines.time, endTime)))
        .orderBy(desc(klines.time))
        .limit(limit);
    },
    /**
     * The newest projected trades of a spot market (table of the trading area, written by the engine host's
     * projector), newest first; integer engine units as strings.
     */
    async recentTrades(symbol: string, limit: number): Promise<Array<{ id: bigint; price: string; quantity: string; takerSide: string; ts: number }>> {
      return db
        .select({ id: spotTrades.id, price: spotTrades.price, quantity: spotTrades.quantity, takerSide: spotTrades.takerSide, ts: spotTrades.ts })
        .from(spotTrades)
        .where(eq(spotTrades.symbol, symbol))
        .orderBy(desc(spotTrades.id))
        .limit(limit);
    },
    /** Per series, the open time of the newest bar of each period that opened before `bounds[period]` (ms). */
    async latestKlineTimesBefore(bounds: Record<string, number>): Promise<Array<{ symbol: string; type: string; period: string; time: number }>> {
      const conds = Object.entries(bounds).map(([period, ts]) => and(eq(klines.period, period), lt(klines.time, ts)));
      return db
        .select({ symbol: klines.symbol, type: klines.type, period: klines.period, time: sql<number>`max(${klines.time})`.mapWith(Number) })
        .from(klines)
        .where(or(...conds))
        .groupBy(klines.symbol, klines.type, klines.period);
    },
    /**
     * Every bar of `period` from `fromTs` (ms, inclusive) of the series of the given market types, oldest first: one
     * range read through klines_period_time_idx for all of a store's series (their 24-hour windows at start).
     */
    async klinesOfTypesSince(types: readonly string[], period: string, fromTs: number): Promise<KlineRow[]> {
      if (types.length === 0) return [];
      return db
        .select()
        .from(klines)
        .where(and(eq(klines.period, period), gte(klines.time, fromTs), inArray(klines.type, [...types])))
        .orderBy(asc(klines.time));
    },
    /**
     * The bars of every series that opened at the given time of their period (`at`: period and open time in ms, e.g.
     * each period's bar open now): one lookup per period through klines_period_time_idx, whatever the history's size.
     */
    async klinesOpenedAt(at: ReadonlyArray<{ period: string; time: number }>): Promise<KlineRow[]> {
      if (at.length === 0) return [];
      return db
        .select()
        .from(klines)
        .where(or(...at.map((a) => and(eq(klines.period, a.period), eq(klines.time, a.time)))));
    },
  };
}

/** The repository's type. */
export type MarketDataRepository = ReturnType<typeof createMarketDataRepository>;
