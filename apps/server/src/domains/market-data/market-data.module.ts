/** The market-data module (platform/domain-module.ts): spot markets, coins, tickers, k-lines, depth, trades; reference and index prices. */
import type { DomainModule } from '../../platform/domain-module';
import marketDataRoutes from './market-data.routes';

export const marketDataModule: DomainModule<unknown> = {
  name: 'market-data',
  routes: [marketDataRoutes],
};
