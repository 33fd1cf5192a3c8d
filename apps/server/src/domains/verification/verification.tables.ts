/**
 * Tables of the verification area (domains/verification): verification codes, slide-puzzle challenges and the demo
 * outbox. Secrets (codes, puzzle passes) are stored only as hashes; times are `timestamptz`.
 */
import { and, isNull, lt, or, sql } from 'drizzle-orm';
import type { RetentionRule } from '../../platform/db/retention';
import { bigint, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Verification codes (6 digits) sent by e-mail or SMS. `account` is the normalised key ('a@b.c' or
 * '+86 13800000000'); `codeHash` = HMAC-SHA256(salt, code) in hex.
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    account: text('account').notNull(),
    type: text('type').notNull(),
    salt: text('salt').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    ip: text('ip').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  // expires_at: the retention rule's delete finds the old codes through it.
  (t) => [
    index('verification_codes_account_idx').on(t.account, t.type, t.createdAt),
    index('verification_codes_ip_idx').on(t.ip, t.createdAt),
    index('verification_codes_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Slide-puzzle challenges. `answerX` is the hole's left edge in image px. One answer each (`answeredAt`);
 * a right answer stores the sha256 of the issued `geetest_validate` token, usable once (`passUsedAt`)
 * until `passExpiresAt`.
 */
export const captchaChallenges = pgTable(
  'captcha_challenges',
  {
    challenge: text('challenge').primaryKey(),
    randomCode: text('random_code').notNull(),
    answerX: integer('answer_x').notNull(),
    /** The answer's row (the puzzle is two-dimensional: the answer is a place in x and y) and the row the piece starts on. */
    answerY: integer('answer_y').notNull().default(0),
    startY: integer('start_y').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    passed: boolean('passed').notNull().default(false),
    validateHash: text('validate_hash'),
    passExpiresAt: timestamp('pass_expires_at', { withTimezone: true }),
    passUsedAt: timestamp('pass_used_at', { withTimezone: true }),
  },
  (t) => [index('captcha_challenges_expires_idx').on(t.expiresAt)],
);

/** Codes "sent" by the demo sender, readable at GET /api/demo/outbox in demo mode only. */
export const demoOutbox = pgTable(
  'demo_outbox',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The account as the user typed it, normalised: lower-cased e-mail or phone digits. */
    account: text('account').notNull(),
    areaCode: text('area_code').notNull().default(''),
    type: text('type').notNull(),
    code: text('code').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  // created_at: the retention rule's delete finds the old codes through it.
  (t) => [index('demo_outbox_account_idx').on(t.account, t.id), index('demo_outbox_created_idx').on(t.createdAt)],
);

/**
 * What the retention job (platform/db/retention.ts) deletes of the verification tables, RETENTION_CODES_DAYS after
 * they stopped counting: codes after they expired (used or not: a code is good until its expiry only), slide puzzles
 * after they and their pass expired, and the demo outbox's codes after they were sent.
 */
export const verificationRetention: readonly RetentionRule[] = [
  {
    name: 'verification_codes',
    table: verificationCodes,
    horizonDays: (r) => r.codesDays,
    expired: (cutoffMs) => lt(verificationCodes.expiresAt, new Date(cutoffMs)),
  },
  {
    name: 'captcha_challenges',
    table: captchaChallenges,
    horizonDays: (r) => r.codesDays,
    expired: (cutoffMs) =>
      and(
        lt(captchaChallenges.expiresAt, new Date(cutoffMs)),
        or(isNull(captchaChallenges.passExpiresAt), lt(captchaChallenges.passExpiresAt, new Date(cutoffMs))),
      )!,
  },
  { name: 'demo_outbox', table: demoOutbox, horizonDays: (r) => r.codesDays, expired: (cutoffMs) => lt(demoOutbox.createdAt, new Date(cutoffMs)) },
];
