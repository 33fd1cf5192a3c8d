/** The market-data module (platform/domain-module.ts): spot markets, coins, tickers, k-lines, depth, trades; reference and index prices. */
import type { DomainModule } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createMarketDataService, type MarketDataService } from './market-data.service';
import marketDataRoutes, { type MarketContent } from './market-data.routes';
import { marketDataRetention } from './market-data.tables';

export const marketDataModule: DomainModule<PlatformContext & { content: MarketContent }, { marketData: MarketDataService }> = {
  name: 'market-data',
  retention: marketDataRetention,
  create: async (ctx) => {
    const marketData = await createMarketDataService({ config: ctx.config, db: ctx.db, log: ctx.log, host: ctx.host, now: ctx.clock.now });
    ctx.closers.push(() => marketData.close());
    return { marketData };
  },
  routes: (ctx) => [marketDataRoutes({ marketData: ctx.marketData, content: ctx.content })],
};
