/** SQL of payment methods. Every query is scoped by the owner's user id: a method is never reached by its id alone. */
import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { paymentMethods } from './payment.tables';

/** A payment method row. */
export type PaymentRow = typeof paymentMethods.$inferSelect;
/** The fields a user sets. */
export type PaymentFields = Pick<typeof paymentMethods.$inferInsert, 'payType' | 'realName' | 'bankName' | 'branch' | 'cardNo' | 'account' | 'qrImageId'>;

/** The payment-method queries over `db`. */
export function createPaymentRepository(db: Db) {
  const mine = (userId: bigint, id: bigint) => and(eq(paymentMethods.userId, userId), eq(paymentMethods.id, id));
  return {
    /** The user's methods, oldest first. */
    async list(userId: bigint): Promise<PaymentRow[]> {
      return db.select().from(paymentMethods).where(eq(paymentMethods.userId, userId)).orderBy(asc(paymentMethods.id));
    },

    /** How many methods the user has. */
    async count(userId: bigint): Promise<number> {
      const [r] = await db.select({ n: count() }).from(paymentMethods).where(eq(paymentMethods.userId, userId));
      return Number(r?.n ?? 0);
    },

    /** Adds a method (enabled); returns its id. */
    async insert(userId: bigint, fields: PaymentFields, at: Date): Promise<bigint> {
      const [r] = await db
        .insert(paymentMethods)
        .values({ userId, ...fields, enabled: true, createdAt: at, updatedAt: at })
        .returning({ id: paymentMethods.id });
      return r!.id;
    },

    /** Replaces the fields of the user's method `id`; false when the user has no such method. */
    async update(userId: bigint, id: bigint, fields: PaymentFields, at: Date): Promise<boolean> {
      const rows = await db
        .update(paymentMethods)
        .set({ ...fields, updatedAt: at })
        .where(mine(userId, id))
        .returning({ id: paymentMethods.id });
      return rows.length > 0;
    },

    /** Enables or disables the user's method `id`; false when the user has no such method. */
    async setEnabled(userId: bigint, id: bigint, enabled: boolean, at: Date): Promise<boolean> {
      const rows = await db.update(paymentMethods).set({ enabled, updatedAt: at }).where(mine(userId, id)).returning({ id: paymentMethods.id });
      return rows.length > 0;
    },

    /** The user's method `id`, or null. */
    async find(userId: bigint, id: bigint): Promise<PaymentRow | null> {
      const rows = await db.select().from(paymentMethods).where(mine(userId, id)).limit(1);
      return rows[0] ?? null;
    },

    /** Deletes the user's method `id`; false when the user has no such method. */
    async remove(userId: bigint, id: bigint): Promise<boolean> {
      const rows = await db.delete(paymentMethods).where(mine(userId, id)).returning({ id: paymentMethods.id });
      return rows.length > 0;
    },
  };
}
