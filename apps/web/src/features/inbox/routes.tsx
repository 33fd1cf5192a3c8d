/**
 * Route of the in-app inbox (no login guard in the router, spec section 2: logged out, the page asks to log in).
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const Message = lazyPage(() => import('./pages/MessagePage'), ['inbox']);

export const routes: AppRoute[] = [{ path: '/message', Page: Message, fallthrough: true, order: 740 }];
