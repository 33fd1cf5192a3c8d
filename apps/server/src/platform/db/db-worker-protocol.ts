/**
 * The messages between the main thread and the database worker (db-worker.ts, worker-client.ts). Everything in
 * them crosses threads by structured clone: strings, numbers, bigints, Dates, arrays and plain objects.
 */
import type { ProjectionBatch, ProjectionState } from './projection-types';
import type { MigrationSet } from './migrations';

/** What the worker opens (its workerData). */
export type DbWorkerInit =
  | {
      kind: 'pglite';
      /** PGlite's directory, or undefined for an in-memory database. */
      dir: string | undefined;
      /** The migration sets to apply, in order (migrations.ts). */
      migrations: readonly MigrationSet[];
      /** The URL of the module that exports every table (openDb's `schemaModule`), imported by the worker. */
      schemaModule: string | undefined;
    }
  | {
      /** PostgreSQL: the worker only writes the projection, on a small pool of its own (migrations ran on the main thread). */
      kind: 'postgres';
      url: string;
      schemaModule: string | undefined;
    };

/** A request of the main thread; `id` pairs it with its answer. */
export type DbWorkerRequest =
  | {
      id: number;
      op: 'query';
      sql: string;
      params: unknown[];
      rowMode: 'array' | 'object';
      /** Type OIDs whose text is returned as it is (drizzle's identity parsers: timestamps, dates, intervals...). */
      rawOids: number[];
      /** The transaction it runs in (0: none). */
      tx: number;
    }
  | { id: number; op: 'exec'; sql: string; tx: number }
  | { id: number; op: 'begin'; tx: number }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'projection.load' }
  | { id: number; op: 'projection.write'; batch: ProjectionBatch }
  | { id: number; op: 'memory' }
  | { id: number; op: 'close' };

/** An error as it crosses threads: its message, name, stack and primitive fields (e.g. PostgreSQL's `code`). */
export interface WireError {
  message: string;
  name: string;
  stack?: string | undefined;
  fields: Record<string, string | number | boolean | null>;
}

/** The answer to request `id`; id 0 answers the start-up (open and migrate). */
export type DbWorkerReply = { id: number; ok: true; result?: unknown } | { id: number; ok: false; error: WireError };

/**
 * The result of `memory`: what the worker thread holds, which the process's own heap metrics do not show (a worker
 * is a V8 isolate of its own). Bytes.
 */
export interface DbWorkerMemory {
  /** The worker's V8 heap: in use, and reserved from the system. */
  heapUsedBytes: number;
  heapTotalBytes: number;
  /** PGlite's WebAssembly memory (its PostgreSQL's shared buffers, caches and work memory; it grows, never shrinks); null with PostgreSQL. */
  wasmBytes: number | null;
}

/** The result of `projection.load`. */
export type ProjectionLoadResult = ProjectionState;
