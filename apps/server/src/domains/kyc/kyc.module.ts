/** The kyc module (platform/domain-module.ts): identity verification, basic and advanced. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createKycService, type KycService } from './kyc.service';
import type { UploadsService } from '../uploads/uploads.service';
import kycRoutes from './kyc.routes';

declare module '../../platform/domain-module' {
  interface DomainServices {
    kyc: KycService;
  }
}

export const kycModule: DomainModule<PlatformContext & { uploads: UploadsService }, Pick<DomainServices, 'kyc'>> = {
  name: 'kyc',
  after: ['uploads'],
  create: (ctx) => ({ kyc: createKycService({ db: ctx.db, host: ctx.host, uploads: ctx.uploads }) }),
  routes: (ctx) => [kycRoutes({ kyc: ctx.kyc })],
};
export default kycModule satisfies DomainModule<AppContext>;
