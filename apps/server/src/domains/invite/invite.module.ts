/** The invite module (platform/domain-module.ts): invitations and rebates: rules, invitees, rankings, the daily settlement job. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createInviteService, type InviteService } from './invite.service';
import inviteRoutes from './invite.routes';
import { startInviteJobs } from './invite.jobs';
import { inviteProjection } from './invite.projection';

declare module '../../platform/domain-module' {
  interface DomainServices {
    invite: InviteService;
  }
}

export const inviteModule: DomainModule<Parameters<typeof startInviteJobs>[0] & PlatformContext, Pick<DomainServices, 'invite'>> = {
  name: 'invite',
  projection: inviteProjection,
  create: (ctx) => ({ invite: createInviteService({ db: ctx.db, host: ctx.host }) }),
  routes: (ctx) => [inviteRoutes({ invite: ctx.invite, clock: ctx.clock })],
  startJobs: (ctx) => startInviteJobs(ctx),
};
export default inviteModule satisfies DomainModule<AppContext>;
