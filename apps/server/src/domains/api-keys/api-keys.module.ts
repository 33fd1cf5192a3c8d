/** The api-keys module (platform/domain-module.ts): aPI keys of the Binance-compatible API: the users' and the console's key management. */
import type { DomainModule } from '../../platform/domain-module';
import apiKeyRoutes from './api-keys.routes';

export const apiKeysModule: DomainModule<unknown> = {
  name: 'api-keys',
  routes: [apiKeyRoutes],
};
