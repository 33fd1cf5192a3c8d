/**
 * SQL of proof of reserves: a snapshot, its leaves and (when an operator asked for it) its audit row are written in
 * one transaction; reads are the latest snapshot, its leaves in index order, and one user's leaf.
 */
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { auditLog } from '../../platform/db/schema/audit';
import { reservesLeaves, reservesSnapshots } from './reserves.tables';

/** A snapshot row as read. */
export type SnapshotRow = typeof reservesSnapshots.$inferSelect;
/** A leaf row as read. */
export type LeafRow = typeof reservesLeaves.$inferSelect;
/** An audit row to insert with the snapshot. */
export type AuditInsert = typeof auditLog.$inferInsert;

/** Leaves per INSERT statement (a statement's parameters stay far below PostgreSQL's 65535). */
const LEAF_BATCH = 1000;

/** The reserves queries over `db`. */
export function createReservesRepository(db: Db) {
  return {
    /**
     * Inserts the snapshot, its leaves (`snapshotId` filled in here) and the audit row built from the new id, in one
     * transaction; returns the snapshot's id.
     */
    async insertSnapshot(
      snapshot: Omit<typeof reservesSnapshots.$inferInsert, 'id'>,
      leaves: ReadonlyArray<Omit<typeof reservesLeaves.$inferInsert, 'snapshotId'>>,
      audit: ((snapshotId: number) => AuditInsert) | null,
    ): Promise<number> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(reservesSnapshots).values(snapshot).returning({ id: reservesSnapshots.id });
        const snapshotId = row!.id;
        for (let i = 0; i < leaves.length; i += LEAF_BATCH) {
          await tx.insert(reservesLeaves).values(leaves.slice(i, i + LEAF_BATCH).map((l) => ({ ...l, snapshotId })));
        }
        if (audit) await tx.insert(auditLog).values(audit(snapshotId));
        return snapshotId;
      });
    },

    /** The newest snapshot, or null when none was taken. */
    async latest(): Promise<SnapshotRow | null> {
      const rows = await db.select().from(reservesSnapshots).orderBy(desc(reservesSnapshots.id)).limit(1);
      return rows[0] ?? null;
    },

    /** Every leaf of a snapshot, by index. */
    async leaves(snapshotId: number): Promise<LeafRow[]> {
      return db.select().from(reservesLeaves).where(eq(reservesLeaves.snapshotId, snapshotId)).orderBy(asc(reservesLeaves.leafIndex));
    },

    /** One user's leaf in a snapshot, or null. */
    async leafOf(snapshotId: number, userId: bigint): Promise<LeafRow | null> {
      const rows = await db
        .select()
        .from(reservesLeaves)
        .where(and(eq(reservesLeaves.snapshotId, snapshotId), eq(reservesLeaves.userId, userId)))
        .limit(1);
      return rows[0] ?? null;
    },
  };
}

/** The repository's type. */
export type ReservesRepository = ReturnType<typeof createReservesRepository>;
