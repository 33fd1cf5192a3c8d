/** The invite module (platform/domain-module.ts): invitations and rebates: rules, invitees, rankings, the daily settlement job. */
import type { DomainModule } from '../../platform/domain-module';
import inviteRoutes from './invite.routes';
import { startInviteJobs } from './invite.jobs';

export const inviteModule: DomainModule<Parameters<typeof startInviteJobs>[0]> = {
  name: 'invite',
  routes: [inviteRoutes],
  startJobs: (ctx) => startInviteJobs(ctx),
};
