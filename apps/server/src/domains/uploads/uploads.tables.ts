/** The uploads area's table (domains/uploads): the metadata of uploaded images; the bytes are in the upload storage under DATA_DIR. */
import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Images a user uploaded, re-encoded by the server (domains/uploads). `id` is 128 random bits (base64url), the
 * only name the image has: never derived from the user, the time or a sequence. `purpose` is ID_FRONT, ID_BACK,
 * ID_HANDHELD or PAY_QR; `storageKey` the name in the upload storage.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'bigint' }).notNull(),
    purpose: text('purpose').notNull(),
    mime: text('mime').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** Size of the stored (re-encoded) image. */
    bytes: integer('bytes').notNull(),
    /** sha256 (hex) of the stored bytes. */
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('uploads_user_idx').on(t.userId, t.createdAt)],
);
