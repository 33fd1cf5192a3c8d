/**
 * SQL of convert (domains/convert): the quotes the service gave (convert.tables.ts convert_quotes). Not money: a quote
 * only says what the confirm command will require; the conversion itself is a journaled engine command.
 */
import { eq, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { convertQuotes } from './convert.tables';

export type ConvertQuoteRecord = typeof convertQuotes.$inferSelect;

/** The convert queries over `db`. */
export function createConvertRepository(db: Db) {
  return {
    async insert(row: typeof convertQuotes.$inferInsert): Promise<void> {
      await db.insert(convertQuotes).values(row);
    },
    async quote(id: string): Promise<ConvertQuoteRecord | null> {
      const rows = await db.select().from(convertQuotes).where(eq(convertQuotes.id, id)).limit(1);
      return rows[0] ?? null;
    },
    /** Deletes quotes that expired before `ts` (a confirmed quote's order is in the spot order history). */
    async prune(ts: number): Promise<void> {
      await db.delete(convertQuotes).where(lt(convertQuotes.expiresTs, ts));
    },
  };
}
