/**
 * The daily rebate settlement job (spec section 9 "settled daily at 00:00"): every REBATE_JOB_EVERY_MS it
 * asks the invite service to settle the day before the current Asia/Shanghai day on the process clock (ctx.clock,
 * the clock that stamps the command's `ts`); the engine pays each day once (settleRebates is idempotent per day), so
 * a retry, a second process or a restart in the middle pays nothing twice. Runs where the chain jobs run
 * (config.chainJobs: the embedded server, one gateway in the scale-out mode). Returns the stop function.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../platform/config/env';
import type { ServerClock } from '../../platform/shared/clock';
import { startPeriodicJob } from '../../platform/shared/periodic-job';
import type { InviteService } from './invite.service';

/** How often the job looks for a day to settle (ms): the settlement lands within this after 00:00. */
export const REBATE_JOB_EVERY_MS = 5_000;

/** Starts the settlement job on `ctx` (nothing when this process does not run the chain jobs). */
export function startInviteJobs(
  ctx: { config: Pick<Config, 'chainJobs'>; invite: Pick<InviteService, 'settleDue'>; log: FastifyBaseLogger; clock: Pick<ServerClock, 'now'> },
  everyMs = REBATE_JOB_EVERY_MS,
): () => void {
  if (!ctx.config.chainJobs) return () => {};
  return startPeriodicJob({
    everyMs,
    run: (now) => ctx.invite.settleDue(now),
    report: (r) =>
      r !== null ? { msg: 'invite: rebates settled', fields: { day: r.day, code: r.code, payouts: r.payouts, paid: r.paid.toString() } } : undefined,
    failure: 'invite: rebate settlement failed',
    immediately: true,
    log: ctx.log,
    clock: ctx.clock,
  });
}
