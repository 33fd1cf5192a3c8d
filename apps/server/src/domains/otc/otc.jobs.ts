/**
 * The OTC jobs of a server process (server.ts, and scale-out/gateway-main.ts): the time-out job, every
 * OTC_TIMEOUT_EVERY_MS, submits otcCancelOrder (no userId: the time-out) for every unpaid order past its deadline on
 * the process clock (ctx.clock, the clock that stamps the command's `ts`; the engine refuses an early one). Runs where
 * the chain jobs run (config.chainJobs: the embedded server, one gateway in the scale-out mode, docs/deploy.md), so
 * gateways do not race each other (a race would be harmless: the engine cancels an order once and refuses the
 * second). In demo mode, beside it, the demo merchant's job (every OTC_DEMO_MERCHANT_EVERY_MS, otc.demo.ts
 * runOtcDemoMerchant) pays and releases its orders as a good merchant does. Returns the function that stops both.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../platform/config/env';
import type { ServerClock } from '../../platform/shared/clock';
import { startPeriodicJob } from '../../platform/shared/periodic-job';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { OtcService } from './otc.service';
import { runOtcDemoMerchant } from './otc.demo';

/** How often the time-out job looks for expired orders (ms). */
export const OTC_TIMEOUT_EVERY_MS = 5_000;

/** How often the demo merchant looks at its open orders (ms; demo mode only, otc.demo.ts runOtcDemoMerchant). */
export const OTC_DEMO_MERCHANT_EVERY_MS = 5_000;

/** Starts the time-out job on `ctx` (nothing when this process does not run the chain jobs). */
export function startOtcJobs(
  ctx: {
    config: Pick<Config, 'chainJobs' | 'demoMode'>;
    otc: Pick<OtcService, 'cancelExpired' | 'markPaid' | 'automatedRelease'>;
    host: EnginePort;
    log: FastifyBaseLogger;
    clock: Pick<ServerClock, 'now'>;
  },
  everyMs = OTC_TIMEOUT_EVERY_MS,
): () => void {
  if (!ctx.config.chainJobs) return () => {};
  const stopDemo = ctx.config.demoMode
    ? startPeriodicJob({
        everyMs: OTC_DEMO_MERCHANT_EVERY_MS,
        run: (now) => runOtcDemoMerchant(ctx, now),
        report: (n) => (n > 0 ? { msg: 'otc: the demo merchant paid or released orders', fields: { orders: n } } : undefined),
        failure: 'otc: demo merchant job failed',
        log: ctx.log,
        clock: ctx.clock,
      })
    : () => {};
  const stopTimeout = startPeriodicJob({
    everyMs,
    run: (now) => ctx.otc.cancelExpired(now),
    report: (n) => (n > 0 ? { msg: 'otc: unpaid orders cancelled at their deadline', fields: { cancelled: n } } : undefined),
    failure: 'otc: time-out job failed',
    log: ctx.log,
    clock: ctx.clock,
  });
  return () => {
    stopDemo();
    stopTimeout();
  };
}
