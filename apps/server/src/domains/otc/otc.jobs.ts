/**
 * The OTC jobs of a server process (server.ts, and scale-out/gateway-main.ts): the time-out job, every
 * OTC_TIMEOUT_EVERY_MS, submits otcCancelOrder (no userId: the time-out) for every unpaid order past its deadline on
 * the process clock (ctx.clock, the clock that stamps the command's `ts`; the engine refuses an early one). Runs where
 * the chain jobs run (config.chainJobs: the embedded server, one gateway in the scale-out mode, docs/deploy.md), so
 * gateways do not race each other (a race would be harmless: the engine cancels an order once and refuses the
 * second). Returns the stop function.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../platform/config/env';
import type { ServerClock } from '../../platform/shared/clock';
import { startPeriodicJob } from '../../platform/shared/periodic-job';
import type { OtcService } from './otc.service';

/** How often the time-out job looks for expired orders (ms). */
export const OTC_TIMEOUT_EVERY_MS = 5_000;

/** Starts the time-out job on `ctx` (nothing when this process does not run the chain jobs). */
export function startOtcJobs(
  ctx: { config: Pick<Config, 'chainJobs'>; otc: Pick<OtcService, 'cancelExpired'>; log: FastifyBaseLogger; clock: Pick<ServerClock, 'now'> },
  everyMs = OTC_TIMEOUT_EVERY_MS,
): () => void {
  if (!ctx.config.chainJobs) return () => {};
  return startPeriodicJob({
    everyMs,
    run: (now) => ctx.otc.cancelExpired(now),
    report: (n) => (n > 0 ? { msg: 'otc: unpaid orders cancelled at their deadline', fields: { cancelled: n } } : undefined),
    failure: 'otc: time-out job failed',
    log: ctx.log,
    clock: ctx.clock,
  });
}
