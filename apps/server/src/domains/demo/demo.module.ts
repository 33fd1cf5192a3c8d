/** The demo module (platform/domain-module.ts): the demo's controls (funds, reference price, clock): test and demo modes only. */
import type { DomainModule } from '../../platform/domain-module';
import demoRoutes from './demo.routes';
import demoContractRoutes from './demo-contract.routes';
import demoClockRoutes from './demo-clock.routes';

export const demoModule: DomainModule<unknown> = {
  name: 'demo',
  routes: [demoRoutes, demoContractRoutes, demoClockRoutes],
};
