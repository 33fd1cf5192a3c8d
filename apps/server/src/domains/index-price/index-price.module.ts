/**
 * The index-price module (platform/domain-module.ts): the live index's audit table and its retention, and the index
 * components (the board the index job writes each tick's sources on, and getIndexComponents). The live index itself
 * (live-index.ts) runs inside the market jobs' index job when INDEX_SOURCE=live.
 */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createIndexComponentsService, type IndexComponentsService } from './index-components.service';
import indexPriceRoutes from './index-price.routes';
import { indexTicksRetention } from './index-price.tables';

declare module '../../platform/domain-module' {
  interface DomainServices {
    indexComponents: IndexComponentsService;
  }
}

export const indexPriceModule: DomainModule<PlatformContext, Pick<DomainServices, 'indexComponents'>> = {
  name: 'index-price',
  create: (ctx) => ({ indexComponents: createIndexComponentsService({ db: ctx.db, mode: ctx.config.indexSource }) }),
  routes: (ctx) => [indexPriceRoutes({ indexComponents: ctx.indexComponents, host: ctx.host })],
  retention: indexTicksRetention,
};
export default indexPriceModule satisfies DomainModule<AppContext>;
