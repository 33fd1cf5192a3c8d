/** The activity module (platform/domain-module.ts): activities: campaigns, joining, progress, the payout job. */
import type { DomainModule } from '../../platform/domain-module';
import activityRoutes from './activity.routes';
import activityAdminRoutes from './activity.admin.routes';
import { startActivityJobs } from './activity.jobs';

export const activityModule: DomainModule<Parameters<typeof startActivityJobs>[0]> = {
  name: 'activity',
  routes: [activityRoutes, activityAdminRoutes],
  startJobs: (ctx) => startActivityJobs(ctx),
};
