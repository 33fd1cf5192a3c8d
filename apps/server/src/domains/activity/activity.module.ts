/** The activity module (platform/domain-module.ts): activities: campaigns, joining, progress, the payout job. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createActivityService, type ActivityService } from './activity.service';
import activityRoutes from './activity.routes';
import activityAdminRoutes from './activity.admin.routes';
import { startActivityJobs } from './activity.jobs';
import { activityProjection } from './activity.projection';

declare module '../../platform/domain-module' {
  interface DomainServices {
    activity: ActivityService;
  }
}

export const activityModule: DomainModule<Parameters<typeof startActivityJobs>[0] & PlatformContext, Pick<DomainServices, 'activity'>> = {
  name: 'activity',
  projection: activityProjection,
  create: (ctx) => ({ activity: createActivityService({ host: ctx.host, now: ctx.clock.now }) }),
  routes: (ctx) => [activityRoutes({ activity: ctx.activity }), activityAdminRoutes({ activity: ctx.activity })],
  startJobs: (ctx) => startActivityJobs(ctx),
};
export default activityModule satisfies DomainModule<AppContext>;
