/** The contract-market module (platform/domain-module.ts): the perpetual markets' public data: mark, index, funding, depth, trades, k-lines. */
import type { DomainModule } from '../../platform/domain-module';
import contractMarketRoutes from './contract-market.routes';

export const contractMarketModule: DomainModule<unknown> = {
  name: 'contract-market',
  routes: [contractMarketRoutes],
};
