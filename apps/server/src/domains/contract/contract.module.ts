/** The contract module (platform/domain-module.ts): uSDT perpetuals, user side: account, positions, settings, orders, records. */
import type { DomainModule } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createContractService, type ContractService } from './contract.service';
import contractRoutes from './contract.routes';
import { createContractConditionalService, type ContractConditionalService } from './contract.conditional';
import { contractProjection } from './contract.projection';
import { contractPushes } from './contract.push';
import { contractRetention } from './contract.tables';

export const contractModule: DomainModule<PlatformContext, { contract: ContractService; contractConditional: ContractConditionalService }> = {
  name: 'contract',
  retention: contractRetention,
  projection: contractProjection,
  pushes: contractPushes,
  create: (ctx) => {
    const contract = createContractService({ db: ctx.db, host: ctx.host });
    return { contract, contractConditional: createContractConditionalService({ db: ctx.db, host: ctx.host, contract }) };
  },
  routes: (ctx) => [contractRoutes({ contract: ctx.contract, conditional: ctx.contractConditional, config: ctx.config })],
};
