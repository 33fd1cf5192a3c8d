/** The otc module (platform/domain-module.ts): peer-to-peer fiat trading: merchants, ads, orders with escrow, appeals; the time-out job; the demo merchant. */
import type { DomainModule } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createOtcService, type OtcService } from './otc.service';
import type { KycService } from '../kyc/kyc.service';
import type { UploadsService } from '../uploads/uploads.service';
import type { SecurityService } from '../security/security.service';
import type { PaymentService } from '../payment/payment.service';
import otcRoutes from './otc.routes';
import otcAdminRoutes from './otc.admin.routes';
import { startOtcJobs } from './otc.jobs';
import { ensureOtcDemoMerchant } from './otc.demo';
import { otcProjection } from './otc.projection';

export const otcModule: DomainModule<
  Parameters<typeof startOtcJobs>[0] &
    Parameters<typeof ensureOtcDemoMerchant>[0] &
    PlatformContext & { kyc: KycService; uploads: UploadsService; security: SecurityService; payments: PaymentService },
  { otc: OtcService }
> = {
  name: 'otc',
  projection: otcProjection,
  pushes: { source: (ctx) => (listener) => ctx.otc.onPush(listener) },
  create: async (ctx) => {
    const otc = createOtcService({
      config: ctx.config,
      db: ctx.db,
      host: ctx.host,
      kyc: ctx.kyc,
      uploads: ctx.uploads,
      security: () => ctx.security,
      payments: ctx.payments,
      log: ctx.log,
      now: ctx.clock.now,
    });
    ctx.closers.push(() => otc.close());
    // the first start configures OTC (deposit, appeal wait, cancel limit) once the coin is listed (market data lists it)
    await otc.ensureConfigured();
    return { otc };
  },
  routes: (ctx) => [otcRoutes({ otc: ctx.otc }), otcAdminRoutes({ otc: ctx.otc })],
  startJobs: (ctx) => startOtcJobs(ctx),
  seed: (ctx) => ensureOtcDemoMerchant(ctx),
};
