/**
 * Content edited in the console: banners, notices, help centre categories and articles, and the fixed
 * text pages, each with its draft and its published copy (JSON objects of packages/api ContentFields), plus the
 * images operators upload for banners. This content moves no money and is not in the journal: the database is its
 * only copy (docs/content.md: what a lost database loses and how it is backed up). The seed (domains/content) writes
 * the demo's initial content, published, once per slug.
 */
import { bigint, customType, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** PostgreSQL bytea as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** One content item. `kind`: banner | notice | help_category | help_article | page. */
export const contentItems = pgTable(
  'content_items',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    /** Stable key of a seeded item or a page (seeding is idempotent by it); null for items created in the console. */
    slug: text('slug'),
    /** The draft (ContentFields): what operators edit and preview. */
    draft: jsonb('draft').notNull(),
    /** The published copy (ContentFields): the only thing the app reads; null when not published. */
    published: jsonb('published'),
    /** Bumped by every change of the draft; `publishedRevision` = the revision that was published (0 = never). */
    revision: integer('revision').notNull().default(1),
    publishedRevision: integer('published_revision').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** The first publication: a notice's time in the app. */
    firstPublishedAt: timestamp('first_published_at', { withTimezone: true }),
    updatedBy: text('updated_by').notNull(),
  },
  (t) => [uniqueIndex('content_items_kind_slug_uq').on(t.kind, t.slug), index('content_items_kind_idx').on(t.kind)],
);

/** An image uploaded in the console (cleaned and re-encoded, domains/uploads/image.ts), named by its content hash. */
export const contentImages = pgTable('content_images', {
  /** "<32 hex of its sha256>.<png|jpg|webp>": the last part of its URL /api/static/content/<file>. */
  file: text('file').primaryKey(),
  mime: text('mime').notNull(),
  bytes: bytea('bytes').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  operatorId: bigint('operator_id', { mode: 'bigint' }),
});
