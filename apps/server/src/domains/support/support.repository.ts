/**
 * SQL of customer service: conversations, messages, canned replies (support.tables.ts), the audit rows
 * of operator actions (written in the transaction of the action), and the reads of operators and their sessions the
 * queue needs. Every write that changes a conversation and adds a message is one transaction.
 */
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { auditLog } from '../../platform/db/schema/audit';
import { operatorSessions, operators } from '../admin/admin.tables';
import { supportCannedReplies, supportConversations, supportMessages } from './support.tables';

/** A conversation row. */
export type ConversationRow = typeof supportConversations.$inferSelect;
/** A message row. */
export type MessageRow = typeof supportMessages.$inferSelect;
/** A canned reply row. */
export type CannedRow = typeof supportCannedReplies.$inferSelect;
/** An audit row to insert with an action. */
export type SupportAudit = typeof auditLog.$inferInsert;
/** A message to add (the conversation and user come from the call). */
export interface NewMessage {
  sender: 'USER' | 'OPERATOR' | 'SYSTEM';
  operatorId: bigint | null;
  operatorName: string;
  text: string;
  imageId: string;
  createdTs: number;
}

/** The queue's filter in SQL terms. */
export type QueueFilter = 'OPEN' | 'WAITING' | 'MINE' | 'ASSIGNED' | 'CLOSED';

/** A one-line preview of a message for the queue. */
function preview(m: NewMessage): string {
  return m.text !== '' ? m.text.slice(0, 120) : m.imageId !== '' ? '[image]' : '';
}

