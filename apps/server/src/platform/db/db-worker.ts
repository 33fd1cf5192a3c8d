/**
 * The database worker thread (started by worker-client.ts): it owns the embedded PGlite, so that no query, and
 * above all no projection batch, runs its WebAssembly on the main thread's event loop (an order's
 * latency is validation + journal + engine + answer). The main thread's Drizzle reaches it through a PGlite-like
 * client (worker-client.ts) that forwards each query and transaction here; the projector's batches come as whole
 * batches (`projection.write`) and are turned into SQL here, by the same `drizzleProjectionStore` code.
 *
 * With PostgreSQL (`kind: 'postgres'`) the worker serves only the projection, on a pool of two connections of
 * its own: the main thread keeps its pool for everything else (pg is asynchronous already; what moves here is
 * building and encoding the projector's multi-row upserts).
 *
 * One request at a time per transaction; requests outside a transaction run as they come (PGlite queues them
 * itself, one statement at a time, as it did on the main thread).
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from './client';
import { localProjectionStore, tableIndex, type ProjectionStore } from './projection-store';
import type { DbWorkerInit, DbWorkerMemory, DbWorkerReply, DbWorkerRequest, WireError } from './db-worker-protocol';
import { applyMigrations } from './migrations';

const port = parentPort;
if (!port) throw new Error('db-worker.ts runs as a worker thread (worker-client.ts starts it)');
const init = workerData as DbWorkerInit;

/** An error as plain data (see WireError). */
function wireError(err: unknown): WireError {
  if (!(err instanceof Error)) return { message: String(err), name: 'Error', fields: {} };
  const fields: WireError['fields'] = {};
  for (const [k, v] of Object.entries(err)) {
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') fields[k] = v;
  }
  return { message: err.message, name: err.name, stack: err.stack, fields };
}

function reply(r: DbWorkerReply): void {
  port!.postMessage(r);
}

const identity = (v: unknown) => v;
/** Parser tables by their OID list (drizzle sends the same few lists again and again). */
const parserTables = new Map<string, Record<number, (v: unknown) => unknown>>();
function parsersFor(oids: number[]): Record<number, (v: unknown) => unknown> {
  const key = oids.join(',');
  let t = parserTables.get(key);
  if (!t) {
    t = Object.fromEntries(oids.map((o) => [o, identity]));
    parserTables.set(key, t);
  }
  return t;
}

interface OpenTx {
  tx: Transaction;
  /** Ends the transaction: true commits, false rolls back. */
  finish(commit: boolean): void;
  /** Settles when the transaction has committed (or rolled back); rejects when COMMIT failed. */
  done: Promise<void>;
}

async function main(): Promise<void> {
  let client: PGlite | null = null;
  let pool: pg.Pool | null = null;
  let store: ProjectionStore;
  // The domains' tables: the module the main thread named (none: a database nothing projects into).
  const tables = tableIndex(init.schemaModule === undefined ? {} : ((await import(init.schemaModule)) as Record<string, unknown>));
  if (init.kind === 'pglite') {
    client = new PGlite(init.dir);
    const db = drizzlePglite(client) as unknown as Db;
    await applyMigrations((config) => migratePglite(db as never, config), init.migrations);
    store = localProjectionStore(db, tables);
  } else {
    pool = new pg.Pool({ connectionString: init.url, max: 2 });
    // An idle connection's error (the server restarted) is only logged: the pool opens a new one when needed.
    pool.on('error', (err) => console.warn(`database worker: connection lost: ${err.message}`));
    store = localProjectionStore(drizzlePg(pool) as unknown as Db, tables);
  }
  const txs = new Map<number, OpenTx>();

  async function begin(id: number): Promise<void> {
    if (!client) throw new Error('transactions are served only by the PGlite worker');
    let finish!: (commit: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (finish = resolve));
    let started!: () => void;
    const begun = new Promise<void>((resolve) => (started = resolve));
    let entry: OpenTx | undefined;
    const done = client
      .transaction(async (tx) => {
        entry = { tx, finish, done: Promise.resolve() };
        txs.set(id, entry);
        started();
        if (!(await decided)) await tx.rollback();
      })
      .then(() => undefined)
      .finally(() => txs.delete(id));
    // BEGIN itself may fail (the callback never runs): the caller hears it now.
    await Promise.race([begun, done]);
    entry!.done = done;
  }

  async function handle(m: DbWorkerRequest): Promise<unknown> {
    switch (m.op) {
      case 'query': {
        const target = m.tx === 0 ? client : txs.get(m.tx)?.tx;
        if (!target) throw new Error(m.tx === 0 ? 'queries are served only by the PGlite worker' : `no open transaction ${m.tx}`);
        const r = await target.query(m.sql, m.params, { rowMode: m.rowMode, parsers: parsersFor(m.rawOids) });
        return { rows: r.rows, fields: r.fields, affectedRows: r.affectedRows };
      }
      case 'exec': {
        const target = m.tx === 0 ? client : txs.get(m.tx)?.tx;
        if (!target) throw new Error(`no open transaction ${m.tx}`);
        const rs = await target.exec(m.sql);
        return rs.map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows }));
      }
      case 'begin':
        await begin(m.tx);
        return undefined;
      case 'end': {
        const t = txs.get(m.tx);
        if (!t) throw new Error(`no open transaction ${m.tx}`);
        t.finish(m.commit);
        await t.done;
        return undefined;
      }
      case 'projection.load':
        return store.load();
      case 'projection.write':
        await store.write(m.batch);
        return undefined;
      case 'memory': {
        const h = getHeapStatistics();
        const answer: DbWorkerMemory = {
          heapUsedBytes: h.used_heap_size,
          heapTotalBytes: h.total_heap_size,
          wasmBytes: client ? client.Module.wasmMemory.buffer.byteLength : null,
        };
        return answer;
      }
      case 'close':
        for (const t of txs.values()) t.finish(false);
        await Promise.allSettled([...txs.values()].map((t) => t.done));
        if (client) await client.close();
        if (pool) await pool.end();
        return undefined;
    }
  }

  port!.on('message', (m: DbWorkerRequest) => {
    handle(m).then(
      (result) => reply({ id: m.id, ok: true, result }),
      (err: unknown) => reply({ id: m.id, ok: false, error: wireError(err) }),
    );
  });
  reply({ id: 0, ok: true });
}

main().catch((err: unknown) => reply({ id: 0, ok: false, error: wireError(err) }));
