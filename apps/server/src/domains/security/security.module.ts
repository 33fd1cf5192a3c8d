/** The security module (platform/domain-module.ts): account security: second factors, passwords, sessions, the security log. */
import type { DomainModule } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createSecurityService, type SecurityService } from './security.service';
import type { MemberService } from '../member/member.service';
import { secretBoxFromConfig } from '../../platform/shared/secret-box';
import securityRoutes from './security.routes';
import { securityRetention } from './security.tables';

export const securityModule: DomainModule<PlatformContext & { members: MemberService }, { security: SecurityService }> = {
  name: 'security',
  retention: securityRetention,
  create: (ctx) => ({
    security: createSecurityService({ db: ctx.db, host: ctx.host, members: ctx.members, box: secretBoxFromConfig(ctx.config), log: ctx.log }),
  }),
  routes: (ctx) => [securityRoutes({ security: ctx.security })],
};
