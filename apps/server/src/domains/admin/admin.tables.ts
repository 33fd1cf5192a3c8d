/**
 * Tables of the operator console: operators (separate from users), their short-lived sessions and their failed logins
 * (the lockout). The audit log of every operator action is a platform table (platform/db/schema/audit.ts). Secrets are
 * stored only as hashes (passwords: argon2id; session tokens: sha256) or sealed (the TOTP secret: platform/shared/secret-box).
 */
import { lt, or } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { RetentionRule } from '../../platform/db/retention';

/** Console operators. `role` is support | compliance | finance | admin (platform/shared/operator.ts). */
export const operators = pgTable(
  'operators',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Lower-cased e-mail: the login name. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role').notNull(),
    /** argon2id hash (PHC string). */
    passwordHash: text('password_hash').notNull(),
    /** The base32 TOTP secret, sealed (AES-GCM, platform/shared/secret-box.ts). TOTP is mandatory: never empty. */
    totpSecret: text('totp_secret').notNull(),
    /**
     * The last TOTP time step a login accepted: a code is accepted once (a login takes a step only above it, in one
     * conditional UPDATE, so two gateways cannot both accept the same code). Null = none yet, or the key was reset.
     */
    lastTotpStep: bigint('last_totp_step', { mode: 'number' }),
    /** A disabled operator cannot log in; their sessions are revoked when disabled. */
    disabled: boolean('disabled').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('operators_email_uq').on(t.email)],
);

/**
 * Operator sessions: the opaque token (header x-admin-token) is given once, only its sha256 (hex) is kept. A session
 * ends 30 minutes after its last use, 8 hours after it began, or when revoked (logout, operator disabled).
 */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    tokenHash: text('token_hash').notNull(),
    operatorId: bigint('operator_id', { mode: 'bigint' })
      .notNull()
      .references(() => operators.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  // last_seen_at and revoked_at: the retention rule's delete finds the old sessions through them.
  (t) => [
    uniqueIndex('operator_sessions_token_hash_uq').on(t.tokenHash),
    index('operator_sessions_operator_idx').on(t.operatorId),
    index('operator_sessions_last_seen_idx').on(t.lastSeenAt),
    index('operator_sessions_revoked_idx').on(t.revokedAt),
  ],
);

/** Failed console logins (wrong password or TOTP, unknown e-mail), counted per e-mail and per IP for the lockout. */
export const operatorLoginFailures = pgTable(
  'operator_login_failures',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  // The retention rule's delete finds the old rows through the index led by its time column.
  (t) => [
    index('operator_login_failures_email_idx').on(t.email, t.at),
    index('operator_login_failures_ip_idx').on(t.ip, t.at),
    index('operator_login_failures_at_idx').on(t.at),
  ],
);

/**
 * What the retention job (platform/db/retention.ts) deletes of the console's tables: operator sessions revoked, or
 * last used, more than RETENTION_SESSIONS_DAYS ago (a session ends 30 minutes after its last use), and failed console
 * logins older than RETENTION_CODES_DAYS. The operators' audit log is kept.
 */
export const adminRetention: readonly RetentionRule[] = [
  {
    name: 'operator_sessions',
    table: operatorSessions,
    horizonDays: (r) => r.sessionsDays,
    expired: (cutoffMs) => or(lt(operatorSessions.lastSeenAt, new Date(cutoffMs)), lt(operatorSessions.revokedAt, new Date(cutoffMs)))!,
  },
  {
    name: 'operator_login_failures',
    table: operatorLoginFailures,
    horizonDays: (r) => r.codesDays,
    expired: (cutoffMs) => lt(operatorLoginFailures.at, new Date(cutoffMs)),
  },
];
