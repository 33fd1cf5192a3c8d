/** Tables of the payment methods a user trades fiat with (domains/payment; their images are uploads). */
import { bigint, boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * A user's payment methods for fiat trading: BANK (bank name, branch, card number) or WECHAT / ALIPAY (account
 * and a PAY_QR upload). `realName` is copied from the verified real name when saved (never an input).
 */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'bigint' }).notNull(),
    payType: text('pay_type').notNull(),
    realName: text('real_name').notNull(),
    bankName: text('bank_name').notNull().default(''),
    branch: text('branch').notNull().default(''),
    cardNo: text('card_no').notNull().default(''),
    account: text('account').notNull().default(''),
    qrImageId: text('qr_image_id'),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payment_methods_user_idx').on(t.userId, t.id)],
);
