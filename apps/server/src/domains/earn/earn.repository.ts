/**
 * SQL of fixed-term savings (domains/earn): reads of the projected locks (earn.tables.ts earn_locks, written by the
 * projector only). Every query is scoped to one user.
 */
import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { earnLocks } from './earn.tables';

export type EarnLockRecord = typeof earnLocks.$inferSelect;

/** The savings queries over `db`. */
export function createEarnRepository(db: Db) {
  return {
    /** A user's locks (of a status, or all), newest first, one page. */
    async locks(userId: string, status: 'LOCKED' | 'REDEEMED' | undefined, page: number, pageSize: number): Promise<{ total: number; rows: EarnLockRecord[] }> {
      const where = status === undefined ? eq(earnLocks.userId, userId) : and(eq(earnLocks.userId, userId), eq(earnLocks.status, status));
      const [n] = await db.select({ n: count() }).from(earnLocks).where(where);
      const order = status === 'REDEEMED' ? [desc(earnLocks.redeemedTs), desc(earnLocks.id)] : [desc(earnLocks.id)];
      const rows = await db
        .select()
        .from(earnLocks)
        .where(where)
        .orderBy(...order)
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      return { total: Number(n?.n ?? 0), rows };
    },
  };
}
