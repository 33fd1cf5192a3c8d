/**
 * The in-app inbox (route /message; domains/inbox): one row per message of a user. Messages are stored as a
 * kind and its parameters (engine units as integer strings, JSON text), never as prose: the app renders them in the
 * reader's language.
 *
 * Where rows come from: the engine's events through the projector (domains/inbox/inbox.projection.ts: deposits,
 * withdrawals, spot and contract fills, liquidations, KYC decisions, OTC order changes), so a database rebuilt from
 * the journal gets the same messages (same `key`, parameters and time); and the security log (domains/security:
 * new-device log-ins, password and 2FA changes), which is not journaled, so those messages are lost with the database
 * like the log itself. The read state (`readAt`) is the user's, not the journal's: a rebuilt database shows every
 * message unread.
 *
 * `key` identifies a message within its user's inbox (e.g. `spot:<orderId>` aggregates an order's fills into one
 * message); a later write with the same key replaces the parameters only when they changed, and then marks it unread.
 */
import { bigint, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { and, isNotNull, lt, sql } from 'drizzle-orm';
import type { RetentionRule } from '../../platform/db/retention';

/** Messages of the users' inboxes. */
export const inboxMessages = pgTable(
  'inbox_messages',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'bigint' }).notNull(),
    /** unique per user: where the message comes from (e.g. 'dep:ETH:0xabc:0', 'spot:42', 'sec:17') */
    key: text('key').notNull(),
    /** TRADE, ASSET, OTC or ACCOUNT (packages/api inbox.ts) */
    category: text('category').notNull(),
    /** what happened, e.g. DEPOSIT_CREDITED (packages/api inbox.ts InboxKind) */
    kind: text('kind').notNull(),
    /** JSON object of strings: the kind's parameters (amounts in engine units) */
    params: text('params').notNull(),
    /** when it happened, Unix ms (the command's time) */
    ts: bigint('ts', { mode: 'number' }).notNull(),
    /** journal position of the command that produced it (0: not from the journal) */
    seq: bigint('seq', { mode: 'number' }).notNull().default(0),
    /** when the user read it; null = unread */
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('inbox_messages_user_key').on(t.userId, t.key),
    index('inbox_messages_user_ts').on(t.userId, t.ts, t.id),
    // The retention rule's delete finds the old rows through the index led by its time column.
    index('inbox_messages_ts_idx').on(t.ts),
    index('inbox_messages_unread')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
  ],
);

/**
 * What the retention job (platform/db/retention.ts) deletes of the inbox: messages the user has read whose time lies
 * more than RETENTION_INBOX_DAYS back; an unread message stays. A database rebuilt from the journal gets the
 * journaled ones back unread (the read mark is not journaled), and they stay until read.
 */
export const inboxRetention: readonly RetentionRule[] = [
  {
    name: 'inbox_messages:read',
    table: inboxMessages,
    horizonDays: (r) => r.inboxReadDays,
    expired: (cutoffMs) => and(isNotNull(inboxMessages.readAt), lt(inboxMessages.ts, cutoffMs))!,
  },
];
