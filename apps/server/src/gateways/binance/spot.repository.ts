/**
 * SQL of the Binance spot routes: the reads Binance's history endpoints need and the app's services do
 * not offer — public trades by id or time (aggTrades), trade counts of the 24 h window (ticker/24hr), the 5-minute
 * average price (avgPrice), one user's orders of a symbol by id or time (allOrders, query by origClientOrderId) and
 * one user's fills of a symbol (myTrades). Reads of the projected tables written by platform/engine-host/projector.ts (domains/spot/spot.projection.ts); the
 * callers wait for the projection first (read-your-writes). Rows carry numeric columns as decimal strings.
 */
import { and, asc, desc, eq, gte, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { spotOrders, spotTrades } from '../../domains/spot/spot.tables';
import type { EnginePort } from '../../platform/engine-port/engine-port';

/** Projected order row. */
export type SpotOrderRow = typeof spotOrders.$inferSelect;
/** Projected trade row. */
export type SpotTradeRow = typeof spotTrades.$inferSelect;

/** A history query: rows from id `fromId` on (ascending), or within [startTime, endTime] (ascending), else the latest. */
export interface HistoryQuery {
  fromId?: string;
  startTime?: number;
  endTime?: number;
  limit: number;
}

/** Longest wait for the projection before a read goes ahead with what the database has (ms). */
const PROJECTION_WAIT_MS = 3000;

/** Waits until the projection holds every command applied so far, at most PROJECTION_WAIT_MS. */
export async function projectionCaughtUp(host: EnginePort): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([host.projected(), new Promise<void>((resolve) => (timer = setTimeout(resolve, PROJECTION_WAIT_MS)))]);
  clearTimeout(timer);
}

/** The reads (see the file comment). */
export interface SpotRepository {
  /** Trades of `symbol` (the market's "BTC/USDT"), ascending by id, as HistoryQuery says. */
  trades(symbol: string, q: HistoryQuery): Promise<SpotTradeRow[]>;
  /** Per market: first and last trade id and the trade count since `since` (ms). */
  tradeStats(since: number): Promise<Map<string, { firstId: string; lastId: string; count: number }>>;
  /** Sum of quote amounts and quantities (decimal strings of units) and the last trade time since `since` (ms), or undefined without trades. */
  volumeSince(symbol: string, since: number): Promise<{ quote: string; qty: string; lastTs: number } | undefined>;
  /** `userId`'s orders of `symbol`, ascending by id: from order id `fromId`, or created within [startTime, endTime], else the latest. */
  orders(userId: string, symbol: string, q: HistoryQuery): Promise<SpotOrderRow[]>;
  /** `userId`'s order of `symbol` with client order id `clientOrderId` (the newest when reused), or undefined. */
  orderByClientId(userId: string, symbol: string, clientOrderId: string): Promise<SpotOrderRow | undefined>;
  /** Trades of `symbol` in which `userId` was maker or taker (of order `orderId` when given), ascending by id. */
  userTrades(userId: string, symbol: string, q: HistoryQuery & { orderId?: string }): Promise<SpotTradeRow[]>;
}

/** Ascending rows: from fromId, within the time window, or the latest `limit` (read newest first, then reversed). */
async function history<R>(
  q: HistoryQuery,
  id: typeof spotTrades.id | typeof spotOrders.id,
  ts: typeof spotTrades.ts | typeof spotOrders.createdTs,
  run: (where: SQL | undefined, order: SQL, limit: number) => Promise<R[]>,
): Promise<R[]> {
  if (q.fromId !== undefined) return run(gte(id, BigInt(q.fromId)), asc(id), q.limit);
  if (q.startTime !== undefined || q.endTime !== undefined) {
    const w = and(q.startTime !== undefined ? gte(ts, q.startTime) : undefined, q.endTime !== undefined ? lte(ts, q.endTime) : undefined);
    // Binance: with only endTime, the trades up to it (the latest ones before it).
    if (q.startTime === undefined) return (await run(w, desc(id), q.limit)).reverse();
    return run(w, asc(id), q.limit);
  }
  return (await run(undefined, desc(id), q.limit)).reverse();
}

/** The repository over `db`. */
export function createSpotRepository(db: Db): SpotRepository {
  return {
    trades(symbol, q) {
      return history(q, spotTrades.id, spotTrades.ts, (where, order, limit) =>
        db
          .select()
          .from(spotTrades)
          .where(and(eq(spotTrades.symbol, symbol), where))
          .orderBy(order)
          .limit(limit),
      );
    },
    async tradeStats(since) {
      const rows = await db
        .select({
          symbol: spotTrades.symbol,
          firstId: sql<string>`min(${spotTrades.id})::text`,
          lastId: sql<string>`max(${spotTrades.id})::text`,
          count: sql<string>`count(*)::text`,
        })
        .from(spotTrades)
        .where(gte(spotTrades.ts, since))
        .groupBy(spotTrades.symbol);
      return new Map(rows.map((r) => [r.symbol, { firstId: r.firstId, lastId: r.lastId, count: Number(r.count) }]));
    },
    async volumeSince(symbol, since) {
      const rows = await db
        .select({
          quote: sql<string | null>`sum(${spotTrades.quoteAmount})::text`,
          qty: sql<string | null>`sum(${spotTrades.quantity})::text`,
          lastTs: sql<string | null>`max(${spotTrades.ts})::text`,
        })
        .from(spotTrades)
        .where(and(eq(spotTrades.symbol, symbol), gte(spotTrades.ts, since)));
      const r = rows[0];
      if (!r || r.quote === null || r.qty === null || r.lastTs === null) return undefined;
      return { quote: r.quote, qty: r.qty, lastTs: Number(r.lastTs) };
    },
    orders(userId, symbol, q) {
      return history(q, spotOrders.id, spotOrders.createdTs, (where, order, limit) =>
        db
          .select()
          .from(spotOrders)
          .where(and(eq(spotOrders.userId, userId), eq(spotOrders.symbol, symbol), where))
          .orderBy(order)
          .limit(limit),
      );
    },
    async orderByClientId(userId, symbol, clientOrderId) {
      const rows = await db
        .select()
        .from(spotOrders)
        .where(and(eq(spotOrders.userId, userId), eq(spotOrders.symbol, symbol), eq(spotOrders.clientOrderId, clientOrderId)))
        .orderBy(desc(spotOrders.id))
        .limit(1);
      return rows[0];
    },
    userTrades(userId, symbol, q) {
      const mine =
        q.orderId !== undefined
          ? and(
              or(eq(spotTrades.makerOrderId, BigInt(q.orderId)), eq(spotTrades.takerOrderId, BigInt(q.orderId))),
              or(eq(spotTrades.makerUserId, userId), eq(spotTrades.takerUserId, userId)),
            )
          : or(eq(spotTrades.makerUserId, userId), eq(spotTrades.takerUserId, userId));
      return history(q, spotTrades.id, spotTrades.ts, (where, order, limit) =>
        db
          .select()
          .from(spotTrades)
          .where(and(eq(spotTrades.symbol, symbol), mine, where))
          .orderBy(order)
          .limit(limit),
      );
    },
  };
}
