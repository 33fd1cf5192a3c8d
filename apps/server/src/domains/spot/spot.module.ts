/** The spot module (platform/domain-module.ts): spot orders: entry, cancels, open orders and history. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createSpotService, type SpotService } from './spot.service';
import spotRoutes from './spot.routes';
import { spotProjection } from './spot.projection';
import { spotPushes } from './spot.push';
import { spotRetention } from './spot.tables';

declare module '../../platform/domain-module' {
  interface DomainServices {
    spot: SpotService;
  }
}

export const spotModule: DomainModule<PlatformContext, Pick<DomainServices, 'spot'>> = {
  name: 'spot',
  retention: spotRetention,
  projection: spotProjection,
  pushes: spotPushes,
  create: (ctx) => ({ spot: createSpotService({ config: ctx.config, db: ctx.db, log: ctx.log, host: ctx.host }) }),
  routes: (ctx) => [spotRoutes({ spot: ctx.spot, config: ctx.config })],
};
export default spotModule satisfies DomainModule<AppContext>;
