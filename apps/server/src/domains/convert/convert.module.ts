/** The convert module (platform/domain-module.ts): convert: quotes at the order book, guaranteed for 10 s. */
import type { DomainModule } from '../../platform/domain-module';
import convertRoutes from './convert.routes';

export const convertModule: DomainModule<unknown> = {
  name: 'convert',
  routes: [convertRoutes],
};
