/**
 * The OTC jobs of a server process (server.ts): the time-out job, every OTC_TIMEOUT_EVERY_MS, submits otcCancelOrder
 * (no userId: the time-out) for every unpaid order past its deadline (the engine refuses an early one). Runs where
 * the chain jobs run (config.chainJobs: the embedded server, exactly one gateway in the scale-out mode), so gateways do
 * not race each other. Returns the stop function.
 */
import type { AppContext } from '../../context';

/** How often the time-out job looks for expired orders (ms). */
export const OTC_TIMEOUT_EVERY_MS = 5_000;

/** Starts the time-out job on `ctx` (nothing when this process does not run the chain jobs). */
export function startOtcJobs(ctx: Pick<AppContext, 'config' | 'otc' | 'log'>, everyMs = OTC_TIMEOUT_EVERY_MS): () => void {
  if (!ctx.config.chainJobs) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    ctx.otc
      .cancelExpired(Date.now())
      .then((n) => {
        if (n > 0) ctx.log.info({ cancelled: n }, 'otc: unpaid orders cancelled at their deadline');
      })
      .catch((err: unknown) => ctx.log.error({ err }, 'otc: time-out job failed'))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
