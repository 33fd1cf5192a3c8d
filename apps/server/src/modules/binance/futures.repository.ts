/**
 * Reads of the projected perpetual history for the /fapi routes (issue 15): a user's orders by client order id and
 * in Binance's allOrders window, and a user's fills of one market (userTrades). Every query is bound to the caller's
 * user id, so one user never reads another's rows. Tables of db/schema/contract.ts (written by the projector).
 */
import { and, asc, desc, eq, gte, lte, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { perpOrders, perpTrades } from '../../db/schema/contract';

/** A window of a history query: ids from `fromId` (inclusive), times within [startTime, endTime], at most `limit`. */
export interface HistoryWindow {
  fromId?: string;
  startTime?: number;
  endTime?: number;
  limit: number;
}

/** The /fapi history reads (see the file comment). */
export interface FuturesRepository {
  /** The user's newest order with this client order id, or undefined. */
  orderByClientId(userId: string, clientOrderId: string): Promise<typeof perpOrders.$inferSelect | undefined>;
  /**
   * The user's orders of a market, ascending by id: from `fromId` on when given, else the newest `limit` of the
   * window (creation time within [startTime, endTime]).
   */
  orders(userId: string, symbol: string, w: HistoryWindow): Promise<Array<typeof perpOrders.$inferSelect>>;
  /** The user's fills (maker or taker) of a market, ascending by id, chosen as `orders` chooses. */
  trades(userId: string, symbol: string, w: HistoryWindow): Promise<Array<typeof perpTrades.$inferSelect>>;
}

/** The conditions of a history window on an id column and a time column (absent bounds: none). */
function windowOf(id: AnyPgColumn, ts: AnyPgColumn, w: HistoryWindow): SQL[] {
  const out: SQL[] = [];
  if (w.fromId !== undefined) out.push(gte(id, BigInt(w.fromId)));
  if (w.startTime !== undefined) out.push(gte(ts, w.startTime));
  if (w.endTime !== undefined) out.push(lte(ts, w.endTime));
  return out;
}

/** Creates the repository over `db`. */
export function createFuturesRepository(db: Db): FuturesRepository {
  return {
    async orderByClientId(userId, clientOrderId) {
      const o = perpOrders;
      const rows = await db.select().from(o).where(and(eq(o.userId, userId), eq(o.clientOrderId, clientOrderId))).orderBy(desc(o.id)).limit(1);
      return rows[0];
    },
    async orders(userId, symbol, w) {
      const o = perpOrders;
      const q = db.select().from(o).where(and(eq(o.userId, userId), eq(o.symbol, symbol), ...windowOf(o.id, o.createdTs, w)));
      return w.fromId !== undefined ? q.orderBy(asc(o.id)).limit(w.limit) : (await q.orderBy(desc(o.id)).limit(w.limit)).reverse();
    },
    async trades(userId, symbol, w) {
      const t = perpTrades;
      const q = db.select().from(t).where(and(eq(t.symbol, symbol), or(eq(t.makerUserId, userId), eq(t.takerUserId, userId)), ...windowOf(t.id, t.ts, w)));
      return w.fromId !== undefined ? q.orderBy(asc(t.id)).limit(w.limit) : (await q.orderBy(desc(t.id)).limit(w.limit)).reverse();
    },
  };
}
