/** The support module (platform/domain-module.ts): customer service: the support chat and the console queue. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createSupportService, type SupportService } from './support.service';
import type { UploadsService } from '../uploads/uploads.service';
import supportRoutes from './support.routes';
import supportAdminRoutes from './support.admin.routes';

declare module '../../platform/domain-module' {
  interface DomainServices {
    support: SupportService;
  }
}

export const supportModule: DomainModule<PlatformContext & { uploads: UploadsService }, Pick<DomainServices, 'support'>> = {
  name: 'support',
  after: ['uploads'],
  pushes: { source: (ctx) => (listener) => ctx.support.onPush(listener) },
  create: (ctx) => ({ support: createSupportService({ db: ctx.db, host: ctx.host, uploads: ctx.uploads }) }),
  routes: (ctx) => [supportRoutes({ support: ctx.support }), supportAdminRoutes({ support: ctx.support })],
};
export default supportModule satisfies DomainModule<AppContext>;
