/** The uploads module (platform/domain-module.ts): image uploads (KYC photos, payment QR codes, chat images), served to their owner. */
import type { DomainModule } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createUploadsService, type UploadsService } from './uploads.service';
import uploadsRoutes from './uploads.routes';

export const uploadsModule: DomainModule<PlatformContext, { uploads: UploadsService }> = {
  name: 'uploads',
  create: (ctx) => ({ uploads: createUploadsService({ db: ctx.db, dataDir: ctx.config.dataDir }) }),
  routes: (ctx) => [uploadsRoutes({ uploads: ctx.uploads })],
};
