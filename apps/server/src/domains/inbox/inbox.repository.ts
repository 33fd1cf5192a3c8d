/**
 * SQL of the in-app inbox (table inbox_messages, inbox.tables.ts): a user's page of messages, unread counts, read
 * marks, and the messages of security-log entries (written with the entry, domains/security). Every query is scoped
 * by the caller's user id: one user never reads or marks another's message.
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { inboxMessages } from './inbox.tables';

/** A message row as stored. */
export type InboxMessageRow = typeof inboxMessages.$inferSelect;

/**
 * Security-log entry types that make a message, with the message kind (packages/api inbox.ts). A log-in makes one only
 * from a device (user agent) not seen in the user's earlier log-ins, and never the first log-in of an account (the
 * security log's owner decides that: domains/security security.repository.ts); failed log-ins and session
 * revocations make none (the first could be used to flood someone's inbox, the second is the user's own act on the
 * screen he is looking at).
 */
export const SECURITY_INBOX_KINDS: Readonly<Record<string, string>> = {
  LOGIN: 'LOGIN_NEW_DEVICE',
  PASSWORD_CHANGED: 'PASSWORD_CHANGED',
  PASSWORD_RESET: 'PASSWORD_RESET',
  TRANS_PASSWORD_SET: 'TRANS_PASSWORD_SET',
  TRANS_PASSWORD_CHANGED: 'TRANS_PASSWORD_CHANGED',
  TRANS_PASSWORD_RESET: 'TRANS_PASSWORD_RESET',
  GOOGLE_BOUND: 'GOOGLE_BOUND',
  GOOGLE_CLOSED: 'GOOGLE_CLOSED',
  ACCOUNT_BOUND: 'ACCOUNT_BOUND',
};

/**
 * Writes the message of security-log entry `e` (already inserted, in the same transaction `tx`) when its type makes
 * one (SECURITY_INBOX_KINDS); key `sec:<id>`, category ACCOUNT, parameters ip, device (the user agent) and detail.
 * A LOGIN entry is given only when it was from a new device (the caller's rule). Returns whether a message was written.
 */
export async function insertSecurityMessage(
  tx: Db,
  e: { id: bigint; userId: bigint; type: string; detail: string; ip: string; userAgent: string; createdAt: Date },
): Promise<boolean> {
  const kind = SECURITY_INBOX_KINDS[e.type];
  if (kind === undefined) return false;
  const params = { ip: e.ip, device: e.userAgent, detail: e.detail };
  await tx
    .insert(inboxMessages)
    .values({ userId: e.userId, key: `sec:${e.id}`, category: 'ACCOUNT', kind, params: JSON.stringify(params), ts: e.createdAt.getTime(), seq: 0 })
    .onConflictDoNothing();
  return true;
}

/** The inbox queries over `db`. */
export function createInboxRepository(db: Db) {
  const mine = (userId: bigint, category?: string) =>
    category ? and(eq(inboxMessages.userId, userId), eq(inboxMessages.category, category)) : eq(inboxMessages.userId, userId);
  return {
    /** A page of the user's messages (of one category when given), newest first, and their total. */
    async list(userId: bigint, category: string | undefined, offset: number, limit: number): Promise<{ rows: InboxMessageRow[]; total: number }> {
      const where = mine(userId, category);
      const rows = await db.select().from(inboxMessages).where(where).orderBy(desc(inboxMessages.ts), desc(inboxMessages.id)).offset(offset).limit(limit);
      const count = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(inboxMessages)
        .where(where);
      return { rows, total: Number(count[0]?.n ?? 0) };
    },

    /** The user's unread messages per category (categories without any are absent). */
    async unreadByCategory(userId: bigint): Promise<Record<string, number>> {
      const rows = await db
        .select({ category: inboxMessages.category, n: sql<number>`count(*)::int` })
        .from(inboxMessages)
        .where(and(eq(inboxMessages.userId, userId), isNull(inboxMessages.readAt)))
        .groupBy(inboxMessages.category);
      return Object.fromEntries(rows.map((r) => [r.category, Number(r.n)]));
    },

    /** Marks message `id` of the user read; null when the user has no such message, else whether it was unread. */
    async markRead(userId: bigint, id: bigint, at: Date): Promise<boolean | null> {
      const found = await db
        .select({ readAt: inboxMessages.readAt })
        .from(inboxMessages)
        .where(and(eq(inboxMessages.id, id), eq(inboxMessages.userId, userId)))
        .limit(1);
      if (found.length === 0) return null;
      const done = await db
        .update(inboxMessages)
        .set({ readAt: at })
        .where(and(eq(inboxMessages.id, id), eq(inboxMessages.userId, userId), isNull(inboxMessages.readAt)))
        .returning({ id: inboxMessages.id });
      return done.length > 0;
    },

    /** Marks every unread message of the user (of one category when given) read; returns how many. */
    async markAllRead(userId: bigint, category: string | undefined, at: Date): Promise<number> {
      const done = await db
        .update(inboxMessages)
        .set({ readAt: at })
        .where(and(mine(userId, category), isNull(inboxMessages.readAt)))
        .returning({ id: inboxMessages.id });
      return done.length;
    },
  };
}

export type InboxRepository = ReturnType<typeof createInboxRepository>;
