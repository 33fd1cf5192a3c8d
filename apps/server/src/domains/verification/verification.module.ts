/** The verification module (platform/domain-module.ts): verification codes (e-mail and SMS) and the slide puzzle. */
import type { DomainModule } from '../../platform/domain-module';
import verificationRoutes, { type VerificationRoutesDeps } from './verification.routes';
import { verificationRetention } from './verification.tables';

export const verificationModule: DomainModule<VerificationRoutesDeps> = {
  name: 'verification',
  retention: verificationRetention,
  routes: (ctx) => [verificationRoutes({ members: ctx.members, security: ctx.security })],
};
