/** The uploads module (platform/domain-module.ts): image uploads (KYC photos, payment QR codes, chat images), served to their owner; the removal of unused ones. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createUploadsService, type UploadsService } from './uploads.service';
import { startUploadsJobs } from './uploads.jobs';
import uploadsRoutes from './uploads.routes';

declare module '../../platform/domain-module' {
  interface DomainServices {
    uploads: UploadsService;
  }
}

export const uploadsModule: DomainModule<Parameters<typeof startUploadsJobs>[0] & PlatformContext, Pick<DomainServices, 'uploads'>> = {
  name: 'uploads',
  create: (ctx) => ({ uploads: createUploadsService({ db: ctx.db, dataDir: ctx.config.dataDir }) }),
  routes: (ctx) => [uploadsRoutes({ uploads: ctx.uploads })],
  startJobs: (ctx) => startUploadsJobs(ctx),
};
export default uploadsModule satisfies DomainModule<AppContext>;
