/** The kyc module (platform/domain-module.ts): identity verification, basic and advanced. */
import type { DomainModule } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createKycService, type KycService } from './kyc.service';
import type { UploadsService } from '../uploads/uploads.service';
import kycRoutes from './kyc.routes';

export const kycModule: DomainModule<PlatformContext & { uploads: UploadsService }, { kyc: KycService }> = {
  name: 'kyc',
  create: (ctx) => ({ kyc: createKycService({ db: ctx.db, host: ctx.host, uploads: ctx.uploads }) }),
  routes: (ctx) => [kycRoutes({ kyc: ctx.kyc })],
};
