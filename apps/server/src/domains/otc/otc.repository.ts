/**
 * SQL of peer-to-peer fiat trading (domains/otc): reads of the projected merchants, ads and orders (otc.tables.ts,
 * written by the projector only), merchant statistics, and the chat (messages and read marks, written here: the chat
 * is not money and not journaled).
 */
import { and, asc, count, desc, eq, gt, gte, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { otcAds, otcChatReads, otcMerchants, otcMessages, otcOrders } from './otc.tables';

export type OtcMerchantRecord = typeof otcMerchants.$inferSelect;
export type OtcAdRecord = typeof otcAds.$inferSelect;
export type OtcOrderRecord = typeof otcOrders.$inferSelect;
export type OtcMessageRecord = typeof otcMessages.$inferSelect;

/** A merchant's 30-day figures from the projected orders (where the merchant is the ad's owner). */
export interface MerchantStatsRow {
  completed: number;
  cancelled: number;
  /** sum of (release time - paid time) of completed orders with a paid time, ms, and their count */
  releaseMsSum: bigint;
  releaseCount: number;
}

const OPEN_STATES = ['PENDING_PAYMENT', 'PAID', 'APPEAL'];

/** The OTC queries over `db`. */
export function createOtcRepository(db: Db) {
  return {
    /** A merchant row, or null. */
    async merchant(userId: string): Promise<OtcMerchantRecord | null> {
      const rows = await db.select().from(otcMerchants).where(eq(otcMerchants.userId, userId)).limit(1);
      return rows[0] ?? null;
    },

    /** Merchants (optionally of a state), newest change first, one page. */
    async merchants(state: string | undefined, page: number, pageSize: number): Promise<{ total: number; rows: OtcMerchantRecord[] }> {
      const where = state ? eq(otcMerchants.state, state) : undefined;
      const [n] = await db.select({ n: count() }).from(otcMerchants).where(where);
      const rows = await db
        .select()
        .from(otcMerchants)
        .where(where)
        .orderBy(desc(otcMerchants.updatedTs))
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      return { total: Number(n?.n ?? 0), rows };
    },

    /** Completed and cancelled orders of merchant `userId`'s ads ended since `sinceTs`, and release times. */
    async merchantStats(userId: string, sinceTs: number): Promise<MerchantStatsRow> {
      const rows = await db
        .select({
          state: otcOrders.state,
          n: count(),
          releaseMs: sql<string>`coalesce(sum(case when ${otcOrders.paidTs} is not null then ${otcOrders.updatedTs} - ${otcOrders.paidTs} else 0 end), 0)`,
          released: sql<string>`count(${otcOrders.paidTs})`,
        })
        .from(otcOrders)
        .where(and(eq(otcOrders.makerId, userId), inArray(otcOrders.state, ['COMPLETED', 'CANCELLED']), gte(otcOrders.updatedTs, sinceTs)))
        .groupBy(otcOrders.state);
      const out: MerchantStatsRow = { completed: 0, cancelled: 0, releaseMsSum: 0n, releaseCount: 0 };
      for (const r of rows) {
        if (r.state === 'COMPLETED') {
          out.completed = Number(r.n);
          out.releaseMsSum = BigInt(String(r.releaseMs).split('.')[0] ?? '0');
          out.releaseCount = Number(r.released);
        } else {
          out.cancelled = Number(r.n);
        }
      }
      return out;
    },

    /** An ad row, or null. */
    async ad(adId: bigint): Promise<OtcAdRecord | null> {
      const rows = await db.select().from(otcAds).where(eq(otcAds.id, adId)).limit(1);
      return rows[0] ?? null;
    },

    /** A user's ads of every status, newest first. */
    async adsOf(userId: string): Promise<OtcAdRecord[]> {
      return db.select().from(otcAds).where(eq(otcAds.userId, userId)).orderBy(desc(otcAds.id)).limit(200);
    },

    /** Ads for the console (optionally by status and user), newest first, one page. */
    async adsPage(f: { status?: string; userId?: string }, page: number, pageSize: number): Promise<{ total: number; rows: OtcAdRecord[] }> {
      const conds: SQL[] = [];
      if (f.status) conds.push(eq(otcAds.status, f.status));
      if (f.userId) conds.push(eq(otcAds.userId, f.userId));
      const where = conds.length ? and(...conds) : undefined;
      const [n] = await db.select({ n: count() }).from(otcAds).where(where);
      const rows = await db
        .select()
        .from(otcAds)
        .where(where)
        .orderBy(desc(otcAds.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      return { total: Number(n?.n ?? 0), rows };
    },

    /** An order row, or null. */
    async order(orderId: bigint): Promise<OtcOrderRecord | null> {
      const rows = await db.select().from(otcOrders).where(eq(otcOrders.id, orderId)).limit(1);
      return rows[0] ?? null;
    },

    /** A user's orders (as buyer or seller) of a tab, newest first, one page. */
    async ordersOf(
      userId: string,
      tab: 'PENDING' | 'COMPLETED' | 'CANCELLED' | 'ALL',
      page: number,
      pageSize: number,
    ): Promise<{ total: number; rows: OtcOrderRecord[] }> {
      const mine = or(eq(otcOrders.buyerId, userId), eq(otcOrders.sellerId, userId));
      const byTab = tab === 'PENDING' ? inArray(otcOrders.state, OPEN_STATES) : tab === 'ALL' ? undefined : eq(otcOrders.state, tab);
      const where = byTab ? and(mine, byTab) : mine;
      const [n] = await db.select({ n: count() }).from(otcOrders).where(where);
      const rows = await db
        .select()
        .from(otcOrders)
        .where(where)
        .orderBy(desc(otcOrders.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      return { total: Number(n?.n ?? 0), rows };
    },

    /** Orders for the console (optionally by state and a user on either side), newest first, one page. */
    async ordersPage(f: { state?: string; userId?: string }, page: number, pageSize: number): Promise<{ total: number; rows: OtcOrderRecord[] }> {
      const conds: SQL[] = [];
      if (f.state) conds.push(eq(otcOrders.state, f.state));
      if (f.userId) conds.push(or(eq(otcOrders.buyerId, f.userId), eq(otcOrders.sellerId, f.userId)) as SQL);
      const where = conds.length ? and(...conds) : undefined;
      const [n] = await db.select({ n: count() }).from(otcOrders).where(where);
      const rows = await db
        .select()
        .from(otcOrders)
        .where(where)
        .orderBy(desc(otcOrders.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      return { total: Number(n?.n ?? 0), rows };
    },

    /** Adds a chat message; returns the stored row. */
    async addMessage(m: { orderId: bigint; sender: string; authorId: string; text: string; imageId: string; createdTs: number }): Promise<OtcMessageRecord> {
      const [r] = await db.insert(otcMessages).values(m).returning();
      return r!;
    },

    /** An order's messages after id `afterId` (0: all), oldest first, at most `limit`. */
    async messages(orderId: bigint, afterId: bigint, limit = 200): Promise<OtcMessageRecord[]> {
      return db
        .select()
        .from(otcMessages)
        .where(and(eq(otcMessages.orderId, orderId), gt(otcMessages.id, afterId)))
        .orderBy(asc(otcMessages.id))
        .limit(limit);
    },

    /** True when `imageId` was sent in the chat of `orderId`. */
    async chatHasImage(orderId: bigint, imageId: string): Promise<boolean> {
      const rows = await db
        .select({ id: otcMessages.id })
        .from(otcMessages)
        .where(and(eq(otcMessages.orderId, orderId), eq(otcMessages.imageId, imageId)))
        .limit(1);
      return rows.length > 0;
    },

    /** Marks the order's messages up to `lastId` read by `userId`. */
    async markRead(orderId: bigint, userId: string, lastId: bigint): Promise<void> {
      await db
        .insert(otcChatReads)
        .values({ orderId, userId, lastId })
        .onConflictDoUpdate({ target: [otcChatReads.orderId, otcChatReads.userId], set: { lastId: sql`greatest(${otcChatReads.lastId}, excluded.last_id)` } });
    },

    /** Unread messages (written by the other side or an operator; not the SYSTEM notes) of each of `orderIds` for `userId`. */
    async unread(userId: string, orderIds: bigint[]): Promise<Map<string, number>> {
      const out = new Map<string, number>();
      if (orderIds.length === 0) return out;
      const rows = await db
        .select({ orderId: otcMessages.orderId, n: count() })
        .from(otcMessages)
        .leftJoin(otcChatReads, and(eq(otcChatReads.orderId, otcMessages.orderId), eq(otcChatReads.userId, userId)))
        .where(
          and(
            inArray(otcMessages.orderId, orderIds),
            ne(otcMessages.authorId, userId),
            ne(otcMessages.sender, 'SYSTEM'),
            sql`${otcMessages.id} > coalesce(${otcChatReads.lastId}, 0)`,
          ),
        )
        .groupBy(otcMessages.orderId);
      for (const r of rows) out.set(r.orderId.toString(), Number(r.n));
      return out;
    },
  };
}

/** The repository's type. */
export type OtcRepository = ReturnType<typeof createOtcRepository>;
