/** The perp-market module (platform/domain-module.ts): the perpetual markets' public data: mark, index, funding, depth, trades, k-lines. */
import type { DomainModule } from '../../../platform/domain-module';
import type { PlatformContext } from '../../../platform/platform-context';
import { createPerpMarketService, type PerpMarketService } from './perp-market.service';
import type { MarketDataService } from '../market-data.service';
import perpMarketRoutes from './perp-market.routes';

export const perpMarketModule: DomainModule<PlatformContext & { marketData: MarketDataService }, { perpMarket: PerpMarketService }> = {
  name: 'perp-market',
  create: async (ctx) => {
    const perpMarket = await createPerpMarketService({ db: ctx.db, log: ctx.log, host: ctx.host, marketData: ctx.marketData, now: ctx.clock.now });
    ctx.closers.push(() => perpMarket.close());
    return { perpMarket };
  },
  routes: (ctx) => [perpMarketRoutes({ perpMarket: ctx.perpMarket, host: ctx.host })],
};
