/**
 * Tables of identity verification: KYC applications (the history: every submission and its decision; their photos are
 * uploads). The verification result itself is journaled in the engine's user profile (cardState, cardNo, realName ...),
 * so it survives the loss of the database; these rows are the bulky detail beside it.
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
