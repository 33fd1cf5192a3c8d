/** The admin module (platform/domain-module.ts): the operator console's own routes: operator login, users, the audit log. */
import type { DomainModule } from '../../platform/domain-module';
import adminRoutes from './admin.routes';

export const adminModule: DomainModule<unknown> = {
  name: 'admin',
  routes: [adminRoutes],
};
