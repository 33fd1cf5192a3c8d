/**
 * The database's retention: each domain declares, beside its tables, which of their rows may go once old
 * (`RetentionRule`: the table, the condition that makes a row old before a cut-off time, and the configured horizon
 * in days, RETENTION_* in platform/config/env.ts); its module lists them (`retention` in platform/domain-module.ts),
 * and this one runner deletes them for every domain, so no domain writes its own clean-up job.
 *
 * The database is a projection of the journal (ARCHITECTURE.md section 3), so what retention deletes is history
 * the journal still holds: a database rebuilt from the journal gets the old rows back, and the next run deletes them
 * again. Nothing the engine or a projection reads back to decide something lies in these rows (the projector writes
 * trades once by id and orders by id with a `seq` guard; a deleted closed order gets no later state).
 *
 * Deletes run in bounded batches: one statement removes at most `batchRows` rows (picked by `ctid`, so a table needs
 * no key for it), and a run makes at most `maxBatchesPerRule` statements per rule, so one run never holds the
 * database (and with PGlite the worker thread that also writes the projector's batches) for long; what is left waits
 * for the next run. Between two statements the runner yields to the event loop.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import type { Config, RetentionConfig } from '../config/env';
import type { ServerClock } from '../shared/clock';
import { startPeriodicJob } from '../shared/periodic-job';
import type { Db } from './client';

/** One day in ms. */
export const DAY_MS = 86_400_000;

/** Rows of one table that may be deleted once they are older than a horizon. */
export interface RetentionRule {
  /** Name in the metrics and the log line: the table's name, with the kind of row when a table has several rules (e.g. 'spot_trades:market'). */
  readonly name: string;
  /** The table the rows are deleted from. */
  readonly table: PgTable;
  /** The horizon in whole days from the configuration; 0 = the rows are kept for ever (the rule does not run). */
  readonly horizonDays: (retention: RetentionConfig) => number;
  /**
   * The condition of a row that may go, given the cut-off (Unix ms: now minus the horizon): e.g. a trade's time
   * before it, or a session that expired before it. Written with the table's columns (drizzle's operators).
   */
  readonly expired: (cutoffMs: number) => SQL;
}

/** Rows one run deleted, per rule name (only the rules that deleted anything). */
export type RetentionReport = Record<string, number>;

/** What `runRetention` needs beyond the database and the rules. */
export interface RetentionRunOptions {
  /** The horizons and the batch bounds (Config.retention). */
  retention: RetentionConfig;
  /** Now, Unix ms (the process clock). */
  now: number;
  /** Told the rows each statement deleted (the metrics' counter). */
  onDeleted?: (rule: string, rows: number) => void;
}

/** The statement that deletes at most `limit` rows of `rule` older than `cutoffMs`, answering their count (`n`). */
export function retentionBatch(rule: RetentionRule, cutoffMs: number, limit: number): SQL {
  // `ctid = any(array(...))` is a TID scan on PostgreSQL: the batch is found by the condition's index and deleted
  // row by row, not by a scan of the whole table.
  return sql`with gone as (delete from ${rule.table} where ctid = any(array(select ctid from ${rule.table} where ${rule.expired(cutoffMs)} limit ${limit})) returning 1) select count(*)::int as n from gone`;
}

/** The count answered by `retentionBatch` (both drivers answer `{ rows }`). */
function countOf(result: unknown): number {
  const rows = (result as { rows?: Array<{ n?: unknown }> }).rows ?? [];
  return Number(rows[0]?.n ?? 0);
}

/**
 * Deletes what `rules` let go at `opts.now`, in batches (see the file comment), and answers the rows deleted per rule.
 * A rule whose horizon is 0 does not run. Throws the database's error (the rows deleted so far stay deleted).
 */
export async function runRetention(db: Db, rules: readonly RetentionRule[], opts: RetentionRunOptions): Promise<RetentionReport> {
  const report: RetentionReport = {};
  const { batchRows, maxBatchesPerRule } = opts.retention;
  for (const rule of rules) {
    const days = rule.horizonDays(opts.retention);
    if (days <= 0) continue;
    const cutoffMs = opts.now - days * DAY_MS;
    for (let batch = 0; batch < maxBatchesPerRule; batch++) {
      const n = countOf(await db.execute(retentionBatch(rule, cutoffMs, batchRows)));
      if (n > 0) {
        report[rule.name] = (report[rule.name] ?? 0) + n;
        opts.onDeleted?.(rule.name, n);
      }
      if (n < batchRows) break;
      // Let the event loop (requests, the projector's next batch) run between two statements.
      await new Promise((r) => setImmediate(r));
    }
  }
  return report;
}

/** The retention rules of `modules` (their `retention` lists), in list order. */
export function retentionOf(modules: readonly object[]): RetentionRule[] {
  return modules.flatMap((m) => ('retention' in m && Array.isArray(m.retention) ? (m.retention as RetentionRule[]) : []));
}

/** What the retention job needs of the process's context. */
export interface RetentionJobContext {
  config: Pick<Config, 'retention' | 'chainJobs'>;
  db: Db;
  log: FastifyBaseLogger;
  clock: Pick<ServerClock, 'now'>;
  metrics?: { retentionDeleted(rule: string, rows: number): void };
}

/**
 * Starts the retention job: every RETENTION_EVERY_MINUTES (and once at start) `runRetention` over `rules`, the rows
 * counted in the metrics and a summary logged when anything went. Runs where the chain jobs run (config.chainJobs:
 * one process of the scale-out mode; a second runner would only race the first for the same rows). Nothing when
 * RETENTION_EVERY_MINUTES is 0. Returns the stop function.
 */
export function startRetentionJob(ctx: RetentionJobContext, rules: readonly RetentionRule[]): () => void {
  const { retention, chainJobs } = ctx.config;
  if (!chainJobs || retention.everyMinutes <= 0 || rules.length === 0) return () => {};
  return startPeriodicJob({
    everyMs: retention.everyMinutes * 60_000,
    immediately: true,
    run: (now) =>
      runRetention(ctx.db, rules, {
        retention,
        now,
        onDeleted: (rule, rows) => ctx.metrics?.retentionDeleted(rule, rows),
      }),
    report: (deleted) => (Object.keys(deleted).length > 0 ? { msg: 'retention: old rows deleted', fields: { deleted } } : undefined),
    failure: 'retention: run failed',
    log: ctx.log,
    clock: ctx.clock,
  });
}
