/** The earn module (platform/domain-module.ts): fixed-term savings: products, locks, the daily interest job, the demo products. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createEarnService, type EarnService } from './earn.service';
import earnRoutes from './earn.routes';
import earnAdminRoutes from './earn.admin.routes';
import { startEarnJobs } from './earn.jobs';
import { ensureEarnDemoProducts } from './earn.demo';
import { earnProjection } from './earn.projection';
import { earnMachine } from '@exchange/core/earn';

declare module '../../platform/domain-module' {
  interface DomainServices {
    earn: EarnService;
  }
}

export const earnModule: DomainModule<
  Parameters<typeof startEarnJobs>[0] & Parameters<typeof ensureEarnDemoProducts>[0] & PlatformContext,
  Pick<DomainServices, 'earn'>
> = {
  name: 'earn',
  machine: earnMachine,
  projection: earnProjection,
  create: (ctx) => ({ earn: createEarnService({ db: ctx.db, host: ctx.host }) }),
  routes: (ctx) => [earnRoutes({ earn: ctx.earn }), earnAdminRoutes({ earn: ctx.earn })],
  startJobs: (ctx) => startEarnJobs(ctx),
  seed: (ctx) => ensureEarnDemoProducts(ctx),
};
export default earnModule satisfies DomainModule<AppContext>;
