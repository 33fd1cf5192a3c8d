/** The wallet module (platform/domain-module.ts): the wallet: deposits (the chain watcher), withdrawals (review, the broadcaster), transfers, records. */
import type { DomainModule } from '../../platform/domain-module';
import walletRoutes from './wallet.routes';
import walletAdminRoutes from './wallet.admin.routes';
import chainAdminRoutes from './chain.admin.routes';
import demoDepositRoutes from './demo-deposit.routes';
import { startChainJobs, type ChainJobDeps } from './chain-jobs';

export const walletModule: DomainModule<ChainJobDeps> = {
  name: 'wallet',
  routes: [walletRoutes, walletAdminRoutes, chainAdminRoutes, demoDepositRoutes],
  startJobs: (ctx) => {
    const jobs = startChainJobs(ctx);
    return () => jobs.stop();
  },
};
