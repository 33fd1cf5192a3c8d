/**
 * Routes of home: the first tab, at / and /home.
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

// Home dismisses the page's shell itself once its banners are there (the shell shows the first one).
const Home = lazyPage(() => import('./pages/HomePage'), ['home'], { holdsBootShell: true });

export const routes: AppRoute[] = [
  { path: '/', Page: Home, tab: true, order: 10 },
  { path: '/home', Page: Home, tab: true, order: 20 },
];
