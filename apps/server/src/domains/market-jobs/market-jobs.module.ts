/** The market-jobs module (platform/domain-module.ts): the index price, mark price ticks and funding, and the liquidity bots (when MARKET_MAKERS is on). */
import type { AppContext, DomainModule } from '../../platform/domain-module';
import { startJobs, type JobsDeps } from './index';
import { openInterestRetention } from './open-interest.tables';

export const marketJobsModule: DomainModule<JobsDeps> = {
  name: 'market-jobs',
  startJobs: async (ctx) => {
    const jobs = await startJobs(ctx);
    return () => jobs.stop();
  },
  retention: openInterestRetention,
};
export default marketJobsModule satisfies DomainModule<AppContext>;
