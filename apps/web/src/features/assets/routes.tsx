/**
 * Routes of the balances: the assets tab (at /assets and /assets/assetsIndex) and a coin's detail, all behind the login
 * guard (spec section 2).
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const Assets = lazyPage(() => import('./pages/AssetsPage'), ['assets']);
const AssetDetail = lazyPage(() => import('./pages/AssetDetailPage'), ['assets']);

export const routes: AppRoute[] = [
  { path: '/assets', Page: Assets, tab: true, login: true, order: 60 },
  { path: '/assets/assetsIndex', Page: Assets, tab: true, login: true, order: 70 },
  { path: '/assets/assetDetail', Page: AssetDetail, login: true, order: 100 },
];
