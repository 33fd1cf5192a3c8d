/** The contract module (platform/domain-module.ts): uSDT perpetuals, user side: account, positions, settings, orders, records. */
import type { DomainModule } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createContractService, type ContractService } from './contract.service';
import contractRoutes from './contract.routes';
import { contractProjection } from './contract.projection';
import { contractPushes } from './contract.push';
import { contractRetention } from './contract.tables';

export const contractModule: DomainModule<PlatformContext, { contract: ContractService }> = {
  name: 'contract',
  retention: contractRetention,
  projection: contractProjection,
  pushes: contractPushes,
  create: (ctx) => ({ contract: createContractService({ db: ctx.db, host: ctx.host }) }),
  routes: (ctx) => [contractRoutes({ contract: ctx.contract, config: ctx.config })],
};
