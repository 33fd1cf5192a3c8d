/**
 * SQL of app versions: a version, its bundle and the operator's audit row are written in one transaction; reads
 * are the newest live version of a platform, the list, one bundle.
 */
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { appBundles, appVersions } from './app-version.tables';
import { auditLog } from '../../platform/db/schema/audit';

/** A version row as read. */
export type AppVersionRow = typeof appVersions.$inferSelect;
/** An audit row to insert with a change. */
export type AuditInsert = typeof auditLog.$inferInsert;

/** The app version queries over `db`. */
export function createAppVersionRepository(db: Db) {
  return {
    /** The newest version of `platform` by version order, withdrawn ones included when `withWithdrawn`; null when none. */
    async newest(platform: string, withWithdrawn: boolean): Promise<AppVersionRow | null> {
      const cond = withWithdrawn ? eq(appVersions.platform, platform) : and(eq(appVersions.platform, platform), isNull(appVersions.withdrawnAt));
      const rows = await db.select().from(appVersions).where(cond).orderBy(desc(appVersions.versionOrder)).limit(1);
      return rows[0] ?? null;
    },

    /** Every version, newest publication first (a console list: a few rows a month). */
    async list(limit: number): Promise<AppVersionRow[]> {
      return db.select().from(appVersions).orderBy(desc(appVersions.id)).limit(limit);
    },

    /** One version by id, or null. */
    async byId(id: bigint): Promise<AppVersionRow | null> {
      const rows = await db.select().from(appVersions).where(eq(appVersions.id, id)).limit(1);
      return rows[0] ?? null;
    },

    /**
     * Inserts a version, its bundle zip (when given) and the audit row built from the new row, in one transaction.
     * Null when the platform already has this version (the unique index; a concurrent publish of the same version).
     */
    async insert(
      row: Omit<typeof appVersions.$inferInsert, 'id'>,
      zip: Buffer | null,
      audit: (r: AppVersionRow) => AuditInsert,
    ): Promise<AppVersionRow | null> {
      return db.transaction(async (tx) => {
        const inserted = await tx.insert(appVersions).values(row).onConflictDoNothing().returning();
        const r = inserted[0];
        if (!r) return null;
        if (zip) await tx.insert(appBundles).values({ versionId: r.id, zip });
        await tx.insert(auditLog).values(audit(r));
        return r;
      });
    },

    /** Marks a live version withdrawn at `at` with its audit row; null when it is unknown or withdrawn already. */
    async withdraw(id: bigint, at: Date, audit: (r: AppVersionRow) => AuditInsert): Promise<AppVersionRow | null> {
      return db.transaction(async (tx) => {
        const updated = await tx
          .update(appVersions)
          .set({ withdrawnAt: at })
          .where(and(eq(appVersions.id, id), isNull(appVersions.withdrawnAt)))
          .returning();
        const r = updated[0];
        if (!r) return null;
        await tx.insert(auditLog).values(audit(r));
        return r;
      });
    },

    /** The bundle zip of a version, or null. */
    async bundle(versionId: bigint): Promise<Buffer | null> {
      const rows = await db.select({ zip: appBundles.zip }).from(appBundles).where(eq(appBundles.versionId, versionId)).limit(1);
      return rows[0]?.zip ?? null;
    },
  };
}

/** The repository's type. */
export type AppVersionRepository = ReturnType<typeof createAppVersionRepository>;
