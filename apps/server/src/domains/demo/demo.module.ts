/** The demo module (platform/domain-module.ts): the demo's controls (funds, reference price, clock): test and demo modes only. */
import type { AppContext, DomainModule } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { referenceOverridesOf } from '../market-jobs/reference-override';
import demoRoutes, { type DemoRoutesDeps } from './demo.routes';
import demoContractRoutes, { type DemoContractRoutesDeps } from './demo-contract.routes';
import demoClockRoutes from './demo-clock.routes';

export const demoModule: DomainModule<DemoRoutesDeps & Pick<PlatformContext, 'clock'> & Pick<DemoContractRoutesDeps, 'marketData'>> = {
  name: 'demo',
  routes: (ctx) => [
    demoRoutes({ config: ctx.config, db: ctx.db, host: ctx.host, members: ctx.members }),
    demoContractRoutes({ config: ctx.config, marketData: ctx.marketData, referenceOverrides: referenceOverridesOf(ctx) }),
    demoClockRoutes({ config: ctx.config, clock: ctx.clock }),
  ],
};
export default demoModule satisfies DomainModule<AppContext>;
