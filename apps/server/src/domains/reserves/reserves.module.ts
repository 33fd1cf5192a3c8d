/** The reserves module (platform/domain-module.ts): proof of reserves: Merkle-sum snapshots, their schedule, each user's proof. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createReservesService, type ReservesService } from './reserves.service';
import reservesRoutes from './reserves.routes';
import { startReservesJob } from './reserves.job';

declare module '../../platform/domain-module' {
  interface DomainServices {
    reserves: ReservesService;
  }
}

export const reservesModule: DomainModule<
  Parameters<typeof startReservesJob>[0] &
    PlatformContext & { chain: { onChainReservesByNetwork: NonNullable<Parameters<typeof createReservesService>[0]['onChainReserves']> } },
  Pick<DomainServices, 'reserves'>
> = {
  name: 'reserves',
  create: (ctx) => ({
    // user liabilities from the engine, the exchange's on-chain balances from the chain service
    reserves: createReservesService({ db: ctx.db, host: ctx.host, log: ctx.log, onChainReserves: () => ctx.chain.onChainReservesByNetwork() }),
  }),
  routes: (ctx) => [reservesRoutes({ reserves: ctx.reserves })],
  startJobs: (ctx) => startReservesJob(ctx),
};
export default reservesModule satisfies DomainModule<AppContext>;
