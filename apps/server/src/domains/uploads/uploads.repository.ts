/** SQL of the uploads area: the metadata rows of uploaded images (the bytes are in the upload storage). */
import { and, asc, count, eq, gte, inArray, lt, not, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { uploads } from './uploads.tables';

/** An upload row. */
export type UploadRow = typeof uploads.$inferSelect;

/**
 * True for an `uploads` row that some other table refers to. Every table that stores an upload id is here (a new one
 * must be added, or its images are removed as unused once the grace period is over; uploads.cleanup.test.ts has one
 * reference from each and fails on a table it does not know):
 * - `kyc_applications`: `front_image_id`, `back_image_id`, `handheld_image_id` (every submission, decided or not);
 * - `payment_methods.qr_image_id` (a WeChat / Alipay QR code);
 * - `support_messages.image_id` (a support ticket's image);
 * - `otc_messages.image_id` (an OTC order's chat image);
 * - `otc_orders.meta`, the order's JSON fields from the engine's commands: `proof` (payment proof) and `appealImages`
 *   (appeal evidence, comma-separated). Matched as a substring of the JSON text, so a malformed `meta` never fails the
 *   query and an id anywhere in it (even in a text field) keeps the image: a false match keeps an image, it never
 *   removes one. Only the owner's orders are searched (indexed by buyer and seller): the OTC service accepts only the
 *   caller's own images, and the caller is the order's buyer or seller.
 * Content banners keep their bytes in `content_images` (not uploads), and the profile has no image: neither is here.
 */
export function uploadIsReferenced(): SQL {
  return or(...referenceChecks())!;
}

/**
 * The negation of `uploadIsReferenced` as a conjunction of NOT EXISTS, one equality each, so that PostgreSQL runs each
 * as an anti-join (one pass over the referencing table per batch, not one per candidate row).
 */
export function uploadIsUnreferenced(): SQL {
  return and(...referenceChecks().map((c) => not(c)))!;
}

/** One EXISTS per place an upload id is stored (`uploadIsReferenced`), over the outer query's `uploads` row. */
function referenceChecks(): SQL[] {
  const id = uploads.id;
  const owner = sql`${uploads.userId}::text`;
  return [
    sql`exists (select 1 from kyc_applications k where k.front_image_id = ${id})`,
    sql`exists (select 1 from kyc_applications k where k.back_image_id = ${id})`,
    sql`exists (select 1 from kyc_applications k where k.handheld_image_id = ${id})`,
    sql`exists (select 1 from payment_methods p where p.qr_image_id = ${id})`,
    sql`exists (select 1 from support_messages s where s.image_id = ${id})`,
    sql`exists (select 1 from otc_messages m where m.image_id = ${id})`,
    sql`exists (select 1 from otc_orders o where (o.buyer_id = ${owner} or o.seller_id = ${owner}) and position(${id} in o.meta) > 0)`,
  ];
}

/** The upload queries over `db`. */
export function createUploadsRepository(db: Db) {
  return {
    /** Records an upload. */
    async insert(row: typeof uploads.$inferInsert): Promise<void> {
      await db.insert(uploads).values(row);
    },

    /** How many images `userId` has stored (live or not yet removed). */
    async countByUser(userId: bigint): Promise<number> {
      const [r] = await db.select({ n: count() }).from(uploads).where(eq(uploads.userId, userId));
      return Number(r?.n ?? 0);
    },

    /**
     * How many of `userId`'s images are live: uploaded at or after `freshSince` (still in their grace period), or
     * referenced by another table (`uploadIsReferenced`).
     */
    async countLiveByUser(userId: bigint, freshSince: Date): Promise<number> {
      const [fresh] = await db
        .select({ n: count() })
        .from(uploads)
        .where(and(eq(uploads.userId, userId), gte(uploads.createdAt, freshSince)));
      const [used] = await db
        .select({ n: count() })
        .from(uploads)
        .where(and(eq(uploads.userId, userId), lt(uploads.createdAt, freshSince), uploadIsReferenced()));
      return Number(fresh?.n ?? 0) + Number(used?.n ?? 0);
    },

    /** True when another table refers to the upload `id` (`uploadIsReferenced`). */
    async isReferenced(id: string): Promise<boolean> {
      const rows = await db
        .select({ id: uploads.id })
        .from(uploads)
        .where(and(eq(uploads.id, id), uploadIsReferenced()))
        .limit(1);
      return rows.length > 0;
    },

    /**
     * Deletes at most `limit` rows of images uploaded before `before` that no table refers to, oldest first, in one
     * statement (the reference check and the delete see the same snapshot); answers their storage keys and sizes.
     */
    async deleteUnused(before: Date, limit: number): Promise<Array<{ id: string; storageKey: string; bytes: number }>> {
      const candidates = db
        .select({ id: uploads.id })
        .from(uploads)
        .where(and(lt(uploads.createdAt, before), uploadIsUnreferenced()))
        .orderBy(asc(uploads.createdAt))
        .limit(limit);
      return db
        .delete(uploads)
        .where(and(inArray(uploads.id, candidates), lt(uploads.createdAt, before), uploadIsUnreferenced()))
        .returning({ id: uploads.id, storageKey: uploads.storageKey, bytes: uploads.bytes });
    },

    /** The upload with id `id`, or null. */
    async find(id: string): Promise<UploadRow | null> {
      const rows = await db.select().from(uploads).where(eq(uploads.id, id)).limit(1);
      return rows[0] ?? null;
    },
  };
}
