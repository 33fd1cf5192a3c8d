/**
 * Tables of account security (domains/security): the security log, the pending Google authenticator
 * secret (sealed with the secret box until bound), attempt counters with their locks (transaction password,
 * TOTP) and the last TOTP time step used per user (replay). What a withdrawal or a login must trust (the bound
 * TOTP secret, the transaction password hash, the withdrawal lock) lives in the engine's user profile instead.
 */
import { lt } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { RetentionRule } from '../../platform/db/retention';

/**
 * The security log of a user: logins (LOGIN, LOGIN_FAILED), password, transaction password and 2FA changes,
 * bindings and session revocations, with where from. `detail` is a short machine value (e.g. 'EMAIL' for a binding).
 */
export const securityEvents = pgTable(
  'security_events',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'bigint' }).notNull(),
    type: text('type').notNull(),
    detail: text('detail').notNull().default(''),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // created_at: the retention rule's delete finds the old events through it.
  (t) => [index('security_events_user_idx').on(t.userId, t.id), index('security_events_created_idx').on(t.createdAt)],
);

/** The Google authenticator secret offered to a user and not bound yet (sealed: platform/shared/secret-box.ts); one per user. */
export const pendingTotpSecrets = pgTable('pending_totp_secrets', {
  userId: bigint('user_id', { mode: 'bigint' }).primaryKey(),
  sealedSecret: text('sealed_secret').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * Failed attempts per (user, kind): 'TRANS_PASSWORD' or 'TOTP'. `windowStart` is the first failure counted;
 * `lockedUntil` is set when the kind's limit is reached (domains/security/attempts.ts).
 */
export const securityAttempts = pgTable(
  'security_attempts',
  {
    userId: bigint('user_id', { mode: 'bigint' }).notNull(),
    kind: text('kind').notNull(),
    failures: integer('failures').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/** The last TOTP time step (unix seconds / 30) accepted per user: a code is good once (replay). */
export const totpUsedSteps = pgTable('totp_used_steps', {
  userId: bigint('user_id', { mode: 'bigint' }).primaryKey(),
  lastStep: bigint('last_step', { mode: 'number' }).notNull(),
});

/**
 * What the retention job (platform/db/retention.ts) deletes of the security log: events older than
 * RETENTION_SECURITY_EVENTS_DAYS (default 365). The new-device check reads the log, so a device last seen before the
 * horizon counts as new again.
 */
export const securityRetention: readonly RetentionRule[] = [
  {
    name: 'security_events',
    table: securityEvents,
    horizonDays: (r) => r.securityEventsDays,
    expired: (cutoffMs) => lt(securityEvents.createdAt, new Date(cutoffMs)),
  },
];
