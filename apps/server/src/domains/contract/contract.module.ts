/** The contract module (platform/domain-module.ts): uSDT perpetuals, user side: account, positions, settings, orders, records. */
import type { DomainModule } from '../../platform/domain-module';
import contractRoutes from './contract.routes';

export const contractModule: DomainModule<unknown> = {
  name: 'contract',
  routes: [contractRoutes],
};
