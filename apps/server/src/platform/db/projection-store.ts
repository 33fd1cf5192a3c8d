/**
 * Where the projector writes (ARCHITECTURE.md section 3, step 5): the tables the domains project their events into, and
 * the cursor row that says which journal they project and up to which sequence number. Every write is one transaction
 * that also moves the cursor, so the tables always equal the journal's effect up to the cursor. The store names no
 * domain: each table comes with its rule (`TableRule`, projection-types.ts) and one generic upsert writes it.
 *
 * The tables are the domains' (each domain's `<domain>.tables.ts`); the store finds them by SQL name in a `TableIndex`
 * made of the module that exports them all (the composition root's list, given to `openDb` as its schema module; the
 * database worker imports the same module by its URL).
 *
 * `drizzleProjectionStore` is the real one (PGlite or PostgreSQL, written in the database worker thread when the
 * database was opened over one); `MemoryProjectionStore` keeps the same rows in maps by the same rules, for the fault
 * simulator, which can lose it or roll it back to an earlier copy.
 */
import { eq, getTableColumns, getTableName, is, sql, type SQL } from 'drizzle-orm';
import { PgTable, type PgColumn, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { projectionCursor } from './schema/projection-cursor';
import type { ProjectionBatch, ProjectionState, ProjectionStore, TableRule, TableRows } from './projection-types';

/** A Drizzle database over either driver (client.ts `Db`). */
type Db = PgDatabase<PgQueryResultHKT>;

/** Name of the cursor row of the engine projection. */
export const SPOT_CURSOR = 'spot';
/** Rows per INSERT statement (keeps statements well under PostgreSQL's parameter limit). */
const CHUNK = 500;

export type { ProjectedTable, ProjectionBatch, ProjectionState, ProjectionStore, TableRule, TableRows } from './projection-types';
export { projectedTable } from './projection-types';

/** Tables by their SQL name. */
export type TableIndex = ReadonlyMap<string, PgTable>;

/** The index of every Drizzle table among a module's exports or its default export's values (other exports are ignored). */
export function tableIndex(module: Readonly<Record<string, unknown>>): TableIndex {
  // A module's tables are its exports, or the values of its default export when that is a record of tables
  // (main/schema.ts: every table, found by folder).
  const found = module.default;
  const values = [...Object.values(module), ...(found && typeof found === 'object' && !is(found, PgTable) ? Object.values(found) : [])];
  return new Map((values.filter((v) => is(v, PgTable)) as PgTable[]).map((t) => [getTableName(t), t]));
}

/** Registry: the projection store of each database `openDb` opened with its schema module. */
const stores = new WeakMap<object, ProjectionStore>();

/** Records that the projection of `db` is written by `store` (client.ts, when it opens the database). */
export function registerProjectionStore(db: object, store: ProjectionStore): void {
  stores.set(db, store);
}

/**
 * The projection in the database over Drizzle. A database opened over a worker thread (platform/db/client.ts) has its
 * projection written there (platform/db/worker-client.ts): the batches' SQL is built and run off the main thread.
 * Throws when `db` was opened without its schema module (then no table is known to write to).
 */
export function drizzleProjectionStore(db: object): ProjectionStore {
  const store = stores.get(db);
  if (store === undefined) throw new Error('projection: this database was opened without its tables (openDb schemaModule)');
  return store;
}

/** `excluded.<column>`: the value the conflicting insert proposed. */
function excluded(c: PgColumn): SQL {
  return sql.raw(`excluded."${c.name}"`);
}

/** Writes the rows of one table by its rule (the one generic upsert; see `TableRule`). */
async function writeTable(tx: Db, tables: TableIndex, t: TableRows): Promise<void> {
  const { rule, rows } = t;
  const table = tables.get(rule.table);
  if (table === undefined) throw new Error(`projection: no table ${rule.table}`);
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const col = (f: string): PgColumn => {
    const c = columns[f];
    if (c === undefined) throw new Error(`projection: no field ${rule.table}.${f}`);
    return c;
  };
  const target = rule.key.map(col);
  for (let i = 0; i < rows.length; i += CHUNK) {
    const insert = tx.insert(table).values(rows.slice(i, i + CHUNK) as never);
    if (rule.mode === 'once') {
      await insert.onConflictDoNothing({ target });
      continue;
    }
    const set: Record<string, SQL> = {};
    for (const f of rule.set ?? []) set[f] = excluded(col(f));
    for (const f of rule.fill ?? []) set[f] = sql`coalesce(${col(f)}, ${excluded(col(f))})`;
    for (const f of rule.clear ?? []) set[f] = sql`null`;
    const guards: SQL[] = [];
    if (rule.newer) {
      const by = col(rule.newer.field);
      guards.push(rule.newer.strict ? sql`${by} < ${excluded(by)}` : sql`${by} <= ${excluded(by)}`);
      const changed = (rule.newer.changed ?? []).map((f) => sql`${col(f)} is distinct from ${excluded(col(f))}`);
      if (changed.length > 0) guards.push(sql`(${sql.join(changed, sql` or `)})`);
    }
    await insert.onConflictDoUpdate({ target, set, ...(guards.length > 0 ? { setWhere: sql.join(guards, sql` and `) } : {}) });
  }
}

/**
 * The projection in the database over Drizzle, written from this thread (the database worker's own store, or a
 * database opened without a worker), into the tables of `tables`.
 */
export function localProjectionStore(db: Db, tables: TableIndex): ProjectionStore {
  return {
    async load() {
      const rows = await db.select().from(projectionCursor).where(eq(projectionCursor.name, SPOT_CURSOR));
      return { journalId: rows[0]?.journalId ?? null, cursor: rows[0]?.seq ?? 0 };
    },
    async write(b) {
      await db.transaction(async (tx) => {
        for (const t of b.tables) await writeTable(tx as unknown as Db, tables, t);
        await tx
          .insert(projectionCursor)
          .values({ name: SPOT_CURSOR, seq: b.seq, journalId: b.journalId })
          .onConflictDoUpdate({
            target: projectionCursor.name,
            set: { seq: sql`greatest(${projectionCursor.seq}, excluded.seq)`, journalId: sql`excluded.journal_id` },
          });
      });
    },
  };
}

/** The key of `row` under `rule` (its key fields' values joined by ':'). */
export function rowKey(rule: TableRule, row: Readonly<Record<string, unknown>>): string {
  return rule.key.map((f) => String(row[f])).join(':');
}

/** The order of two journal positions (or any numbers or bigints); a missing one counts as the oldest. */
function compare(a: unknown, b: unknown): number {
  if (a === undefined || a === null) return b === undefined || b === null ? 0 : -1;
  if (b === undefined || b === null) return 1;
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

/** True when two field values are the same (Dates by their time). */
function same(a: unknown, b: unknown): boolean {
  return a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;
}

/**
 * The projection in memory (fault simulator): every table a map from row key to row, written by the same rules as
 * the database. `failWrites` makes every write throw (a database that is down); `clone()` copies it (to roll back to
 * later).
 */
export class MemoryProjectionStore implements ProjectionStore {
  journalId: string | null = null;
  cursor = 0;
  /** The rows of every table written to, by table name, then by row key (`rowKey`). */
  readonly tables = new Map<string, Map<string, Record<string, unknown>>>();
  failWrites = false;
  writes = 0;

  /** The rows of table `name` by key (an empty map for a table never written to). */
  rows<Row extends object = Record<string, unknown>>(name: string): Map<string, Row> {
    let m = this.tables.get(name);
    if (m === undefined) {
      m = new Map();
      this.tables.set(name, m);
    }
    return m as unknown as Map<string, Row>;
  }

  async load(): Promise<ProjectionState> {
    return { journalId: this.journalId, cursor: this.cursor };
  }

  async write(b: ProjectionBatch): Promise<void> {
    if (this.failWrites) throw new Error('projection store is down');
    for (const { rule, rows } of b.tables) {
      const m = this.rows(rule.table);
      for (const row of rows) {
        const k = rowKey(rule, row);
        const prev = m.get(k);
        if (prev === undefined) {
          m.set(k, { ...row });
          continue;
        }
        if (rule.mode === 'once') continue;
        if (rule.newer) {
          const order = compare(prev[rule.newer.field], row[rule.newer.field]);
          if (rule.newer.strict ? order >= 0 : order > 0) continue;
          const changed = rule.newer.changed ?? [];
          if (changed.length > 0 && changed.every((f) => same(prev[f], row[f]))) continue;
        }
        const next = { ...prev };
        for (const f of rule.set ?? []) next[f] = row[f];
        for (const f of rule.fill ?? []) next[f] = prev[f] ?? row[f];
        // A field the rows never carry (a reader's mark the database keeps) is not invented here.
        for (const f of rule.clear ?? []) if (f in prev) next[f] = null;
        m.set(k, next);
      }
    }
    this.cursor = Math.max(this.cursor, b.seq);
    this.journalId = b.journalId;
    this.writes++;
  }

  /** A deep enough copy to roll back to. */
  clone(): MemoryProjectionStore {
    const c = new MemoryProjectionStore();
    c.journalId = this.journalId;
    c.cursor = this.cursor;
    for (const [name, m] of this.tables) c.tables.set(name, new Map([...m].map(([k, v]) => [k, { ...v }])));
    return c;
  }
}
