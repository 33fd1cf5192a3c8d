/**
 * Routes of customer service (the entry and the chat). Main routes without a guard: /customer is for everyone, the
 * chat asks to log in.
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const Customer = lazyPage(() => import('./pages/CustomerPage'), ['support']);
const Kefu = lazyPage(() => import('./pages/KefuPage'), ['support']);

export const routes: AppRoute[] = [
  { path: '/customer', Page: Customer, fallthrough: true, order: 690 },
  { path: '/kefuWebview', Page: Kefu, fallthrough: true, order: 700 },
];
