/** SQL of the entrust area: reads of the projected orders and trades (written by engine-host/projector.ts). */
import { and, asc, count, desc, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { spotOrders, spotTrades } from '../../db/schema/trading';

/** Projected order row. */
export type OrderRow = typeof spotOrders.$inferSelect;
/** Projected trade row. */
export type TradeRow = typeof spotTrades.$inferSelect;

/** Repository over the trading tables. */
export interface EntrustRepository {
  /** Ended orders (FILLED, CANCELED, EXPIRED) of a user, newest update first, with the total count. */
  history(userId: string, symbol: string | undefined, offset: number, limit: number): Promise<{ rows: OrderRow[]; total: number }>;
  /** One projected order by id, or undefined. */
  order(orderId: string): Promise<OrderRow | undefined>;
  /** Trades in which `orderId` was maker or taker, oldest first. */
  fills(orderId: string): Promise<TradeRow[]>;
}

/** Creates the repository over `db`. */
export function createEntrustRepository(db: Db): EntrustRepository {
  return {
    async history(userId, symbol, offset, limit) {
      const where = and(eq(spotOrders.userId, userId), eq(spotOrders.closed, true), symbol ? eq(spotOrders.symbol, symbol) : undefined);
      const [rows, totals] = await Promise.all([
        db.select().from(spotOrders).where(where).orderBy(desc(spotOrders.updatedTs), desc(spotOrders.id)).offset(offset).limit(limit),
        db.select({ n: count() }).from(spotOrders).where(where),
      ]);
      return { rows, total: Number(totals[0]?.n ?? 0) };
    },
    async order(orderId) {
      const rows = await db.select().from(spotOrders).where(eq(spotOrders.id, BigInt(orderId))).limit(1);
      return rows[0];
    },
    async fills(orderId) {
      const id = BigInt(orderId);
      return db
        .select()
        .from(spotTrades)
        .where(or(eq(spotTrades.makerOrderId, id), eq(spotTrades.takerOrderId, id)))
        .orderBy(asc(spotTrades.id));
    },
  };
}
