/**
 * Route of the proof of reserves (public; verifying asks for a session on the page).
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const Reserves = lazyPage(() => import('./pages/ReservesPage'), ['reserves']);

export const routes: AppRoute[] = [{ path: '/reserves', Page: Reserves, fallthrough: true, beyondSpec: true, order: 420 }];
