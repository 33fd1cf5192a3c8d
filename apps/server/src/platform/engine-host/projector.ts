/**
 * The projector: writes engine events to the database in batches for queries and history (ARCHITECTURE.md section 3,
 * step 5). Each domain's projection (`DomainProjection`, projection.ts) makes rows of a command's events; the projector
 * buffers them by table (an upsert table keeps the last row per key, a once table every row) and writes them with the
 * cursor row (sequence number of the last command fully written, plus the id of the journal) in one transaction
 * (platform/db/projection-store.ts). Writing is therefore idempotent: replaying the journal after a crash pushes the
 * same events again and the rows come out the same.
 *
 * A batch is written every `flushMs` (50 ms) or as soon as `maxEvents` (500) rows are buffered. A failed write is
 * logged and retried (the buffer is kept), so the database catching up never blocks matching; the buffer is bounded
 * by the host, which stops taking commands while `buffered` is above its limit.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { EngineEvent } from '@exchange/core';
import type { ProjectedTable, ProjectionStore, TableRows, TableRule } from '../db/projection-types';
import { rowKey } from '../db/projection-store';
import type { DomainProjection, ProjectEvents, RowSink } from './projection';

/** The projector's surface used by the engine host. */
export interface Projector {
  /** Sequence number up to which every event is written (loaded from the store at start). */
  readonly cursor: number;
  /** The journal id the store projects (null for an empty store until the first write). */
  readonly journalId: string | null;
  /** Binds the projector to the journal; every later write records it. */
  bind(journalId: string): void;
  /** Buffers the events of command `seq` (seq strictly increasing across calls). */
  push(seq: number, events: readonly EngineEvent[]): void;
  /** Resolves once everything pushed before the call is written. */
  projected(): Promise<void>;
  /** Writes the buffer now (waits for a write already running). */
  flush(): Promise<void>;
  /** Number of rows buffered and not yet written. */
  readonly buffered: number;
  /** Consecutive failed writes (0 when the last write succeeded). */
  readonly failures: number;
  /** Flushes and stops the timer. */
  close(): Promise<void>;
}

/** Options of `createProjector`. */
export interface ProjectorOptions {
  store: ProjectionStore;
  log: FastifyBaseLogger;
  /** The domains' projections, in the order their tables are written (the composition root's list). */
  projections: readonly DomainProjection[];
  flushMs?: number;
  maxEvents?: number;
}

/** The buffered rows of one table: by key for an upsert table, in order for a once table. */
interface TableBuffer {
  rule: TableRule;
  byKey: Map<string, Record<string, unknown>>;
  list: Record<string, unknown>[];
}

/**
 * The rows buffered between two writes, table by table in write order (the projector's; tests run a projection into
 * one and `take()` its tables).
 */
export class RowBuffer implements RowSink {
  private readonly tables = new Map<string, TableBuffer>();
  count = 0;

  constructor(tables: readonly ProjectedTable<object>[]) {
    for (const t of tables) this.table(t.rule);
  }

  private table(rule: TableRule): TableBuffer {
    let b = this.tables.get(rule.table);
    if (b === undefined) {
      b = { rule, byKey: new Map(), list: [] };
      this.tables.set(rule.table, b);
    }
    return b;
  }

  put<Row extends object>(table: ProjectedTable<Row>, row: Row): void {
    const b = this.table(table.rule);
    const r = row as Record<string, unknown>;
    if (b.rule.mode === 'once') b.list.push(r);
    else {
      const k = rowKey(b.rule, r);
      const prev = b.byKey.get(k);
      const keep = b.rule.keepFirst ?? [];
      b.byKey.set(k, prev === undefined || keep.length === 0 ? r : { ...r, ...Object.fromEntries(keep.map((f) => [f, prev[f]])) });
    }
    this.count++;
  }

