/**
 * The types of the projection (projection-store.ts): how a projected table is written, the batches and the sink. In a
 * file of their own so that the database worker's modules (worker-client.ts, db-worker-protocol.ts) use them without
 * importing the store, which imports them (no import circle). The engine host's projector
 * (platform/engine-host/projector.ts) builds the batches from the rows each domain's projection makes of the events
 * (`DomainProjection`, platform/engine-host/projection.ts); neither the projector nor the store names a domain.
 */
import { getTableColumns, getTableName, type Table } from 'drizzle-orm';

/**
 * How the rows of one projected table are written: plain data (it crosses to the database worker by structured clone
 * with the rows), one generic upsert for every table (projection-store.ts). Fields are the rows' (Drizzle's) field
 * names, not SQL column names.
 * - `once`: inserted, a row whose key exists is ignored (fills, payments, settled rebates: a replay writes nothing).
 * - `upsert`: inserted, or on the key the `set` fields replaced, the `fill` fields set only where the stored one is
 *   null, the `clear` fields set to null; with `newer`, only when the new row's `newer.field` (its journal position)
 *   is at least the stored one's (more when `strict`) and, with `changed`, one of those fields differs. An older state
 *   never replaces a newer one, so a replay after a newer projection changes nothing.
 * Within a batch, the rows of an upsert table are merged by key (the last wins, but keeps the earlier row's
 * `keepFirst` fields); a `once` table keeps every row.
 */
export interface TableRule {
  /** The table's SQL name (its Drizzle table: a domain's `<domain>.tables.ts`, all gathered by main/schema.ts). */
  table: string;
  /** The fields of the table's primary key or unique index the rows are matched by (the conflict target). */
  key: readonly string[];
  mode: 'once' | 'upsert';
  /** upsert: the fields a new state replaces. */
  set?: readonly string[];
  /** upsert: the fields set only where the stored row's is null. */
  fill?: readonly string[];
  /** upsert: the fields set to null on an update (an inbox message becomes unread again). */
  clear?: readonly string[];
  /** upsert: the field ordering states (a journal position) and the guard against an older state. */
  newer?: { field: string; strict?: boolean; changed?: readonly string[] };
  /** upsert, within one batch: the fields a later row of the same key takes from the earlier one (a registration time). */
  keepFirst?: readonly string[];
}

/**
 * A projected table as a domain declares it: its rule, typed by the table's insert row (`Row`), so that the rows a
 * projection puts in it and the rule's field names are checked by the compiler.
 */
export interface ProjectedTable<Row extends object> {
  readonly rule: TableRule;
  /** Only carries the row type. */
  readonly row?: Row;
}

type Field<T extends Table> = keyof T['$inferInsert'] & string;

/**
 * Declares how `table` is projected (see `TableRule`). Throws when a field is not a field of the table (at module load,
 * so a misspelled field never reaches a batch).
 */
export function projectedTable<T extends Table>(
  table: T,
  rule: {
    key: readonly Field<T>[];
    mode: 'once' | 'upsert';
    set?: readonly Field<T>[];
    fill?: readonly Field<T>[];
    clear?: readonly Field<T>[];
    newer?: { field: Field<T>; strict?: boolean; changed?: readonly Field<T>[] };
    keepFirst?: readonly Field<T>[];
  },
): ProjectedTable<T['$inferInsert']> {
  const name = getTableName(table);
  const columns = getTableColumns(table);
  const fields = [...rule.key, ...(rule.set ?? []), ...(rule.fill ?? []), ...(rule.clear ?? []), ...(rule.keepFirst ?? [])];
  if (rule.newer) fields.push(rule.newer.field, ...(rule.newer.changed ?? []));
  for (const f of fields) if (!(f in columns)) throw new Error(`projectedTable ${name}: no field ${f}`);
  if (rule.key.length === 0) throw new Error(`projectedTable ${name}: a key is needed`);
  if (rule.mode === 'once' && (rule.set || rule.fill || rule.clear || rule.newer)) throw new Error(`projectedTable ${name}: a once table updates nothing`);
  return { rule: { ...rule, table: name } };
}

/** The rows of one table in a batch, with the rule they are written by. */
export interface TableRows {
  rule: TableRule;
  rows: Record<string, unknown>[];
}

/** Which journal a store projects, and how far. `journalId` null = never written (an empty database). */
export interface ProjectionState {
  journalId: string | null;
  cursor: number;
}

/** One transaction of the projector: rows to write and the new cursor. */
export interface ProjectionBatch {
  journalId: string;
  /** Sequence number of the last command whose events are in this batch (and all before it). */
  seq: number;
  /** The tables with rows, in the order they are written (the domains' order, then each domain's own). */
  tables: TableRows[];
}

/** The projector's sink. */
export interface ProjectionStore {
  /** The cursor row (journalId null and cursor 0 when there is none). */
  load(): Promise<ProjectionState>;
  /**
   * Writes a batch in one transaction: every table's rows by its rule, and the cursor set to max(cursor, seq) with the
   * journal id. Throws when the database fails (nothing of the batch is written then).
   */
  write(batch: ProjectionBatch): Promise<void>;
}

/** The rows of `table` in a batch's tables ([] when it has none). */
export function tableRows<Row extends object>(tables: readonly TableRows[], table: ProjectedTable<Row>): Row[] {
  return (tables.find((t) => t.rule.table === table.rule.table)?.rows ?? []) as Row[];
}
