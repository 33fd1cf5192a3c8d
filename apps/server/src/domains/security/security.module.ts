/** The security module (platform/domain-module.ts): account security: second factors, passwords, sessions, the security log. */
import type { DomainModule } from '../../platform/domain-module';
import securityRoutes from './security.routes';

export const securityModule: DomainModule<unknown> = {
  name: 'security',
  routes: [securityRoutes],
};
