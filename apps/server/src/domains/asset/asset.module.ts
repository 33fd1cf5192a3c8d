/** The asset module (platform/domain-module.ts): balances of the spot, contract and funding accounts. */
import type { DomainModule } from '../../platform/domain-module';
import assetRoutes from './asset.routes';

export const assetModule: DomainModule<unknown> = {
  name: 'asset',
  routes: [assetRoutes],
};
