/**
 * SQL of API keys (api-keys.tables.ts): insert with the per-user limit, the live keys of a user, one
 * key by its public string, soft deletes (the operator's with its audit row in the same transaction) and the
 * last-used stamp. Times come in from the service (its clock).
 */
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { apiKeys } from './api-keys.tables';
import { auditLog } from '../../platform/db/schema/audit';

/** An API key row as stored. */
export type ApiKeyRow = typeof apiKeys.$inferSelect;
/** The columns of a new key. */
export type ApiKeyInsert = Omit<typeof apiKeys.$inferInsert, 'id' | 'lastUsedAt' | 'deletedAt'>;
/** An audit row of an operator's action. */
export type ApiKeyAuditInsert = typeof auditLog.$inferInsert;

/** The API key queries over `db`. */
export function createApiKeysRepository(db: Db) {
  return {
    /**
     * Inserts a key unless the user already has `max` live keys (counted in the same transaction); the new row, or
     * null when the limit is reached.
     */
    async insert(row: ApiKeyInsert, max: number): Promise<ApiKeyRow | null> {
      return db.transaction(async (tx) => {
        const [n] = await tx
          .select({ n: count() })
          .from(apiKeys)
          .where(and(eq(apiKeys.userId, row.userId), isNull(apiKeys.deletedAt)));
        if (Number(n?.n ?? 0) >= max) return null;
        const [ins] = await tx.insert(apiKeys).values(row).returning();
        return ins ?? null;
      });
    },

    /** The live (not deleted) keys of a user, newest first. */
    async listByUser(userId: bigint): Promise<ApiKeyRow[]> {
      return db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.deletedAt)))
        .orderBy(desc(apiKeys.id));
    },

    /** The key whose public string is `apiKey` (deleted or not), or null. */
    async byApiKey(apiKey: string): Promise<ApiKeyRow | null> {
      const rows = await db.select().from(apiKeys).where(eq(apiKeys.apiKey, apiKey)).limit(1);
      return rows[0] ?? null;
    },

    /** Marks the live key `id` of `userId` deleted; the row as it was, or null when there is no such live key of that user. */
    async softDelete(userId: bigint, id: bigint, at: Date): Promise<ApiKeyRow | null> {
      const rows = await db
        .update(apiKeys)
        .set({ deletedAt: at })
        .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.deletedAt)))
        .returning();
      return rows[0] ?? null;
    },

    /**
     * An operator's delete: marks the live key `id` deleted and appends the audit row built from it, in one
     * transaction; the row, or null when there is no such live key (nothing written).
     */
    async adminDelete(id: bigint, at: Date, audit: (row: ApiKeyRow) => ApiKeyAuditInsert): Promise<ApiKeyRow | null> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .update(apiKeys)
          .set({ deletedAt: at })
          .where(and(eq(apiKeys.id, id), isNull(apiKeys.deletedAt)))
          .returning();
        const row = rows[0];
        if (!row) return null;
        await tx.insert(auditLog).values(audit(row));
        return row;
      });
    },

    /** Stamps the last use of key `id`. */
    async touch(id: bigint, at: Date): Promise<void> {
      await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id));
    },
  };
}

/** The repository's type. */
export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
