/**
 * Tables of identity verification and payment methods: KYC applications (the history: every submission and its
 * decision) and the user's payment methods (their images are uploads, uploads.ts). The verification result itself is journaled in the engine's user profile (cardState,
 * cardNo, realName ...), so it survives the loss of the database; these rows are the bulky detail beside it.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Identity verification applications, BASIC (country, name, document) or ADVANCED (three photos). `state` is
 * PENDING until an operator decides (PASS or REJECTED, with the reason in both languages); at most one PENDING
 * application per user and level (partial unique index). `idNumber` is kept whole for the review and the
 * uniqueness key; the user only ever sees it masked.
 */
export const kycApplications = pgTable(
  'kyc_applications',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'bigint' }).notNull(),
    level: text('level').notNull(),
    state: text('state').notNull(),
    country: text('country').notNull().default(''),
    realName: text('real_name').notNull().default(''),
    idType: text('id_type').notNull().default(''),
    idNumber: text('id_number').notNull().default(''),
    guardianConsent: boolean('guardian_consent').notNull().default(false),
    frontImageId: text('front_image_id'),
    backImageId: text('back_image_id'),
    handheldImageId: text('handheld_image_id'),
    rejectReasonZh: text('reject_reason_zh').notNull().default(''),
    rejectReasonEn: text('reject_reason_en').notNull().default(''),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** The operator id of the decision (from the audit record), '' before it. */
    decidedBy: text('decided_by').notNull().default(''),
  },
  (t) => [
    index('kyc_applications_user_idx').on(t.userId, t.level, t.id),
    index('kyc_applications_state_idx').on(t.state, t.id),
    uniqueIndex('kyc_applications_one_pending_uq')
      .on(t.userId, t.level)
      .where(sql`${t.state} = 'PENDING'`),
  ],
);

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
