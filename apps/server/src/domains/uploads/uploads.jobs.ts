/**
 * The uploads job of a server process: every UNUSED_UPLOADS_EVERY_MS it removes the images nobody referred to within
 * their grace period (`UploadsService.removeUnused`: bounded batches, rows then files), counts them in
 * `exchange_uploads_removed_total` and `exchange_uploads_removed_bytes_total` (and the files it could not delete in
 * `exchange_uploads_remove_errors_total`), and logs a summary line when it removed any. Runs where the chain jobs run
 * (config.chainJobs: the embedded server, one gateway in the scale-out mode), on the wall clock (the rows'
 * `created_at` is the database's time, not the demo's process clock). Returns the stop function.
 */
import type { FastifyBaseLogger } from 'fastify';
import { Counter } from 'prom-client';
import type { Config } from '../../platform/config/env';
import type { ProcessMetrics } from '../../platform/metrics/metrics';
import { startPeriodicJob } from '../../platform/shared/periodic-job';
import type { UnusedUploadsRemoved, UploadsService } from './uploads.service';

/** How often the cleanup runs (ms). */
export const UNUSED_UPLOADS_EVERY_MS = 10 * 60_000;

/** The counters of the cleanup, on the process's metrics registry (none when the context has no metrics). */
function cleanupCounters(metrics: Pick<ProcessMetrics, 'registry'> | undefined): (r: UnusedUploadsRemoved) => void {
  if (!metrics) return () => {};
  const registers = [metrics.registry];
  const removed = new Counter({ name: 'exchange_uploads_removed_total', help: 'Uploaded images removed as unused after their grace period', registers });
  const bytes = new Counter({ name: 'exchange_uploads_removed_bytes_total', help: 'Stored bytes of the uploaded images removed as unused', registers });
  const errors = new Counter({
    name: 'exchange_uploads_remove_errors_total',
    help: 'Files of removed uploads the storage could not delete (orphaned bytes)',
    registers,
  });
  return (r) => {
    removed.inc(r.removed);
    bytes.inc(r.bytes);
    errors.inc(r.storageErrors);
  };
}

/** Starts the cleanup on `ctx` (nothing when this process does not run the chain jobs). */
export function startUploadsJobs(
  ctx: {
    config: Pick<Config, 'chainJobs'>;
    uploads: Pick<UploadsService, 'removeUnused'>;
    log: FastifyBaseLogger;
    metrics?: Pick<ProcessMetrics, 'registry'>;
  },
  everyMs = UNUSED_UPLOADS_EVERY_MS,
  wallClock: () => number = () => Date.now(),
): () => void {
  if (!ctx.config.chainJobs) return () => {};
  const count = cleanupCounters(ctx.metrics);
  return startPeriodicJob({
    everyMs,
    immediately: true,
    run: async (now) => {
      const r = await ctx.uploads.removeUnused(now);
      count(r);
      return r;
    },
    report: (r) =>
      r.removed > 0 || r.storageErrors > 0
        ? { msg: 'uploads: unused images removed', fields: { removed: r.removed, bytes: r.bytes, storageErrors: r.storageErrors, more: r.more } }
        : undefined,
    failure: 'uploads: unused image cleanup failed',
    log: ctx.log,
    clock: { now: wallClock },
  });
}
