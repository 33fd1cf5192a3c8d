/**
 * The activity payout job of a server process (server.ts, and scale-out/gateway-main.ts): every
 * ACTIVITY_SETTLE_EVERY_MS it submits activitySettle for each activity past its end (on the process clock, ctx.clock,
 * the clock that stamps the command's `ts`) and not yet paid. The engine pays an activity once: a second settle (this
 * job running twice, in two gateways, or again after a restart that replayed the journal) is a no-op. Runs where the
 * chain jobs run (config.chainJobs). Returns the stop function.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../platform/config/env';
import type { ServerClock } from '../../platform/shared/clock';
import { startPeriodicJob } from '../../platform/shared/periodic-job';
import type { ActivityService } from './activity.service';

/** How often the job looks for activities to pay (ms). */
export const ACTIVITY_SETTLE_EVERY_MS = 5_000;

/** Starts the payout job on `ctx` (nothing when this process does not run the chain jobs). */
export function startActivityJobs(
  ctx: { config: Pick<Config, 'chainJobs'>; activity: Pick<ActivityService, 'settleDue'>; log: FastifyBaseLogger; clock: Pick<ServerClock, 'now'> },
  everyMs = ACTIVITY_SETTLE_EVERY_MS,
): () => void {
  if (!ctx.config.chainJobs) return () => {};
  return startPeriodicJob({
    everyMs,
    run: (now) => ctx.activity.settleDue(now),
    report: (n) => (n > 0 ? { msg: 'activity: ended activities paid', fields: { paid: n } } : undefined),
    failure: 'activity: payout job failed',
    log: ctx.log,
    clock: ctx.clock,
  });
}
