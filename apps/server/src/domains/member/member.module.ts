/** The member module (platform/domain-module.ts): users: registration, login, sessions, profile, favourites. */
import type { DomainModule } from '../../platform/domain-module';
import memberRoutes from './member.routes';

export const memberModule: DomainModule<unknown> = {
  name: 'member',
  routes: [memberRoutes],
};
