/** The verification module (platform/domain-module.ts): verification codes (e-mail and SMS) and the slide puzzle. */
import type { DomainModule } from '../../platform/domain-module';
import verificationRoutes from './verification.routes';

export const verificationModule: DomainModule<unknown> = {
  name: 'verification',
  routes: [verificationRoutes],
};