  /** Takes the buffered rows (tables with rows only) and empties the buffer. */
  take(): TableRows[] {
    const out: TableRows[] = [];
    for (const b of this.tables.values()) {
      const rows = b.rule.mode === 'once' ? b.list : [...b.byKey.values()];
      if (rows.length > 0) out.push({ rule: b.rule, rows });
      b.list = [];
      b.byKey = new Map();
    }
    this.count = 0;
    return out;
  }

  /** Puts tables that failed to write back under anything newer buffered meanwhile. */
  restore(tables: readonly TableRows[]): void {
    for (const t of tables) {
      const b = this.table(t.rule);
      if (b.rule.mode === 'once') b.list = t.rows.concat(b.list);
      else for (const r of t.rows) if (!b.byKey.has(rowKey(b.rule, r))) b.byKey.set(rowKey(b.rule, r), r);
      this.count += t.rows.length;
    }
  }
}

/** Loads the cursor and returns a running projector. */
export async function createProjector(opts: ProjectorOptions): Promise<Projector> {
  const { store, log } = opts;
  const flushMs = opts.flushMs ?? 50;
  const maxEvents = opts.maxEvents ?? 500;
  const loaded = await store.load();
  let cursor = loaded.cursor;
  let journalId = loaded.journalId;

  const buffer = new RowBuffer(opts.projections.flatMap((p) => p.tables));
  const projections: ProjectEvents[] = opts.projections.map((p) => p.start());
  let pushedSeq = cursor;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let failures = 0;
  let closed = false;
  const waiters: Array<{ seq: number; resolve: () => void }> = [];

  function settleWaiters(): void {
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i]!.seq <= cursor) {
        waiters[i]!.resolve();
        waiters.splice(i, 1);
      }
    }
  }

  function schedule(delay: number): void {
    if (timer !== null || closed) return;
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, delay);
  }

  async function writeOnce(): Promise<void> {
    if (pushedSeq <= cursor && buffer.count === 0) return;
    if (journalId === null) throw new Error('projector: not bound to a journal');
    const batchSeq = pushedSeq;
    const tables = buffer.take();
    try {
      await store.write({ journalId, seq: batchSeq, tables });
      cursor = Math.max(cursor, batchSeq);
      failures = 0;
      settleWaiters();
    } catch (err) {
      // Put the batch back under anything newer that arrived meanwhile, and retry later.
      buffer.restore(tables);
      failures++;
      log.error({ err, failures }, 'projector write failed; will retry');
      throw err;
    }
  }

  async function flush(): Promise<void> {
    // Wait for a write in progress (another caller may start the next one meanwhile).
    for (let r = running; r !== null; r = running as Promise<void> | null) await r.catch(() => {});
    if (pushedSeq <= cursor && buffer.count === 0) return;
    running = writeOnce().finally(() => {
      running = null;
    });
    try {
      await running;
    } catch {
      schedule(Math.min(5000, 100 * 2 ** Math.min(failures, 6)));
      return;
    }
    if (buffer.count > 0 || pushedSeq > cursor) schedule(buffer.count >= maxEvents ? 0 : flushMs);
  }

  return {
    get cursor() {
      return cursor;
    },
    get buffered() {
      return buffer.count;
    },
    get failures() {
      return failures;
    },
    get journalId() {
      return journalId;
    },
    bind(id) {
      journalId = id;
    },
    push(seq, events) {
      if (seq <= cursor) return;
      pushedSeq = seq;
      for (const project of projections) project(seq, events, buffer);
      if (buffer.count >= maxEvents && running === null) {
        if (timer !== null) clearTimeout(timer);
        timer = null;
        void flush();
      } else {
        schedule(flushMs);
      }
    },
    projected() {
      if (pushedSeq <= cursor) return Promise.resolve();
      const p = new Promise<void>((resolve) => waiters.push({ seq: pushedSeq, resolve }));
      void flush();
      return p;
    },
    flush,
    async close() {
      await flush();
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
