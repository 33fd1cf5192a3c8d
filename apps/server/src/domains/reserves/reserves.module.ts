/** The reserves module (platform/domain-module.ts): proof of reserves: Merkle-sum snapshots, their schedule, each user's proof. */
import type { DomainModule } from '../../platform/domain-module';
import reservesRoutes from './reserves.routes';
import { startReservesJob } from './reserves.job';

export const reservesModule: DomainModule<Parameters<typeof startReservesJob>[0]> = {
  name: 'reserves',
  routes: [reservesRoutes],
  startJobs: (ctx) => startReservesJob(ctx),
};
