/** The otc module (platform/domain-module.ts): peer-to-peer fiat trading: merchants, ads, orders with escrow, appeals; the time-out job; the demo merchant. */
import type { DomainModule } from '../../platform/domain-module';
import otcRoutes from './otc.routes';
import otcAdminRoutes from './otc.admin.routes';
import { startOtcJobs } from './otc.jobs';
import { ensureOtcDemoMerchant } from './otc.demo';

export const otcModule: DomainModule<Parameters<typeof startOtcJobs>[0] & Parameters<typeof ensureOtcDemoMerchant>[0]> = {
  name: 'otc',
  routes: [otcRoutes, otcAdminRoutes],
  startJobs: (ctx) => startOtcJobs(ctx),
  seed: (ctx) => ensureOtcDemoMerchant(ctx),
};
