/** SQL of the entrust area: reads of the projected orders and trades (written by platform/engine-host/projector.ts through entrust.projection.ts). */
import { and, asc, count, desc, eq, or, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/client';
import { spotOrders, spotTrades } from './spot.tables';

/** Projected order row. */
export type OrderRow = typeof spotOrders.$inferSelect;
/** Projected trade row. */
export type TradeRow = typeof spotTrades.$inferSelect;

/**
 * One user's side of a projected trade: the trade's columns with that user's order, fee and role. A trade in which
 * the user was both maker and taker (possible only when self-trade prevention is off) gives two of these.
 */
export interface UserTradeRow {
  id: bigint;
  symbol: string;
  price: string;
  quantity: string;
  quoteAmount: string;
  takerSide: string;
  orderId: bigint;
  fee: string;
  feeAsset: string;
  role: 'MAKER' | 'TAKER';
  ts: number;
}

/** Repository over the trading tables. */
export interface SpotRepository {
  /** Ended orders (FILLED, CANCELED, EXPIRED) of a user, newest update first, with the total count. */
  history(userId: string, symbol: string | undefined, offset: number, limit: number): Promise<{ rows: OrderRow[]; total: number }>;
  /** One projected order by id, or undefined. */
  order(orderId: string): Promise<OrderRow | undefined>;
  /** Trades in which `orderId` was maker or taker, oldest first. */
  fills(orderId: string): Promise<TradeRow[]>;
  /** The fills of `userId` (as maker and as taker), newest trade first, optionally of one market, with the total count. */
  userTrades(userId: string, symbol: string | undefined, offset: number, limit: number): Promise<{ rows: UserTradeRow[]; total: number }>;
}

/** Creates the repository over `db`. */
export function createSpotRepository(db: Db): SpotRepository {
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
      const rows = await db
        .select()
        .from(spotOrders)
        .where(eq(spotOrders.id, BigInt(orderId)))
        .limit(1);
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
    async userTrades(userId, symbol, offset, limit) {
      // One branch per role, each on its (user, id) index; the union is merged newest first.
      const bySymbol = symbol ? eq(spotTrades.symbol, symbol) : undefined;
      const branch = (role: 'MAKER' | 'TAKER') => {
        const maker = role === 'MAKER';
        return db
          .select({
            id: spotTrades.id,
            symbol: spotTrades.symbol,
            price: spotTrades.price,
            quantity: spotTrades.quantity,
            quoteAmount: spotTrades.quoteAmount,
            takerSide: spotTrades.takerSide,
            orderId: maker ? spotTrades.makerOrderId : spotTrades.takerOrderId,
            fee: maker ? spotTrades.makerFee : spotTrades.takerFee,
            feeAsset: maker ? spotTrades.makerFeeAsset : spotTrades.takerFeeAsset,
            // A literal, not a parameter: PostgreSQL must know its type in both branches of the union.
            role: sql<'MAKER' | 'TAKER'>`${sql.raw(maker ? "'MAKER'" : "'TAKER'")}::text`.as('role'),
            ts: spotTrades.ts,
          })
          .from(spotTrades)
          .where(and(eq(maker ? spotTrades.makerUserId : spotTrades.takerUserId, userId), bySymbol));
      };
      const counted = (role: 'MAKER' | 'TAKER') =>
        db
          .select({ n: count() })
          .from(spotTrades)
          .where(and(eq(role === 'MAKER' ? spotTrades.makerUserId : spotTrades.takerUserId, userId), bySymbol));
      const [rows, makers, takers] = await Promise.all([
        unionAll(branch('MAKER'), branch('TAKER'))
          .orderBy(desc(sql`id`), asc(sql`role`))
          .offset(offset)
          .limit(limit),
        counted('MAKER'),
        counted('TAKER'),
      ]);
      return { rows: rows as UserTradeRow[], total: Number(makers[0]?.n ?? 0) + Number(takers[0]?.n ?? 0) };
    },
  };
}
