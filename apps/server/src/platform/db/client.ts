/**
 * Database client: PGlite under `<dataDir>/pglite` by default, PostgreSQL via `pg` when DATABASE_URL is set.
 * Migrations from apps/server/drizzle are applied on open.
 *
 * PGlite runs in a worker thread (db-worker.ts) by default: its WebAssembly would otherwise run every query, and
 * every projection batch, on the event loop that answers orders (the getMember bench spent 80% of the
 * main thread in PGlite). With PostgreSQL, the projector's batches are written by such a worker too, on a pool of
 * its own. `worker: false` keeps everything in this thread (the old way; for tools that want no thread).
 */
import path from 'node:path';
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { startDbWorker } from './worker-client';
import { localProjectionStore, registerProjectionStore, tableIndex } from './projection-store';
import { SERVER_ROOT } from '../config/server-root';
import { applyMigrations, MIGRATION_SETS } from './migrations';
import type { DbWorkerMemory } from './db-worker-protocol';

/** A Drizzle database over either driver (queries name their tables; no relational query API). */
export type Db = PgDatabase<PgQueryResultHKT>;

/** The server's own migrations folder (the first of MIGRATION_SETS: migrations.ts). */
export const MIGRATIONS_FOLDER = path.join(SERVER_ROOT, 'drizzle');

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** What the database worker thread holds in memory (absent without a worker: `worker: false`). */
  memory?: () => Promise<DbWorkerMemory>;
}

/** Connection errors a start waits out (the server down, restarting or not accepting connections yet). */
const TRANSIENT = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND', '57P03', '53300']);

/**
 * Resolves once PostgreSQL answers `select 1` on `pool`, retrying a transient connection error (TRANSIENT) with a
 * backoff from 250 ms doubling to 5 s for up to `withinMs`; throws the last error then, or at once on any other
 * error (a wrong password, a missing database).
 */
export async function waitForPostgres(pool: pg.Pool, withinMs: number, onRetry?: (err: Error, waitMs: number) => void): Promise<void> {
  const end = Date.now() + withinMs;
  for (let wait = 250; ; wait = Math.min(wait * 2, 5_000)) {
    try {
      await pool.query('select 1');
      return;
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (!TRANSIENT.has(code) || Date.now() + wait > end) throw err;
      (onRetry ?? ((e: Error, ms: number) => console.warn(`PostgreSQL not reachable (${e.message}); trying again in ${ms} ms`)))(err as Error, wait);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/**
 * Opens the database and applies migrations. `databaseUrl` selects PostgreSQL; otherwise PGlite in
 * `<dataDir>/pglite`, or in memory when dataDir is 'memory://'.
 */
export async function openDb(opts: {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** Told about errors of idle pooled connections (e.g. PostgreSQL restarted); default: console.warn. */
  onPoolError?: (err: Error) => void;
  /** Run PGlite (or, on PostgreSQL, the projection's writes) in a worker thread (default true). */
  worker?: boolean;
  /** Told when the database worker dies while open (the server makes it fatal); default: nothing more. */
  onWorkerDeath?: (err: Error) => void;
  /**
   * A migrated PGlite data directory (see makePgliteTemplate) copied into `<dataDir>/pglite` when that holds no
   * database yet, instead of initialising a new cluster there (seconds of WebAssembly). Migrations still run after.
   */
  pgliteTemplateDir?: string | undefined;
  /**
   * The URL of the module that exports every table the engine's events are projected into, as its exports or its
   * default export's values (the server's: main/schema.ts, by `SCHEMA_MODULE` in main/domains.ts). A URL, not the
   * tables, because the database worker thread imports it too. Without it the database has no projection store (drizzleProjectionStore throws).
   */
  schemaModule?: string | undefined;
  /**
   * PostgreSQL: how long a start waits for the server to accept connections, retrying with a backoff from 250 ms
   * doubling to 5 s (default 120,000 ms; 0 = one try): a gateway or engine process started while PostgreSQL restarts
   * waits for it instead of exiting. Each failed try is told to `onConnectRetry`.
   */
  connectRetryMs?: number;
  /** Told of each failed connection try while waiting (default: console.warn). */
  onConnectRetry?: (err: Error, waitMs: number) => void;
}): Promise<DbHandle> {
  const schemaModule = opts.schemaModule;
  const useWorker = opts.worker ?? true;
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle client's error (the server restarted, or terminated the connection) is emitted on the pool; without
    // a listener it would be an uncaught exception. The pool drops that client and opens a new one when needed.
    pool.on('error', opts.onPoolError ?? ((err) => console.warn(`database connection lost: ${err.message}`)));
    try {
      await waitForPostgres(pool, opts.connectRetryMs ?? 120_000, opts.onConnectRetry);
    } catch (err) {
      await pool.end();
      throw err;
    }
    const db = drizzlePg(pool) as unknown as Db;
    await applyMigrations((config) => migratePg(db as never, config));
    if (!useWorker) {
      await registerLocalStore(db, schemaModule);
      return { db, kind: 'postgres', close: () => pool.end() };
    }
    let worker;
    try {
      worker = await startDbWorker({ kind: 'postgres', url: opts.databaseUrl, schemaModule }, opts.onWorkerDeath);
    } catch (err) {
      await pool.end();
      throw err;
    }
    if (schemaModule !== undefined) registerProjectionStore(db, worker.projectionStore);
    return {
      db,
      kind: 'postgres',
      memory: () => worker.memory(),
      async close() {
        try {
          await worker.close();
        } finally {
          await pool.end();
        }
      },
    };
  }
  let dir: string | undefined;
  if (opts.dataDir !== 'memory://') {
    dir = path.join(opts.dataDir, 'pglite');
    if (opts.pgliteTemplateDir && (!fs.existsSync(dir) || fs.readdirSync(dir).length === 0)) {
      fs.cpSync(opts.pgliteTemplateDir, dir, { recursive: true });
    }
    fs.mkdirSync(dir, { recursive: true });
  }
  if (useWorker) {
    const worker = await startDbWorker({ kind: 'pglite', dir, migrations: MIGRATION_SETS, schemaModule }, opts.onWorkerDeath);
    const db = drizzlePglite(worker.client as unknown as PGlite) as unknown as Db;
    if (schemaModule !== undefined) registerProjectionStore(db, worker.projectionStore);
    return { db, kind: 'pglite', close: () => worker.close(), memory: () => worker.memory() };
  }
  const client = new PGlite(dir);
  const db = drizzlePglite(client) as unknown as Db;
  await applyMigrations((config) => migratePglite(db as never, config));
  await registerLocalStore(db, schemaModule);
  return { db, kind: 'pglite', close: () => client.close() };
}

/** A database opened without a worker writes its projection from this thread, into the schema module's tables. */
async function registerLocalStore(db: Db, schemaModule: string | undefined): Promise<void> {
  if (schemaModule === undefined) return;
  registerProjectionStore(db, localProjectionStore(db, tableIndex((await import(schemaModule)) as Record<string, unknown>)));
}

/**
 * Makes a PGlite data directory at `dir` (which must not hold one) with every migration applied, for `openDb`'s
 * `pgliteTemplateDir`: the tests make one per run, so that each test's database starts as a copy of it.
 */
export async function makePgliteTemplate(dir: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const client = new PGlite(dir);
  try {
    const db = drizzlePglite(client);
    await applyMigrations((config) => migratePglite(db as never, config));
  } finally {
    await client.close();
  }
}
