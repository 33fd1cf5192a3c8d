/**
 * Tables of customer service (domains/support): conversations between a user and the operators, their
 * messages, and the console's canned replies. Not money and not journaled: written by the support service only
 * (the audit rows of operator actions go into audit_log in the same transaction). Times are Unix ms.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Conversations. A user has at most one open one (closedTs 0; the partial unique index keeps it so under two
 * gateways): their first message opens it, an operator closes it.
 */
export const supportConversations = pgTable(
  'support_conversations',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    userId: bigint('user_id', { mode: 'bigint' }).notNull(),
    /** the language the user last wrote in: zh or en */
    lang: text('lang').notNull(),
    /** the user's first unanswered message, 0 when an operator answered after it */
    waitingSinceTs: bigint('waiting_since_ts', { mode: 'number' }).notNull(),
    /** the assigned operator, null when none */
    assignedOperatorId: bigint('assigned_operator_id', { mode: 'bigint' }),
    /** user messages not read by an operator; operator messages not read by the user */
    operatorUnread: integer('operator_unread').notNull().default(0),
    userUnread: integer('user_unread').notNull().default(0),
    lastMessage: text('last_message').notNull().default(''),
    lastMessageTs: bigint('last_message_ts', { mode: 'number' }).notNull(),
    createdTs: bigint('created_ts', { mode: 'number' }).notNull(),
    /** 0 while open */
    closedTs: bigint('closed_ts', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    index('support_conversations_user_idx').on(t.userId, t.id),
    index('support_conversations_waiting_idx').on(t.closedTs, t.waitingSinceTs),
    uniqueIndex('support_conversations_open_uq')
      .on(t.userId)
      .where(sql`${t.closedTs} = 0`),
  ],
);

/** Messages of the conversations (the user's history spans them, hence userId on each). */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    conversationId: bigint('conversation_id', { mode: 'bigint' }).notNull(),
    userId: bigint('user_id', { mode: 'bigint' }).notNull(),
    /** USER, OPERATOR, SYSTEM */
    sender: text('sender').notNull(),
    /** the operator of an OPERATOR message, null otherwise */
    operatorId: bigint('operator_id', { mode: 'bigint' }),
    operatorName: text('operator_name').notNull().default(''),
    text: text('text').notNull(),
    /** an upload id (purpose SUPPORT) or '' */
    imageId: text('image_id').notNull().default(''),
    createdTs: bigint('created_ts', { mode: 'number' }).notNull(),
  },
  (t) => [index('support_messages_user_idx').on(t.userId, t.id), index('support_messages_conversation_idx').on(t.conversationId, t.id)],
);

/** Canned replies of the console, in both languages; deleted ones are kept (deletedTs > 0) for the audit trail. */
export const supportCannedReplies = pgTable('support_canned_replies', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  title: text('title').notNull(),
  textZh: text('text_zh').notNull(),
  textEn: text('text_en').notNull(),
  updatedTs: bigint('updated_ts', { mode: 'number' }).notNull(),
  deletedTs: bigint('deleted_ts', { mode: 'number' }).notNull().default(0),
});
