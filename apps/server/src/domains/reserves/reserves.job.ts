/**
 * The proof-of-reserves job of the server process (server.ts): in demo mode a first snapshot when none exists (so the
 * app's page has data from the first start), then one every RESERVES_EVERY_HOURS (config.reservesEveryHours, 0 = only
 * on demand from the console). Runs in the process that runs the chain jobs (config.chainJobs: exactly one gateway in
 * the scale-out mode), so gateways do not publish one snapshot each. Returns the stop function.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../platform/config/env';
import type { ReservesService } from './reserves.service';

/** Starts the job on `ctx`; resolves after the demo's first snapshot (a failure is logged, not thrown). */
export async function startReservesJob(ctx: {
  config: Pick<Config, 'chainJobs' | 'demoMode' | 'reservesEveryHours'>;
  reserves: Pick<ReservesService, 'ensureSnapshot' | 'schedule'>;
  log: FastifyBaseLogger;
}): Promise<() => void> {
  if (!ctx.config.chainJobs) return () => {};
  if (ctx.config.demoMode) {
    try {
      await ctx.reserves.ensureSnapshot();
    } catch (err) {
      ctx.log.error({ err }, 'first proof-of-reserves snapshot failed');
    }
  }
  return ctx.reserves.schedule(ctx.config.reservesEveryHours);
}
