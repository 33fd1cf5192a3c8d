/** The api-keys module (platform/domain-module.ts): aPI keys of the Binance-compatible API: the users' and the console's key management. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createApiKeyService, type ApiKeyService } from './api-keys.service';
import type { SecurityService } from '../security/security.service';
import { secretBoxFromConfig } from '../../platform/shared/secret-box';
import apiKeyRoutes from './api-keys.routes';

declare module '../../platform/domain-module' {
  interface DomainServices {
    apiKeys: ApiKeyService;
  }
}

export const apiKeysModule: DomainModule<PlatformContext & { security: SecurityService }, Pick<DomainServices, 'apiKeys'>> = {
  name: 'api-keys',
  create: (ctx) => ({
    apiKeys: createApiKeyService({
      db: ctx.db,
      host: ctx.host,
      box: secretBoxFromConfig(ctx.config),
      security: () => ctx.security,
      log: ctx.log,
      now: ctx.clock.now,
      cacheMs: ctx.config.apiKeyCacheMs,
    }),
  }),
  routes: (ctx) => [apiKeyRoutes({ apiKeys: ctx.apiKeys })],
};
export default apiKeysModule satisfies DomainModule<AppContext>;
