/**
 * SQL of the contract area: reads of the projected perpetual orders, fills, funding payments and liquidations
 * (written by platform/engine-host/projector.ts through contract.projection.ts; tables of contract.tables.ts).
 */
import { and, asc, count, desc, eq, gt, inArray, isNotNull, or } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { perpFundingPayments, perpLiquidations, perpOrders, perpTrades } from './perp.tables';
import type { ContractOrderTab } from '@exchange/api';

/** Projected order row. */
export type PerpOrderSelect = typeof perpOrders.$inferSelect;
/** A page of rows with the total count. */
export interface RowPage<T> {
  rows: T[];
  total: number;
}

/** Repository over the contract tables. */
export interface PerpRepository {
  /**
   * Projected orders of a user for a list tab, newest update first: matched = with fills (any status), cancelled =
   * CANCELED or EXPIRED without a fill, history = every ended order; unmatched = not ended (the service reads open
   * orders from the engine instead).
   */
  orders(userId: string, tab: ContractOrderTab, symbol: string | undefined, offset: number, limit: number): Promise<RowPage<PerpOrderSelect>>;
  /**
   * The user's conditional orders that are no longer pending (triggered, or ended before their trigger: cond_type set
   * and either triggered or closed), newest update first.
   */
  conditionalHistory(userId: string, symbol: string | undefined, offset: number, limit: number): Promise<RowPage<PerpOrderSelect>>;
  /** One projected order by id, or undefined. */
  order(orderId: string): Promise<PerpOrderSelect | undefined>;
  /** Fills in which `orderId` was maker or taker, oldest first. */
  fills(orderId: string): Promise<Array<typeof perpTrades.$inferSelect>>;
  /** The user's funding payments, newest first. */
  funding(userId: string, symbol: string | undefined, offset: number, limit: number): Promise<RowPage<typeof perpFundingPayments.$inferSelect>>;
  /** The user's liquidations, newest first. */
  liquidations(userId: string, symbol: string | undefined, offset: number, limit: number): Promise<RowPage<typeof perpLiquidations.$inferSelect>>;
}

/** Creates the repository over `db`. */
export function createPerpRepository(db: Db): PerpRepository {
  return {
    async orders(userId, tab, symbol, offset, limit) {
      const o = perpOrders;
      const byTab =
        tab === 'matched'
          ? gt(o.filledQty, '0')
          : tab === 'cancelled'
            ? and(eq(o.closed, true), inArray(o.status, ['CANCELED', 'EXPIRED']), eq(o.filledQty, '0'))
            : tab === 'history'
              ? eq(o.closed, true)
              : eq(o.closed, false);
      const where = and(eq(o.userId, userId), byTab, symbol ? eq(o.symbol, symbol) : undefined);
      const [rows, totals] = await Promise.all([
        db.select().from(o).where(where).orderBy(desc(o.updatedTs), desc(o.id)).offset(offset).limit(limit),
        db.select({ n: count() }).from(o).where(where),
      ]);
      return { rows, total: Number(totals[0]?.n ?? 0) };
    },
    async conditionalHistory(userId, symbol, offset, limit) {
      const o = perpOrders;
      const where = and(
        eq(o.userId, userId),
        isNotNull(o.condType),
        or(eq(o.closed, true), isNotNull(o.condWorkingTs)),
        symbol ? eq(o.symbol, symbol) : undefined,
      );
      const [rows, totals] = await Promise.all([
        db.select().from(o).where(where).orderBy(desc(o.updatedTs), desc(o.id)).offset(offset).limit(limit),
        db.select({ n: count() }).from(o).where(where),
      ]);
      return { rows, total: Number(totals[0]?.n ?? 0) };
    },
    async order(orderId) {
      const rows = await db
        .select()
        .from(perpOrders)
        .where(eq(perpOrders.id, BigInt(orderId)))
        .limit(1);
      return rows[0];
    },
    async fills(orderId) {
      const id = BigInt(orderId);
      return db
        .select()
        .from(perpTrades)
        .where(or(eq(perpTrades.makerOrderId, id), eq(perpTrades.takerOrderId, id)))
        .orderBy(asc(perpTrades.id));
    },
    async funding(userId, symbol, offset, limit) {
      const f = perpFundingPayments;
      const where = and(eq(f.userId, userId), symbol ? eq(f.symbol, symbol) : undefined);
      const [rows, totals] = await Promise.all([
        db.select().from(f).where(where).orderBy(desc(f.fundingTs), asc(f.symbol)).offset(offset).limit(limit),
        db.select({ n: count() }).from(f).where(where),
      ]);
      return { rows, total: Number(totals[0]?.n ?? 0) };
    },
    async liquidations(userId, symbol, offset, limit) {
      const l = perpLiquidations;
      const where = and(eq(l.userId, userId), symbol ? eq(l.symbol, symbol) : undefined);
      const [rows, totals] = await Promise.all([
        db.select().from(l).where(where).orderBy(desc(l.seq), asc(l.symbol)).offset(offset).limit(limit),
        db.select({ n: count() }).from(l).where(where),
      ]);
      return { rows, total: Number(totals[0]?.n ?? 0) };
    },
  };
}
