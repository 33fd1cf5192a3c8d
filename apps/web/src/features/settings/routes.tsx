/**
 * Routes of the settings and the language picker.
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const Setting = lazyPage(() => import('./pages/SettingPage'), ['settings', 'menu']);
const Langue = lazyPage(() => import('./pages/LanguePage'), ['settings', 'menu']);

export const routes: AppRoute[] = [
  { path: '/setting', Page: Setting, order: 150 },
  { path: '/langue', Page: Langue, order: 160 },
];
