/**
 * Reads of the projected perpetual history for the /fapi routes: a user's orders by client order id and
 * in Binance's allOrders window, a user's fills of one market (userTrades), and the fills and funding payments of the
 * income history (/fapi/v1/income), and a market's public trades (/fapi/v1/aggTrades). Every query of a user's rows
 * is bound to the caller's user id, so one user never reads another's rows. Tables of domains/perp/perp.tables.ts (written by the projector).
 */
import { and, asc, desc, eq, gte, lte, ne, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/client';
import { perpFundingPayments, perpOrders, perpTrades } from '../../domains/perp/perp.tables';

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
  /**
   * The user's fills (maker or taker) with a time in [startTime, endTime], of one market or all, oldest first, at most
   * `limit`, only those where the user's side has a non-zero realized PnL (`pnl`) or fee (`fee`).
   */
  tradesBetween(
    userId: string,
    symbol: string | undefined,
    startTime: number,
    endTime: number,
    limit: number,
    want: { pnl: boolean; fee: boolean },
  ): Promise<Array<typeof perpTrades.$inferSelect>>;
  /**
   * The public trades of a market (book trades: liquidation takeovers and auto-deleveraging are not public), ascending
   * by id: from `fromId` on; else within [startTime, endTime] (from startTime on, or the latest up to endTime); else
   * the latest `limit` (Binance's aggTrades).
   */
  publicTrades(symbol: string, w: HistoryWindow): Promise<Array<typeof perpTrades.$inferSelect>>;
  /** The user's funding payments with a time in [startTime, endTime], of one market or all, oldest first, at most `limit`. */
  fundingBetween(
    userId: string,
    symbol: string | undefined,
    startTime: number,
    endTime: number,
    limit: number,
  ): Promise<Array<typeof perpFundingPayments.$inferSelect>>;
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
      const rows = await db
        .select()
        .from(o)
        .where(and(eq(o.userId, userId), eq(o.clientOrderId, clientOrderId)))
        .orderBy(desc(o.id))
        .limit(1);
      return rows[0];
    },
    async orders(userId, symbol, w) {
      const o = perpOrders;
      const q = db
        .select()
        .from(o)
        .where(and(eq(o.userId, userId), eq(o.symbol, symbol), ...windowOf(o.id, o.createdTs, w)));
      return w.fromId !== undefined ? q.orderBy(asc(o.id)).limit(w.limit) : (await q.orderBy(desc(o.id)).limit(w.limit)).reverse();
    },
    async trades(userId, symbol, w) {
      const t = perpTrades;
      const q = db
        .select()
        .from(t)
        .where(and(eq(t.symbol, symbol), or(eq(t.makerUserId, userId), eq(t.takerUserId, userId)), ...windowOf(t.id, t.ts, w)));
      return w.fromId !== undefined ? q.orderBy(asc(t.id)).limit(w.limit) : (await q.orderBy(desc(t.id)).limit(w.limit)).reverse();
    },
    async publicTrades(symbol, w) {
      const t = perpTrades;
      const q = db
        .select()
        .from(t)
        .where(and(eq(t.symbol, symbol), eq(t.kind, 'BOOK'), ...windowOf(t.id, t.ts, w)));
      // From fromId or from startTime on: the first `limit`; otherwise the latest `limit` (up to endTime when given).
      if (w.fromId !== undefined || w.startTime !== undefined) return q.orderBy(asc(t.id)).limit(w.limit);
      return (await q.orderBy(desc(t.id)).limit(w.limit)).reverse();
    },
    async tradesBetween(userId, symbol, startTime, endTime, limit, want) {
      const t = perpTrades;
      /** The user on one side with something to report on that side. */
      const side = (user: AnyPgColumn, pnl: AnyPgColumn, fee: AnyPgColumn) =>
        and(eq(user, userId), or(...(want.pnl ? [ne(pnl, '0')] : []), ...(want.fee ? [ne(fee, '0')] : [])));
      const sides = or(side(t.makerUserId, t.makerRealizedPnl, t.makerFee), side(t.takerUserId, t.takerRealizedPnl, t.takerFee));
      const where = and(sides, gte(t.ts, startTime), lte(t.ts, endTime), ...(symbol !== undefined ? [eq(t.symbol, symbol)] : []));
      return db.select().from(t).where(where).orderBy(asc(t.ts), asc(t.id)).limit(limit);
    },
    async fundingBetween(userId, symbol, startTime, endTime, limit) {
      const f = perpFundingPayments;
      const where = and(eq(f.userId, userId), gte(f.ts, startTime), lte(f.ts, endTime), ...(symbol !== undefined ? [eq(f.symbol, symbol)] : []));
      // (ts, seq): the order incomeRows sorts the merged rows in (seq is a funding's tranId).
      return db.select().from(f).where(where).orderBy(asc(f.ts), asc(f.seq)).limit(limit);
    },
  };
}
