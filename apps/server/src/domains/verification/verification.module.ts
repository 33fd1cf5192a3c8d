/** The verification module (platform/domain-module.ts): verification codes (e-mail and SMS) and the slide puzzle. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import verificationRoutes, { type VerificationRoutesDeps } from './verification.routes';
import { verificationRetention } from './verification.tables';
import { createVerificationServices, type VerificationServices } from './verification.service';

declare module '../../platform/domain-module' {
  interface DomainServices {
    captcha: VerificationServices['captcha'];
    codes: VerificationServices['codes'];
  }
}

export const verificationModule: DomainModule<PlatformContext & Pick<VerificationRoutesDeps, 'security'>, Pick<DomainServices, 'captcha' | 'codes'>> = {
  name: 'verification',
  retention: verificationRetention,
  create: (ctx) => createVerificationServices({ config: ctx.config, db: ctx.db, log: ctx.log, host: ctx.host }),
  routes: (ctx) => [verificationRoutes({ captcha: ctx.captcha, codes: ctx.codes, security: ctx.security })],
};
export default verificationModule satisfies DomainModule<AppContext>;
