/** SQL of identity verification: the applications (history of submissions and decisions). */
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { kycApplications } from './kyc.tables';

/** An application row. */
export type KycApplicationRow = typeof kycApplications.$inferSelect;
/** Fields of a new application. */
export type NewKycApplication = typeof kycApplications.$inferInsert;

/** True when `err` is a unique violation (PostgreSQL 23505; PGlite reports the same code). */
function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e !== null && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === '23505') return true;
  }
  return false;
}

/** The KYC queries over `db`. */
export function createKycRepository(db: Db) {
  return {
    /** Inserts a PENDING application; returns its id, or null when the user has one PENDING at this level already. */
    async insertPending(row: NewKycApplication): Promise<bigint | null> {
      try {
        const [r] = await db
          .insert(kycApplications)
          .values({ ...row, state: 'PENDING' })
          .returning({ id: kycApplications.id });
        return r!.id;
      } catch (err) {
        if (isUniqueViolation(err)) return null;
        throw err;
      }
    },

    /** Removes an application (one whose journaled state change was refused). */
    async remove(id: bigint): Promise<void> {
      await db.delete(kycApplications).where(eq(kycApplications.id, id));
    },

    /** The application `id`, or null. */
    async find(id: bigint): Promise<KycApplicationRow | null> {
      const rows = await db.select().from(kycApplications).where(eq(kycApplications.id, id)).limit(1);
      return rows[0] ?? null;
    },

    /** The user's latest application at `level`, or null. */
    async latest(userId: bigint, level: string): Promise<KycApplicationRow | null> {
      const rows = await db
        .select()
        .from(kycApplications)
        .where(and(eq(kycApplications.userId, userId), eq(kycApplications.level, level)))
        .orderBy(desc(kycApplications.id))
        .limit(1);
      return rows[0] ?? null;
    },

    /** Records the decision of a PENDING application; false when it was not PENDING (decided meanwhile). */
    async decide(id: bigint, state: 'PASS' | 'REJECTED', reasonZh: string, reasonEn: string, decidedBy: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(kycApplications)
        .set({ state, rejectReasonZh: reasonZh, rejectReasonEn: reasonEn, decidedBy, decidedAt: at })
        .where(and(eq(kycApplications.id, id), eq(kycApplications.state, 'PENDING')))
        .returning({ id: kycApplications.id });
      return rows.length > 0;
    },

    /** One page of applications, PENDING first, then newest first; and the total matching. */
    async list(filter: {
      state?: string;
      level?: string;
      userId?: bigint;
      offset: number;
      limit: number;
    }): Promise<{ total: number; rows: KycApplicationRow[] }> {
      const where: SQL[] = [];
      if (filter.state) where.push(eq(kycApplications.state, filter.state));
      if (filter.level) where.push(eq(kycApplications.level, filter.level));
      if (filter.userId !== undefined) where.push(eq(kycApplications.userId, filter.userId));
      const cond = where.length > 0 ? and(...where) : undefined;
      const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(kycApplications).where(cond);
      const rows = await db
        .select()
        .from(kycApplications)
        .where(cond)
        .orderBy(sql`case when ${kycApplications.state} = 'PENDING' then 0 else 1 end`, desc(kycApplications.id))
        .offset(filter.offset)
        .limit(filter.limit);
      return { total: Number(n), rows };
    },
  };
}
