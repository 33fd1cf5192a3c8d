/** The wallet module (platform/domain-module.ts): the wallet: deposits (the chain watcher), withdrawals (review, the broadcaster), transfers, records. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createChainService, type ChainService } from './chain.service';
import { createWalletService, type WalletService } from './wallet.service';
import type { MemberService } from '../member/member.service';
import type { SecurityService } from '../security/security.service';
import walletRoutes from './wallet.routes';
import walletAdminRoutes from './wallet.admin.routes';
import chainAdminRoutes from './chain.admin.routes';
import demoDepositRoutes from './demo-deposit.routes';
import { startChainJobs, type ChainJobDeps } from './chain-jobs';
import { walletProjection } from './wallet.projection';

declare module '../../platform/domain-module' {
  interface DomainServices {
    chain: ChainService;
    wallet: WalletService;
  }
}

export const walletModule: DomainModule<
  ChainJobDeps & PlatformContext & { members: MemberService; security: SecurityService },
  Pick<DomainServices, 'chain' | 'wallet'>
> = {
  name: 'wallet',
  after: ['member'],
  projection: walletProjection,
  create: (ctx) => {
    const chain = createChainService({ config: ctx.config, db: ctx.db, host: ctx.host, log: ctx.log });
    ctx.closers.push(() => chain.close());
    const wallet = createWalletService({ config: ctx.config, db: ctx.db, host: ctx.host, members: ctx.members, security: () => ctx.security, chain });
    return { chain, wallet };
  },
  routes: (ctx) => [
    walletRoutes({ wallet: ctx.wallet }),
    walletAdminRoutes({ wallet: ctx.wallet }),
    chainAdminRoutes({ chain: ctx.chain, log: ctx.log }),
    demoDepositRoutes({ chain: ctx.chain }),
  ],
  startJobs: (ctx) => {
    const jobs = startChainJobs(ctx);
    return () => jobs.stop();
  },
};
export default walletModule satisfies DomainModule<AppContext>;
