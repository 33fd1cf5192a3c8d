/**
 * The savings job of a server process (server.ts, and scale-out/gateway-main.ts): every EARN_SETTLE_EVERY_MS it asks
 * the savings service to settle when a lock has a whole day of interest unpaid or has matured on the process clock
 * (ctx.clock, the clock that stamps the command's `ts`). "Daily" is per lock: a lock's day k ends k x 24 h after it
 * started, and the job pays it within seconds. Runs where the chain jobs run (config.chainJobs: one process), though a
 * second runner would be harmless: the engine pays what is due once. Returns the stop function.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../platform/config/env';
import type { ServerClock } from '../../platform/shared/clock';
import { startPeriodicJob } from '../../platform/shared/periodic-job';
import type { EarnService } from './earn.service';

/** How often the job looks for due interest and matured locks (ms). */
export const EARN_SETTLE_EVERY_MS = 5_000;

/** Starts the settle job on `ctx` (nothing when this process does not run the chain jobs). */
export function startEarnJobs(
  ctx: { config: Pick<Config, 'chainJobs'>; earn: Pick<EarnService, 'settleDue'>; log: FastifyBaseLogger; clock: Pick<ServerClock, 'now'> },
  everyMs = EARN_SETTLE_EVERY_MS,
): () => void {
  if (!ctx.config.chainJobs) return () => {};
  return startPeriodicJob({
    everyMs,
    run: (now) => ctx.earn.settleDue(now),
    report: (did) => (did ? { msg: 'earn: interest paid and matured locks redeemed' } : undefined),
    failure: 'earn: settle job failed',
    log: ctx.log,
    clock: ctx.clock,
  });
}
