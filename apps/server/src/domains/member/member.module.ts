/** The member module (platform/domain-module.ts): users: registration, login, sessions, profile, favourites. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createMemberService, type LoginSecurity, type MemberService } from './member.service';
import type { VerificationServices } from '../verification/verification.service';
import memberRoutes from './member.routes';
import { memberProjection } from './member.projection';
import { memberRetention } from './member.tables';

declare module '../../platform/domain-module' {
  interface DomainServices {
    members: MemberService;
  }
}

export const memberModule: DomainModule<PlatformContext & VerificationServices & { security: LoginSecurity }, Pick<DomainServices, 'members'>> = {
  name: 'member',
  after: ['verification'],
  retention: memberRetention,
  projection: memberProjection,
  create: (ctx) => ({
    // login asks account security for the second factor (security is built after the members: read lazily)
    members: createMemberService({
      db: ctx.db,
      log: ctx.log,
      hooks: ctx.hooks,
      host: ctx.host,
      captcha: ctx.captcha,
      codes: ctx.codes,
      security: () => ctx.security,
    }),
  }),
  routes: (ctx) => [memberRoutes({ members: ctx.members })],
};
export default memberModule satisfies DomainModule<AppContext>;
