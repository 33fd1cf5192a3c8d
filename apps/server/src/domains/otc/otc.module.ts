/** The otc module (platform/domain-module.ts): peer-to-peer fiat trading: merchants, ads, orders with escrow, appeals; the time-out job; the demo merchant. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
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

declare module '../../platform/domain-module' {
  interface DomainServices {
    otc: OtcService;
  }
}

export const otcModule: DomainModule<
  Parameters<typeof startOtcJobs>[0] &
    Parameters<typeof ensureOtcDemoMerchant>[0] &
    PlatformContext & { kyc: KycService; uploads: UploadsService; security: SecurityService; payments: PaymentService },
  Pick<DomainServices, 'otc'>
> = {
  name: 'otc',
  after: ['kyc', 'market-data', 'payment', 'uploads'],
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
export default otcModule satisfies DomainModule<AppContext>;
