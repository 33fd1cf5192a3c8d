/** SQL of the uploads area: the metadata rows of uploaded images (the bytes are in the upload storage). */
import { count, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { uploads } from './uploads.tables';

/** An upload row. */
export type UploadRow = typeof uploads.$inferSelect;

/** The upload queries over `db`. */
export function createUploadsRepository(db: Db) {
  return {
    /** Records an upload. */
    async insert(row: typeof uploads.$inferInsert): Promise<void> {
      await db.insert(uploads).values(row);
    },

    /** How many images `userId` has stored. */
    async countByUser(userId: bigint): Promise<number> {
      const [r] = await db.select({ n: count() }).from(uploads).where(eq(uploads.userId, userId));
      return Number(r?.n ?? 0);
    },

    /** The upload with id `id`, or null. */
    async find(id: string): Promise<UploadRow | null> {
      const rows = await db.select().from(uploads).where(eq(uploads.id, id)).limit(1);
      return rows[0] ?? null;
    },
  };
}