/** The support queries over `db`. */
export function createSupportRepository(db: Db) {
  return {
    /** The user's open conversation, or null. */
    async openConversation(userId: bigint): Promise<ConversationRow | null> {
      const rows = await db
        .select()
        .from(supportConversations)
        .where(and(eq(supportConversations.userId, userId), eq(supportConversations.closedTs, 0)))
        .limit(1);
      return rows[0] ?? null;
    },

    /** The conversation `id`, or null. */
    async conversation(id: bigint): Promise<ConversationRow | null> {
      const rows = await db.select().from(supportConversations).where(eq(supportConversations.id, id)).limit(1);
      return rows[0] ?? null;
    },

    /** Operator messages the user has not read, over all their conversations. */
    async userUnread(userId: bigint): Promise<number> {
      const [r] = await db
        .select({ n: sql<number>`coalesce(sum(${supportConversations.userUnread}), 0)::int` })
        .from(supportConversations)
        .where(eq(supportConversations.userId, userId));
      return Number(r?.n ?? 0);
    },

    /**
     * Adds a user message to the user's open conversation, opening one (in `lang`) when none is open; in one
     * transaction. The conversation starts (or keeps) waiting from its first unanswered message.
     */
    async addUserMessage(userId: bigint, lang: string, m: NewMessage): Promise<{ conversation: ConversationRow; message: MessageRow }> {
      return db.transaction(async (tx) => {
        // The partial unique index (one open conversation per user) makes a concurrent first message wait here.
        await tx
          .insert(supportConversations)
          .values({ userId, lang, waitingSinceTs: m.createdTs, lastMessage: '', lastMessageTs: m.createdTs, createdTs: m.createdTs })
          .onConflictDoNothing({ target: supportConversations.userId, where: sql`${supportConversations.closedTs} = 0` });
        const [open] = await tx
          .select()
          .from(supportConversations)
          .where(and(eq(supportConversations.userId, userId), eq(supportConversations.closedTs, 0)))
          .for('update');
        if (!open) throw new Error('support: no open conversation after insert');
        const [message] = await tx
          .insert(supportMessages)
          .values({ conversationId: open.id, userId, ...m })
          .returning();
        const [conversation] = await tx
          .update(supportConversations)
          .set({
            lang,
            waitingSinceTs: open.waitingSinceTs > 0 ? open.waitingSinceTs : m.createdTs,
            operatorUnread: sql`${supportConversations.operatorUnread} + 1`,
            lastMessage: preview(m),
            lastMessageTs: m.createdTs,
          })
          .where(eq(supportConversations.id, open.id))
          .returning();
        return { conversation: conversation!, message: message! };
      });
    },

    /**
     * Adds an operator (or system) message to an open conversation with its audit row: it answers the waiting user
     * (waitingSince 0), counts as unread for the user, and assigns the conversation to the replying operator when it
     * had no one. `close` also closes it. Null when the conversation is not open (nothing written).
     */
    async addOperatorMessage(
      id: bigint,
      m: NewMessage,
      audit: SupportAudit | null,
      close = false,
    ): Promise<{ conversation: ConversationRow; message: MessageRow } | null> {
      return db.transaction(async (tx) => {
        const [open] = await tx
          .select()
          .from(supportConversations)
          .where(and(eq(supportConversations.id, id), eq(supportConversations.closedTs, 0)))
          .for('update');
        if (!open) return null;
        const [message] = await tx
          .insert(supportMessages)
          .values({ conversationId: id, userId: open.userId, ...m })
          .returning();
        const [conversation] = await tx
          .update(supportConversations)
          .set({
            waitingSinceTs: m.sender === 'OPERATOR' || close ? 0 : open.waitingSinceTs,
            userUnread: m.sender === 'OPERATOR' ? sql`${supportConversations.userUnread} + 1` : supportConversations.userUnread,
            assignedOperatorId: open.assignedOperatorId ?? m.operatorId,
            lastMessage: preview(m),
            lastMessageTs: m.createdTs,
            ...(close ? { closedTs: m.createdTs, operatorUnread: 0 } : {}),
          })
          .where(eq(supportConversations.id, id))
          .returning();
        if (audit) await tx.insert(auditLog).values({ ...audit, targetUserId: open.userId });
        return { conversation: conversation!, message: message! };
      });
    },

    /** Assigns an open conversation to `operatorId` with its audit row; null when it is not open. */
    async assign(id: bigint, operatorId: bigint, audit: (before: ConversationRow) => SupportAudit): Promise<ConversationRow | null> {
      return db.transaction(async (tx) => {
        const [open] = await tx
          .select()
          .from(supportConversations)
          .where(and(eq(supportConversations.id, id), eq(supportConversations.closedTs, 0)))
          .for('update');
        if (!open) return null;
        const [row] = await tx.update(supportConversations).set({ assignedOperatorId: operatorId }).where(eq(supportConversations.id, id)).returning();
        await tx.insert(auditLog).values({ ...audit(open), targetUserId: open.userId });
        return row!;
      });
    },

    /** The user's messages after `afterId` (oldest first, at most `limit`). */
    async userMessagesAfter(userId: bigint, afterId: bigint, limit: number): Promise<MessageRow[]> {
      return db
        .select()
        .from(supportMessages)
        .where(and(eq(supportMessages.userId, userId), gt(supportMessages.id, afterId)))
        .orderBy(asc(supportMessages.id))
        .limit(limit);
    },

    /** The user's last `limit` messages before `beforeId` (null = the newest), oldest first. */
    async userMessagesBefore(userId: bigint, beforeId: bigint | null, limit: number): Promise<MessageRow[]> {
      const where = beforeId === null ? eq(supportMessages.userId, userId) : and(eq(supportMessages.userId, userId), lt(supportMessages.id, beforeId));
      const rows = await db.select().from(supportMessages).where(where).orderBy(desc(supportMessages.id)).limit(limit);
      return rows.reverse();
    },

    /** The user has read every operator message. */
    async markUserRead(userId: bigint): Promise<void> {
      await db
        .update(supportConversations)
        .set({ userUnread: 0 })
        .where(and(eq(supportConversations.userId, userId), gt(supportConversations.userUnread, 0)));
    },

    /** An operator has read the conversation's user messages. */
    async markOperatorRead(id: bigint): Promise<void> {
      await db
        .update(supportConversations)
        .set({ operatorUnread: 0 })
        .where(and(eq(supportConversations.id, id), gt(supportConversations.operatorUnread, 0)));
    },

    /** The conversation's messages after `afterId` (oldest first), or its last `limit` when afterId is 0. */
    async conversationMessages(id: bigint, afterId: bigint, limit: number): Promise<MessageRow[]> {
      if (afterId > 0n) {
        return db
          .select()
          .from(supportMessages)
          .where(and(eq(supportMessages.conversationId, id), gt(supportMessages.id, afterId)))
          .orderBy(asc(supportMessages.id))
          .limit(limit);
      }
      const rows = await db.select().from(supportMessages).where(eq(supportMessages.conversationId, id)).orderBy(desc(supportMessages.id)).limit(limit);
      return rows.reverse();
    },

    /** True when image `imageId` is in a message of user `userId` (any conversation) or, with `conversationId`, of that conversation. */
    async hasImage(imageId: string, where: { userId: bigint } | { conversationId: bigint }): Promise<boolean> {
      const owner = 'userId' in where ? eq(supportMessages.userId, where.userId) : eq(supportMessages.conversationId, where.conversationId);
      const rows = await db
        .select({ id: supportMessages.id })
        .from(supportMessages)
        .where(and(owner, eq(supportMessages.imageId, imageId)))
        .limit(1);
      return rows.length > 0;
    },

    /** One page of the queue for operator `me`, and the count of open conversations waiting for an answer. */
    async queue(filter: QueueFilter, me: bigint, page: number, pageSize: number): Promise<{ rows: ConversationRow[]; total: number; waiting: number }> {
      const c = supportConversations;
      const open = eq(c.closedTs, 0);
      const where: SQL =
        filter === 'CLOSED'
          ? ne(c.closedTs, 0)
          : filter === 'WAITING'
            ? and(open, gt(c.waitingSinceTs, 0))!
            : filter === 'MINE'
              ? and(open, eq(c.assignedOperatorId, me))!
              : filter === 'ASSIGNED'
                ? and(open, isNotNull(c.assignedOperatorId))!
                : open;
      // Waiting conversations first, the longest waiting first; then the most recent activity.
      const order =
        filter === 'CLOSED' ? [desc(c.closedTs), desc(c.id)] : [asc(sql`(${c.waitingSinceTs} = 0)`), asc(c.waitingSinceTs), desc(c.lastMessageTs), desc(c.id)];
      const rows = await db
        .select()
        .from(c)
        .where(where)
        .orderBy(...order)
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      const [n] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(c)
        .where(where);
      const [w] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(c)
        .where(and(open, gt(c.waitingSinceTs, 0)));
      return { rows, total: Number(n?.n ?? 0), waiting: Number(w?.n ?? 0) };
    },

    /** Operators by id (name, role, disabled) for the queue's names and the assign check. */
    async operatorsByIds(ids: bigint[]): Promise<Map<string, { name: string; role: string; disabled: boolean }>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: operators.id, name: operators.name, role: operators.role, disabled: operators.disabled })
        .from(operators)
        .where(inArray(operators.id, ids));
      return new Map(rows.map((r) => [r.id.toString(), r]));
    },

    /** Every operator that is not disabled (the service keeps those whose role can take conversations). */
    async activeOperators(): Promise<Array<{ id: bigint; name: string; role: string }>> {
      return db
        .select({ id: operators.id, name: operators.name, role: operators.role })
        .from(operators)
        .where(eq(operators.disabled, false))
        .orderBy(asc(operators.id));
    },

    /** The ids of the sessions among `ids` that are not revoked. */
    async liveSessions(ids: bigint[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: operatorSessions.id })
        .from(operatorSessions)
        .where(and(inArray(operatorSessions.id, ids), isNull(operatorSessions.revokedAt)));
      return new Set(rows.map((r) => r.id.toString()));
    },

    /** Canned replies that are not deleted, by title. */
    async cannedReplies(): Promise<CannedRow[]> {
      return db
        .select()
        .from(supportCannedReplies)
        .where(eq(supportCannedReplies.deletedTs, 0))
        .orderBy(asc(supportCannedReplies.title), asc(supportCannedReplies.id));
    },

    /** A canned reply that is not deleted, or null. */
    async cannedReply(id: bigint): Promise<CannedRow | null> {
      const rows = await db
        .select()
        .from(supportCannedReplies)
        .where(and(eq(supportCannedReplies.id, id), eq(supportCannedReplies.deletedTs, 0)))
        .limit(1);
      return rows[0] ?? null;
    },

    /** Creates a canned reply with its audit row (built from the new row). */
    async insertCanned(
      values: { title: string; textZh: string; textEn: string; updatedTs: number },
      audit: (row: CannedRow) => SupportAudit,
    ): Promise<CannedRow> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(supportCannedReplies).values(values).returning();
        await tx.insert(auditLog).values(audit(row!));
        return row!;
      });
    },

    /** Updates (or deletes: deletedTs) a canned reply that is not deleted, with its audit row; null when there is none. */
    async updateCanned(
      id: bigint,
      values: Partial<Pick<CannedRow, 'title' | 'textZh' | 'textEn' | 'updatedTs' | 'deletedTs'>>,
      audit: (before: CannedRow, after: CannedRow) => SupportAudit,
    ): Promise<CannedRow | null> {
      return db.transaction(async (tx) => {
        const [before] = await tx
          .select()
          .from(supportCannedReplies)
          .where(and(eq(supportCannedReplies.id, id), eq(supportCannedReplies.deletedTs, 0)))
          .for('update');
        if (!before) return null;
        const [after] = await tx.update(supportCannedReplies).set(values).where(eq(supportCannedReplies.id, id)).returning();
        await tx.insert(auditLog).values(audit(before, after!));
        return after!;
      });
    },
  };
}

/** The repository's type. */
export type SupportRepository = ReturnType<typeof createSupportRepository>;
