/**
 * POST /api/demo/clock/advance {minutes}: the test-only control of the clock ("the test controls the clock through a
 * test-only control, refused in production"). Moves this process's clock (platform/shared/clock.ts) forward by whole minutes
 * (1 to MAX_CLOCK_ADVANCE_MINUTES): every later engine command is stamped on the moved clock and every job that
 * judges a time reads it (funding, the index and mark price ticks, the liquidity bots, the OTC time-out, savings
 * interest and maturity, the daily rebates, activity payouts), so an end-to-end test sees an unpaid order cancelled
 * at its deadline without waiting 15 minutes, or a funding settled without waiting 8 hours. Time only moves forward. Like demo/outbox and demo/contract/setReferencePrice: a 404 FAILED envelope unless demo mode
 * is on (asked for explicitly, refused under production rules), 403 to a client that is not on loopback. In the
 * scale-out mode it moves the clock of the gateway that answers it (the one running the jobs, for the time-out).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AdvanceClockBody, API_PATHS, Envelope, ServerClockInfo } from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { requireDemoLoopback } from './demo.routes';
import type { PlatformContext } from '../../platform/platform-context';

/** The demo's clock control over the config (demo mode) and the process's clock. */
export default function demoClockRoutes({ config, clock }: Pick<PlatformContext, 'config' | 'clock'>): FastifyPluginAsync {
  return async function demoClockRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      `/api/${API_PATHS.demoAdvanceClock}`,
      {
        schema: {
          tags: ['demo'],
          summary:
            'Demo mode, loopback clients only (a test control): moves the server clock forward by whole minutes (deadlines such as an OTC payment window pass).',
          body: AdvanceClockBody,
          response: { 200: Envelope(ServerClockInfo) },
        },
      },
      async (req) => {
        requireDemoLoopback(config, req.ip);
        const offsetMs = clock.advance(req.body.minutes * 60_000);
        req.log.info({ minutes: req.body.minutes, offsetMs }, 'server clock moved forward (test control)');
        return ok({ now: clock.now(), offsetMs });
      },
    );
  };
}
