/** The app-version module (platform/domain-module.ts): app versions and their web bundles: the update flow. */
import type { DomainModule } from '../../platform/domain-module';
import appVersionRoutes from './app-version.routes';

export const appVersionModule: DomainModule<unknown> = {
  name: 'app-version',
  routes: [appVersionRoutes],
};
