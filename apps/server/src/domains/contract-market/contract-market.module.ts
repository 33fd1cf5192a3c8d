/** The contract-market module (platform/domain-module.ts): the perpetual markets' public data: mark, index, funding, depth, trades, k-lines. */
import type { DomainModule } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createContractMarketService, type ContractMarketService } from './contract-market.service';
import type { MarketDataService } from '../market-data/market-data.service';
import contractMarketRoutes from './contract-market.routes';

export const contractMarketModule: DomainModule<PlatformContext & { marketData: MarketDataService }, { contractMarket: ContractMarketService }> = {
  name: 'contract-market',
  create: async (ctx) => {
    const contractMarket = await createContractMarketService({ db: ctx.db, log: ctx.log, host: ctx.host, marketData: ctx.marketData, now: ctx.clock.now });
    ctx.closers.push(() => contractMarket.close());
    return { contractMarket };
  },
  routes: (ctx) => [contractMarketRoutes({ contractMarket: ctx.contractMarket, host: ctx.host })],
};
