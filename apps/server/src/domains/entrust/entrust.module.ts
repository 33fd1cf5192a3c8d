/** The entrust module (platform/domain-module.ts): spot orders: entry, cancels, open orders and history. */
import type { DomainModule } from '../../platform/domain-module';
import entrustRoutes from './entrust.routes';

export const entrustModule: DomainModule<unknown> = {
  name: 'entrust',
  routes: [entrustRoutes],
};
