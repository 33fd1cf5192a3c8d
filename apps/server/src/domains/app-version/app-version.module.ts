/** The app-version module (platform/domain-module.ts): app versions and their web bundles: the update flow. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createAppVersionService, type AppVersionService } from './app-version.service';
import appVersionRoutes from './app-version.routes';

declare module '../../platform/domain-module' {
  interface DomainServices {
    appVersions: AppVersionService;
  }
}

export const appVersionModule: DomainModule<PlatformContext, Pick<DomainServices, 'appVersions'>> = {
  name: 'app-version',
  create: (ctx) => ({ appVersions: createAppVersionService({ db: ctx.db, webDist: ctx.config.webDist }) }),
  routes: (ctx) => [appVersionRoutes({ appVersions: ctx.appVersions })],
};
export default appVersionModule satisfies DomainModule<AppContext>;
