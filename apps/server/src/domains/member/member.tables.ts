/**
 * Tables of the member area: users, sessions, login attempts and favourite pairs. Secrets (passwords, tokens, codes, puzzle passes) are stored only
 * as hashes. Times are `timestamptz`; user ids are a bigint identity, exposed on the wire as numeric strings.
 */
import { lt, or } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { RetentionRule } from '../../platform/db/retention';

/**
 * Registered users: a projection of the engine's user registry (the registerUser/updateUser commands of the
 * journal), written by the engine host's projector. `id` is the engine's user id, never a database sequence, so
 * a lost or restored database cannot hand one user's balances to another. `uuid` is the public UID (8 digits);
 * `welCode` the user's invitation code.
 */
export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey(),
    uuid: text('uuid').notNull(),
    /** Lower-cased e-mail, or null for phone registrations. */
    mail: text('mail'),
    /** Phone digits without the country code, or null. */
    phone: text('phone'),
    /** Country calling code of `phone` ('86' by default). */
    areaCode: text('area_code').notNull().default('86'),
    /** argon2id hash (PHC string). */
    passwordHash: text('password_hash').notNull(),
    nickName: text('nick_name').notNull().default(''),
    welCode: text('wel_code').notNull(),
    /** The inviter's user id, when registered with an invitation code. */
    invitedBy: bigint('invited_by', { mode: 'bigint' }),
    /** ID number; '' = not verified (spec section 3). */
    cardNo: text('card_no').notNull().default(''),
    /** 'PASS' = verified, '' none (spec section 3). */
    cardState: text('card_state').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_uuid_uq').on(t.uuid),
    uniqueIndex('users_mail_uq').on(t.mail),
    uniqueIndex('users_phone_uq').on(t.areaCode, t.phone),
    uniqueIndex('users_wel_code_uq').on(t.welCode),
    // an inviter's invitees (invitation and rebates)
    index('users_invited_by_idx').on(t.invitedBy, t.id),
  ],
);

/** Login sessions. The opaque token is given to the client once; only its sha256 (hex) is kept. */
export const sessions = pgTable(
  'sessions',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    tokenHash: text('token_hash').notNull(),
    userId: bigint('user_id', { mode: 'bigint' })
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Where the session was opened (for the devices list): client IP and User-Agent header (cut to 512). */
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    /** Last authenticated request, refreshed at most once a minute (null: none since the login). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  },
  // expires_at and revoked_at: the retention rule's delete finds the old sessions through them.
  (t) => [
    uniqueIndex('sessions_token_hash_uq').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
    index('sessions_expires_idx').on(t.expiresAt),
    index('sessions_revoked_idx').on(t.revokedAt),
  ],
);

/** Failed logins, per account key and IP, for lockout and the captcha requirement (rows of a success are cleared). */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    account: text('account').notNull(),
    ip: text('ip').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The retention rule's delete finds the old rows through the index led by its time column.
  (t) => [
    index('login_failures_account_idx').on(t.account, t.createdAt),
    index('login_failures_ip_idx').on(t.ip, t.createdAt),
    index('login_failures_created_idx').on(t.createdAt),
  ],
);

/**
 * Login attempt counters, taken and checked in one statement (an upsert with a condition) so that parallel logins
 * (in one process or in several gateways on one PostgreSQL) cannot pass the limits together. A row counts an
 * account's attempts (`ip` = ''), an IP's (`account` = ''), or an account's failures from one IP (both set);
 * `lastAt` is the last counted attempt: a row older than the login window counts from zero again.
 */
export const loginCounters = pgTable(
  'login_counters',
  {
    account: text('account').notNull(),
    ip: text('ip').notNull(),
    attempts: integer('attempts').notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.account, t.ip] }), index('login_counters_last_at_idx').on(t.lastAt)],
);

/** Favourite pairs of a user, one row per (user, pair, market type). */
export const favorites = pgTable(
  'favorites',
  {
    userId: bigint('user_id', { mode: 'bigint' })
      .notNull()
      .references(() => users.id),
    pairsName: text('pairs_name').notNull(),
    type: text('type').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.pairsName, t.type] })],
);

/**
 * What the retention job (platform/db/retention.ts) deletes of the member tables: sessions that expired or were
 * revoked more than RETENTION_SESSIONS_DAYS ago (a live session is never deleted), and login failures and counters
 * older than RETENTION_CODES_DAYS (the lockout windows are minutes to hours long).
 */
export const memberRetention: readonly RetentionRule[] = [
  {
    name: 'sessions',
    table: sessions,
    horizonDays: (r) => r.sessionsDays,
    expired: (cutoffMs) => or(lt(sessions.expiresAt, new Date(cutoffMs)), lt(sessions.revokedAt, new Date(cutoffMs)))!,
  },
  { name: 'login_failures', table: loginFailures, horizonDays: (r) => r.codesDays, expired: (cutoffMs) => lt(loginFailures.createdAt, new Date(cutoffMs)) },
  { name: 'login_counters', table: loginCounters, horizonDays: (r) => r.codesDays, expired: (cutoffMs) => lt(loginCounters.lastAt, new Date(cutoffMs)) },
];
