/** The support module (platform/domain-module.ts): customer service: the support chat and the console queue. */
import type { DomainModule } from '../../platform/domain-module';
import supportRoutes from './support.routes';
import supportAdminRoutes from './support.admin.routes';

export const supportModule: DomainModule<unknown> = {
  name: 'support',
  routes: [supportRoutes, supportAdminRoutes],
};
