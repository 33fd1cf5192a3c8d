/**
 * Routes of identity verification and the personal centre: main routes of the spec, each needs a session.
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const PersonalCenter = lazyPage(() => import('./pages/PersonalCenterPage'), ['kyc']);
const Realname = lazyPage(() => import('./pages/RealnamePage'), ['kyc']);
const Realname1 = lazyPage(() => import('./pages/Realname1Page'), ['kyc']);

export const routes: AppRoute[] = [
  { path: '/realname', Page: Realname, login: true, fallthrough: true, order: 350 },
  { path: '/realname1', Page: Realname1, login: true, fallthrough: true, order: 360 },
  { path: '/personalCenter', Page: PersonalCenter, login: true, fallthrough: true, order: 370 },
];
