/**
 * Tables of the operator console: operators (separate from users), their short-lived
 * sessions, their failed logins (the lockout), and the append-only audit log of every operator action. Secrets are
 * stored only as hashes (passwords: argon2id; session tokens: sha256) or sealed (the TOTP secret: platform/shared/secret-box).
 * Nothing in the code updates or deletes an audit row.
 */
import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Console operators. `role` is support | compliance | finance | admin (domains/admin/roles.ts). */
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
  (t) => [uniqueIndex('operator_sessions_token_hash_uq').on(t.tokenHash), index('operator_sessions_operator_idx').on(t.operatorId)],
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
  (t) => [index('operator_login_failures_email_idx').on(t.email, t.at), index('operator_login_failures_ip_idx').on(t.ip, t.at)],
);

/**
 * The audit log: one row per operator action (who, what, which user, before and after, when, from where), append
 * only. Rows of actions that go through the engine (freeze, KYC decisions) are written by the projector from the
 * `audit` record of the updateUser command, in the transaction that projects the change; `engineSeq` is that
 * command's journal sequence number (unique, so a replay of the journal writes the row once).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The acting operator (null for a failed login of an unknown e-mail). */
    operatorId: bigint('operator_id', { mode: 'bigint' }),
    /** The operator's e-mail at the time (or the e-mail a failed login named). */
    operatorEmail: text('operator_email').notNull(),
    /** e.g. login, logout, login_failed, user_freeze, user_unfreeze, kyc_approve, kyc_reject, kyc_image_view, operator_create. */
    action: text('action').notNull(),
    /** The user the action concerns, when one. */
    targetUserId: bigint('target_user_id', { mode: 'bigint' }),
    /** The state before and after (JSON objects; null when the action has no such state). */
    before: jsonb('before'),
    after: jsonb('after'),
    at: timestamp('at', { withTimezone: true }).notNull(),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    /** Journal sequence number of the engine command that carried this record; null for database-only actions. */
    engineSeq: bigint('engine_seq', { mode: 'number' }),
  },
  (t) => [
    uniqueIndex('audit_log_engine_seq_uq').on(t.engineSeq),
    index('audit_log_at_idx').on(t.at),
    index('audit_log_operator_idx').on(t.operatorId, t.at),
    index('audit_log_target_idx').on(t.targetUserId, t.at),
  ],
);
