/**
 * What a domain gives the projector (projector.ts): the tables it projects the engine's events into and how it makes
 * their rows. The projector buffers the rows of every domain and writes them in its batches by each table's rule (one
 * generic upsert, platform/db/projection-store.ts), so neither names a domain. A domain module declares its projection
 * (`DomainModule.projection`, platform/domain-module.ts); the composition root hands the list to the engine host.
 *
 * Also here: the audit log's table, which every domain whose operator actions are engine commands writes to (the
 * command's `audit` record, written in the same batch as the change it records).
 */
import type { EngineEvent } from '@exchange/core';
import { projectedTable, type ProjectedTable } from '../db/projection-types';
import { auditLog } from '../db/schema/audit';

/** Where a projection puts its rows: the projector's buffer of the current batch. */
export interface RowSink {
  /** Adds a row of `table` (an upsert table keeps the last row per key until the batch is written). */
  put<Row extends object>(table: ProjectedTable<Row>, row: Row): void;
}

/** The rows a projection makes of one command's events: `seq` is the command's journal position. */
export type ProjectEvents = (seq: number, events: readonly EngineEvent[], out: RowSink) => void;

/**
 * A domain's projection. Its rows are made from the events alone (a database rebuilt from the journal gets the same
 * rows), may come again on a replay (each table's rule makes a repeat change nothing) and are written with the cursor.
 */
export interface DomainProjection {
  /** The tables it writes, in the order they are written. */
  readonly tables: readonly ProjectedTable<object>[];
  /** A fresh instance for one projector (state it keeps across batches, e.g. the entry prices of open positions). */
  start(): ProjectEvents;
}

/** True for the user ids whose records are projected (numeric ids of registered users; not the bots or '@insurance'). */
export function isProjectedUser(userId: string | null): userId is string {
  return userId !== null && /^[0-9]+$/.test(userId);
}

/** The order statuses after which an order (spot or perpetual) no longer changes: its row's `closed` flag. */
export const CLOSED_ORDER_STATUSES: ReadonlySet<string> = new Set(['FILLED', 'CANCELED', 'EXPIRED']);

/** Decimal text of an integer amount, or null. */
export function decimalOrNull(v: bigint | null): string | null {
  return v === null ? null : v.toString();
}

/** The audit log's operator actions carried by engine commands: once per journal position. */
export const AUDIT_TABLE = projectedTable(auditLog, { key: ['engineSeq'], mode: 'once' });

/** Parses a JSON text of an audit record's before/after; null when empty or not JSON (kept as given then). */
function auditJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { text };
  }
}

/**
 * The audit_log row of a command's `audit` record (the operator console's, domains/admin/audit.ts `engineAudit`):
 * string fields operatorId, operatorEmail, action, before and after (JSON texts), ip, userAgent. The row's time is the
 * command's, its `engineSeq` the command's journal position (a replay writes it once); `userId` the user acted on
 * ('' for none).
 */
export function auditRow(userId: string, audit: Readonly<Record<string, string>>, seq: number, ts: number): typeof auditLog.$inferInsert {
  return {
    operatorId: audit.operatorId && /^[0-9]{1,18}$/.test(audit.operatorId) ? BigInt(audit.operatorId) : null,
    operatorEmail: audit.operatorEmail ?? '',
    action: audit.action ?? 'unknown',
    targetUserId: /^[0-9]{1,18}$/.test(userId) ? BigInt(userId) : null,
    before: auditJson(audit.before),
    after: auditJson(audit.after),
    at: new Date(ts),
    ip: audit.ip ?? '',
    userAgent: audit.userAgent ?? '',
    engineSeq: seq,
  };
}
