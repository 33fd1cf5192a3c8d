/** The uploads module (platform/domain-module.ts): image uploads (KYC photos, payment QR codes, chat images), served to their owner. */
import type { DomainModule } from '../../platform/domain-module';
import uploadsRoutes from './uploads.routes';

export const uploadsModule: DomainModule<unknown> = {
  name: 'uploads',
  routes: [uploadsRoutes],
};
