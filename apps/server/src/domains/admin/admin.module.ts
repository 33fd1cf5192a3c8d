/** The admin module (platform/domain-module.ts): the operator console's own routes: operator login, users, the audit log. */
import type { DomainModule } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createAdminService, type AdminService } from './admin.service';
import { secretBoxFromConfig } from '../../platform/shared/secret-box';
import adminRoutes from './admin.routes';
import { adminRetention } from './admin.tables';

export const adminModule: DomainModule<
  PlatformContext & { kyc: ReturnType<NonNullable<Parameters<typeof createAdminService>[0]['kyc']>> },
  { admin: AdminService }
> = {
  name: 'admin',
  retention: adminRetention,
  create: (ctx) => ({ admin: createAdminService({ db: ctx.db, host: ctx.host, box: secretBoxFromConfig(ctx.config), kyc: () => ctx.kyc }) }),
  routes: (ctx) => [adminRoutes({ admin: ctx.admin })],
};
