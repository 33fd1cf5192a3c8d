/** The platform's table of the projection's progress (platform/db/projection-store.ts). */
import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * How far each projection has written: the journal sequence number of the last command fully projected, and the
 * id of the journal it projects (its genesis command). At start the engine host refuses a database of another
 * journal, or one ahead of the journal (engine-host.ts).
 */
export const projectionCursor = pgTable('projection_cursor', {
  name: text('name').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  journalId: text('journal_id'),
});
