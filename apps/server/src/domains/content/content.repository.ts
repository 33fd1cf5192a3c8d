/**
 * All SQL of the content module: items (draft and published copy as JSON), uploaded images, and each change's audit
 * row in the same transaction as the change. The app's reads look at `published` only; the console's at both.
 */
import { and, asc, count, desc, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { ContentFields, ContentKind } from '@exchange/api';
import type { Db } from '../../platform/db/client';
import { auditLog } from '../../platform/db/schema/audit';
import { contentImages, contentItems } from './content.tables';
import type { AuditInsert } from '../admin/admin.repository';

/** An item row; `draft` and `published` are ContentFields. */
export interface ItemRow {
  id: number;
  kind: ContentKind;
  slug: string | null;
  draft: ContentFields;
  published: ContentFields | null;
  revision: number;
  publishedRevision: number;
  createdAt: Date;
  updatedAt: Date;
  publishedAt: Date | null;
  firstPublishedAt: Date | null;
  updatedBy: string;
}

/** A row to insert. */
export type ItemInsert = Omit<ItemRow, 'id'>;

/** The column of a text field of a JSON copy: `<column>->>'<field>'`. */
function field(col: 'draft' | 'published', name: keyof ContentFields): SQL {
  return col === 'draft' ? sql`(${contentItems.draft}->>${name})` : sql`(${contentItems.published}->>${name})`;
}

/** A LIKE pattern matching `q` literally anywhere (%, _ and \ escaped). */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Content queries over `db`. */
export function createContentRepository(db: Db) {
  const asRow = (r: typeof contentItems.$inferSelect): ItemRow => r as unknown as ItemRow;
  return {
    /** One page of items of a kind (optionally of one parent), in display order, and the total. */
    async list(kind: ContentKind, parentId: string | undefined, offset: number, limit: number): Promise<{ total: number; rows: ItemRow[] }> {
      const conds: SQL[] = [eq(contentItems.kind, kind)];
      if (parentId !== undefined) conds.push(sql`${field('draft', 'parentId')} = ${parentId}`);
      const where = and(...conds);
      const [n] = await db.select({ n: count() }).from(contentItems).where(where);
      const order =
        kind === 'notice'
          ? [sql`${contentItems.firstPublishedAt} desc nulls first`, desc(contentItems.id)]
          : [sql`(${field('draft', 'sort')})::int`, asc(contentItems.id)];
      const rows = await db
        .select()
        .from(contentItems)
        .where(where)
        .orderBy(...order)
        .offset(offset)
        .limit(limit);
      return { total: Number(n?.n ?? 0), rows: rows.map(asRow) };
    },

    /** The item of this id, or null. */
    async byId(id: number): Promise<ItemRow | null> {
      const r = await db.select().from(contentItems).where(eq(contentItems.id, id)).limit(1);
      return r[0] ? asRow(r[0]) : null;
    },

    /** Number of articles whose draft or published copy is in category `id`. */
    async childCount(id: number): Promise<number> {
      const key = String(id);
      const [n] = await db
        .select({ n: count() })
        .from(contentItems)
        .where(and(eq(contentItems.kind, 'help_article'), sql`(${field('draft', 'parentId')} = ${key} or ${field('published', 'parentId')} = ${key})`));
      return Number(n?.n ?? 0);
    },

    /** Inserts an item and its audit row (built from the new id) in one transaction. */
    async insert(row: ItemInsert, audit: (item: ItemRow) => AuditInsert): Promise<ItemRow> {
      return db.transaction(async (tx) => {
        const [inserted] = await tx.insert(contentItems).values(row).returning();
        const item = asRow(inserted!);
        await tx.insert(auditLog).values(audit(item));
        return item;
      });
    },

    /**
     * Sets columns of item `id` when its revision is still `revision` (a concurrent change wins: null then), and
     * writes the audit row built from the updated item, in one transaction.
     */
    async update(id: number, revision: number, set: Partial<ItemInsert>, audit: (item: ItemRow) => AuditInsert): Promise<ItemRow | null> {
      return db.transaction(async (tx) => {
        const r = await tx
          .update(contentItems)
          .set(set)
          .where(and(eq(contentItems.id, id), eq(contentItems.revision, revision)))
          .returning();
        if (!r[0]) return null;
        const item = asRow(r[0]);
        await tx.insert(auditLog).values(audit(item));
        return item;
      });
    },

    /** Deletes item `id` (at `revision`) with its audit row; false when it changed or is gone. */
    async remove(id: number, revision: number, audit: AuditInsert): Promise<boolean> {
      return db.transaction(async (tx) => {
        const r = await tx
          .delete(contentItems)
          .where(and(eq(contentItems.id, id), eq(contentItems.revision, revision)))
          .returning({ id: contentItems.id });
        if (r.length === 0) return false;
        await tx.insert(auditLog).values(audit);
        return true;
      });
    },

    /**
     * The first start's content: when there is no item at all, inserts `rows`, then the rows `more` builds from the
     * ids of the help categories just written (by slug), in one transaction. Items with a (kind, slug) written
     * meanwhile by another process are skipped. False when there were items already.
     */
    async seedIfEmpty(rows: ItemInsert[], more: (categoryIds: Map<string, number>) => ItemInsert[]): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [n] = await tx.select({ n: count() }).from(contentItems);
        if (Number(n?.n ?? 0) > 0) return false;
        if (rows.length > 0) await tx.insert(contentItems).values(rows).onConflictDoNothing();
        const cats = await tx.select({ id: contentItems.id, slug: contentItems.slug }).from(contentItems).where(eq(contentItems.kind, 'help_category'));
        const extra = more(new Map(cats.filter((c) => c.slug !== null).map((c) => [c.slug!, c.id])));
        if (extra.length > 0) await tx.insert(contentItems).values(extra).onConflictDoNothing();
        return true;
      });
    },

    // ---------------------------------------------------------------- the app's reads: published copies only

    /** Published items of a kind in display order (notices: newest first publication first), at most `limit`. */
    async published(kind: ContentKind, limit: number): Promise<ItemRow[]> {
      const order =
        kind === 'notice' ? [desc(contentItems.firstPublishedAt), desc(contentItems.id)] : [sql`(${field('published', 'sort')})::int`, asc(contentItems.id)];
      const rows = await db
        .select()
        .from(contentItems)
        .where(and(eq(contentItems.kind, kind), isNotNull(contentItems.published)))
        .orderBy(...order)
        .limit(limit);
      return rows.map(asRow);
    },

    /** The published item of a kind and id, or null (unpublished, another kind or unknown). */
    async publishedItem(kind: ContentKind, id: number): Promise<ItemRow | null> {
      const r = await db
        .select()
        .from(contentItems)
        .where(and(eq(contentItems.id, id), eq(contentItems.kind, kind), isNotNull(contentItems.published)))
        .limit(1);
      return r[0] ? asRow(r[0]) : null;
    },

    /** The published page of a slug, or null. */
    async publishedPage(slug: string): Promise<ItemRow | null> {
      const r = await db
        .select()
        .from(contentItems)
        .where(and(eq(contentItems.kind, 'page'), eq(contentItems.slug, slug), isNotNull(contentItems.published)))
        .limit(1);
      return r[0] ? asRow(r[0]) : null;
    },

    /** Published articles whose published category is one of the published categories, in display order. */
    async publishedArticles(categoryId?: number): Promise<ItemRow[]> {
      const conds: SQL[] = [eq(contentItems.kind, 'help_article'), isNotNull(contentItems.published)];
      if (categoryId !== undefined) conds.push(sql`${field('published', 'parentId')} = ${String(categoryId)}`);
      const rows = await db
        .select()
        .from(contentItems)
        .where(and(...conds))
        .orderBy(sql`(${field('published', 'sort')})::int`, asc(contentItems.id));
      return rows.map(asRow);
    },

    /**
     * Published articles whose title or body in `lang` contains `q` (case-insensitive), at most `limit`, title
     * matches first.
     */
    async searchArticles(lang: 'zh' | 'en', q: string, limit: number): Promise<ItemRow[]> {
      const title = field('published', lang === 'zh' ? 'titleZh' : 'titleEn');
      const body = field('published', lang === 'zh' ? 'bodyZh' : 'bodyEn');
      const pattern = containsPattern(q);
      const rows = await db
        .select()
        .from(contentItems)
        .where(
          and(
            eq(contentItems.kind, 'help_article'),
            isNotNull(contentItems.published),
            sql`(${title} ilike ${pattern} escape '\\' or ${body} ilike ${pattern} escape '\\')`,
          ),
        )
        .orderBy(sql`case when ${title} ilike ${pattern} escape '\\' then 0 else 1 end`, sql`(${field('published', 'sort')})::int`, asc(contentItems.id))
        .limit(limit);
      return rows.map(asRow);
    },

    // ---------------------------------------------------------------- images

    /** Stores an uploaded image and its audit row (no-op for the image when the same bytes exist already). */
    async insertImage(row: typeof contentImages.$inferInsert, audit: AuditInsert): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.insert(contentImages).values(row).onConflictDoNothing();
        await tx.insert(auditLog).values(audit);
      });
    },

    /** An uploaded image, or null. */
    async image(file: string): Promise<{ mime: string; bytes: Buffer } | null> {
      const r = await db.select({ mime: contentImages.mime, bytes: contentImages.bytes }).from(contentImages).where(eq(contentImages.file, file)).limit(1);
      return r[0] ?? null;
    },

    /** Whether an image exists. */
    async imageExists(file: string): Promise<boolean> {
      return (await db.select({ f: contentImages.file }).from(contentImages).where(eq(contentImages.file, file)).limit(1)).length > 0;
    },

    /** Whether a published banner shows the image at `url` (in either language). */
    async imagePublished(url: string): Promise<boolean> {
      const r = await db
        .select({ id: contentItems.id })
        .from(contentItems)
        .where(
          and(
            eq(contentItems.kind, 'banner'),
            isNotNull(contentItems.published),
            sql`(${field('published', 'imageZh')} = ${url} or ${field('published', 'imageEn')} = ${url})`,
          ),
        )
        .limit(1);
      return r.length > 0;
    },
  };
}

/** The content repository. */
export type ContentRepository = ReturnType<typeof createContentRepository>;
