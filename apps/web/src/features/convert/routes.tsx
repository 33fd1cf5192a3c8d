/**
 * Route of convert: a main route, guarded like the rest of the balance screens.
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const Exchange = lazyPage(() => import('./pages/ExchangePage'), ['convert']);

export const routes: AppRoute[] = [{ path: '/exchange', Page: Exchange, login: true, fallthrough: true, order: 470 }];
