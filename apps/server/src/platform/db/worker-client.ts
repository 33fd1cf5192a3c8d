/**
 * The main thread's side of the database worker (db-worker.ts): starts the worker thread, and gives
 * - `client`: an object with the part of PGlite's interface that Drizzle's PGlite driver uses (`query`,
 *   `transaction`, `exec`), each call forwarded to the worker, so `drizzle(client)` works as on a PGlite in this
 *   thread while the WebAssembly runs in the other one;
 * - `projectionStore`: the projector's sink, whose batches are turned into SQL and written in the worker.
 *
 * The worker keeps the process alive only while a request is waiting for it (so a script that forgets to close
 * the database still exits, as it did with PGlite in this thread). If the worker dies, every waiting and later
 * request fails with the reason, and `onDeath` is told (unless it was closed): the server treats it as fatal
 * (context.ts -> onFatal), as a lost database in this thread would be; the journal is the truth on restart.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { ProjectionBatch, ProjectionState, ProjectionStore } from './projection-types';
import type { DbWorkerInit, DbWorkerMemory, DbWorkerReply, DbWorkerRequest, WireError } from './db-worker-protocol';

/** Drizzle's query options (rowMode, and identity parsers keyed by type OID). */
interface QueryConfig {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, unknown>;
}

/** A query result as PGlite gives it. */
export interface WorkerResults {
  rows: unknown[];
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
}

/** The PGlite-shaped client Drizzle's PGlite driver is given. */
export interface WorkerPgliteClient {
  query(sql: string, params?: unknown[], config?: QueryConfig): Promise<WorkerResults>;
  exec(sql: string): Promise<WorkerResults[]>;
  transaction<T>(fn: (tx: { query: WorkerPgliteClient['query']; exec: WorkerPgliteClient['exec'] }) => Promise<T>): Promise<T>;
}

/** A running database worker. */
export interface DbWorker {
  /** For Drizzle's PGlite driver (PGlite workers only; a PostgreSQL worker answers queries with an error). */
  client: WorkerPgliteClient;
  /** The projection written in the worker. */
  projectionStore: ProjectionStore;
  /** What the worker thread holds in memory (its V8 heap, PGlite's WebAssembly memory). */
  memory(): Promise<DbWorkerMemory>;
  /** Closes the database in the worker and stops the thread. */
  close(): Promise<void>;
  /** Fault tests: stops the thread as a crash would (no close; `onDeath` is told). */
  crash(): Promise<void>;
}

/** A request without its id (distributive, so each op keeps its own fields). */
type DbWorkerRequestBody = DbWorkerRequest extends infer R ? (R extends DbWorkerRequest ? Omit<R, 'id'> : never) : never;

/** Rebuilds an error that crossed from the worker, with its fields (e.g. PostgreSQL's `code`). */
function toError(w: WireError): Error {
  const err = Object.assign(new Error(w.message), w.fields);
  err.name = w.name;
  if (w.stack) err.stack = w.stack;
  return err;
}

/**
 * How the worker is started: the built server runs `db-worker.js` beside its own bundle; from TypeScript sources
 * (tsx, vitest) the worker registers tsx's loader first, then imports `db-worker.ts`.
 */
function spawnWorker(init: DbWorkerInit): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  if (!fromSource) return new Worker(new URL('./db-worker.js', import.meta.url), { workerData: init });
  // tsx's ESM API (its CommonJS twin cannot register the ESM loader), found from this file like any dependency.
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const entry = new URL('./db-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { eval: true, workerData: init });
}

/**
 * Starts the worker, opens (and for PGlite migrates) the database in it; rejects with the worker's error.
 * `onDeath` is called once if the worker stops (error or exit) after it started and before `close()`.
 */
export async function startDbWorker(init: DbWorkerInit, onDeath?: (err: Error) => void): Promise<DbWorker> {
  const worker = spawnWorker(init);
  let nextId = 1;
  let nextTx = 1;
  let dead: Error | null = null;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let started!: { resolve: (v: unknown) => void; reject: (e: Error) => void };
  const ready = new Promise((resolve, reject) => (started = { resolve, reject }));

  worker.on('message', (r: DbWorkerReply) => {
    const w = r.id === 0 ? started : waiting.get(r.id);
    if (!w) return;
    waiting.delete(r.id);
    if (waiting.size === 0) worker.unref();
    if (r.ok) w.resolve(r.result);
    else w.reject(toError(r.error));
  });
  let closing = false;
  let running = false;
  const stop = (err: Error) => {
    if (!dead && running && !closing) onDeath?.(err);
    dead ??= err;
    started.reject(err);
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  worker.on('error', (err) => stop(err));
  worker.on('exit', (code) => stop(new Error(`the database worker stopped (exit code ${code})`)));

  function call<T>(req: DbWorkerRequestBody): Promise<T> {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      if (waiting.size === 0) worker.ref();
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ ...req, id } as DbWorkerRequest);
    });
  }

  const queryIn =
    (tx: number) =>
    (sql: string, params: unknown[] = [], config: QueryConfig = {}): Promise<WorkerResults> =>
      call({ op: 'query', sql, params, rowMode: config.rowMode ?? 'object', rawOids: Object.keys(config.parsers ?? {}).map(Number), tx });
  const execIn = (tx: number) => (sql: string) => call<WorkerResults[]>({ op: 'exec', sql, tx });

  const client: WorkerPgliteClient = {
    query: queryIn(0),
    exec: execIn(0),
    async transaction(fn) {
      const tx = nextTx++;
      await call({ op: 'begin', tx });
      let result;
      try {
        result = await fn({ query: queryIn(tx), exec: execIn(tx) });
      } catch (err) {
        await call({ op: 'end', tx, commit: false }).catch(() => {});
        throw err;
      }
      await call({ op: 'end', tx, commit: true });
      return result;
    },
  };

  const projectionStore: ProjectionStore = {
    load: () => call<ProjectionState>({ op: 'projection.load' }),
    write: (batch: ProjectionBatch) => call<void>({ op: 'projection.write', batch }),
  };

  try {
    await ready;
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  worker.unref();
  running = true;
  let closed: Promise<void> | null = null;
  return {
    client,
    projectionStore,
    memory: () => call<DbWorkerMemory>({ op: 'memory' }),
    close() {
      closing = true;
      closed ??= (async () => {
        try {
          await call({ op: 'close' });
        } finally {
          await worker.terminate();
        }
      })();
      return closed;
    },
    async crash() {
      await worker.terminate();
    },
  };
}
