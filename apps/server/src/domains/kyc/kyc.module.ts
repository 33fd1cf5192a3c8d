/** The kyc module (platform/domain-module.ts): identity verification, basic and advanced. */
import type { DomainModule } from '../../platform/domain-module';
import kycRoutes from './kyc.routes';

export const kycModule: DomainModule<unknown> = {
  name: 'kyc',
  routes: [kycRoutes],
};
