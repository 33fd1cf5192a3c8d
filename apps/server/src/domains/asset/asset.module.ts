/** The asset module (platform/domain-module.ts): balances of the spot, contract and funding accounts. */
import type { AppContext, DomainModule } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { registerDemoFaucet } from './demo-faucet';
import assetRoutes from './asset.routes';
import { assetPushes } from './asset.push';

export const assetModule: DomainModule<PlatformContext, object> = {
  name: 'asset',
  pushes: assetPushes,
  create: (ctx) => {
    // the demo's faucet: new users' demo funds, on the registration hook
    registerDemoFaucet({ config: ctx.config, host: ctx.host, log: ctx.log, hooks: ctx.hooks });
    return {};
  },
  routes: (ctx) => [assetRoutes({ config: ctx.config, host: ctx.host, log: ctx.log })],
};
export default assetModule satisfies DomainModule<AppContext>;
