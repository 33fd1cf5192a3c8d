/** The security module (platform/domain-module.ts): account security: second factors, passwords, sessions, the security log. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createSecurityService, type SecurityService } from './security.service';
import type { MemberService } from '../member/member.service';
import type { InboxService } from '../inbox/inbox.service';
import { secretBoxFromConfig } from '../../platform/shared/secret-box';
import securityRoutes from './security.routes';
import { securityRetention } from './security.tables';

declare module '../../platform/domain-module' {
  interface DomainServices {
    security: SecurityService;
  }
}

export const securityModule: DomainModule<PlatformContext & { members: MemberService; inbox: InboxService }, Pick<DomainServices, 'security'>> = {
  name: 'security',
  after: ['member'],
  retention: securityRetention,
  create: (ctx) => ({
    security: createSecurityService({
      db: ctx.db,
      host: ctx.host,
      members: ctx.members,
      box: secretBoxFromConfig(ctx.config),
      log: ctx.log,
      // the inbox writes a log entry's message (built after this module: read lazily)
      inbox: () => ctx.inbox,
    }),
  }),
  routes: (ctx) => [securityRoutes({ security: ctx.security })],
};
export default securityModule satisfies DomainModule<AppContext>;
