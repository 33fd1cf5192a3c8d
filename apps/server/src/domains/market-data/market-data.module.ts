/**
 * The market-data module (platform/domain-module.ts): the public data of both markets. Spot: markets, coins, tickers,
 * k-lines, depth, trades, reference and index prices (`marketData`). The USDT perpetuals (perp/): mark, index, funding,
 * depth, trades and k-lines (`perpMarket`, built on the spot side's kline store and series, so after it).
 */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createMarketDataService, type MarketDataService } from './market-data.service';
import marketDataRoutes, { type MarketContent } from './market-data.routes';
import { marketDataRetention } from './market-data.tables';
import { createPerpMarketService, type PerpMarketService } from './perp/perp-market.service';
import perpMarketRoutes from './perp/perp-market.routes';

declare module '../../platform/domain-module' {
  interface DomainServices {
    marketData: MarketDataService;
    perpMarket: PerpMarketService;
  }
}

export const marketDataModule: DomainModule<PlatformContext & { content: MarketContent }, Pick<DomainServices, 'marketData' | 'perpMarket'>> = {
  name: 'market-data',
  retention: marketDataRetention,
  create: async (ctx) => {
    const marketData = await createMarketDataService({ config: ctx.config, db: ctx.db, log: ctx.log, host: ctx.host, now: ctx.clock.now });
    ctx.closers.push(() => marketData.close());
    const perpMarket = await createPerpMarketService({ db: ctx.db, log: ctx.log, host: ctx.host, marketData, now: ctx.clock.now });
    ctx.closers.push(() => perpMarket.close());
    return { marketData, perpMarket };
  },
  routes: (ctx) => [marketDataRoutes({ marketData: ctx.marketData, content: ctx.content }), perpMarketRoutes({ perpMarket: ctx.perpMarket, host: ctx.host })],
};
export default marketDataModule satisfies DomainModule<AppContext>;
