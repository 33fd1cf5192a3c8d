/**
 * The audit log, every domain's record of operator actions (the console's, and the engine's updateUser audits the
 * projector writes): a platform table, since every domain that lets an operator act writes it.
 */
import { bigint, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
