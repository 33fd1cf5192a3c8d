/** The admin module (platform/domain-module.ts): the operator console's own routes: operator login, users, the audit log. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createAdminService, type AdminService } from './admin.service';
import { secretBoxFromConfig } from '../../platform/shared/secret-box';
import adminRoutes from './admin.routes';
import { adminRetention } from './admin.tables';

declare module '../../platform/domain-module' {
  interface DomainServices {
    admin: AdminService;
  }
}

export const adminModule: DomainModule<
  PlatformContext & { kyc: ReturnType<NonNullable<Parameters<typeof createAdminService>[0]['kyc']>> },
  Pick<DomainServices, 'admin'>
> = {
  name: 'admin',
  retention: adminRetention,
  create: (ctx) => ({ admin: createAdminService({ db: ctx.db, host: ctx.host, box: secretBoxFromConfig(ctx.config), kyc: () => ctx.kyc }) }),
  routes: (ctx) => [adminRoutes({ admin: ctx.admin })],
};
export default adminModule satisfies DomainModule<AppContext>;
