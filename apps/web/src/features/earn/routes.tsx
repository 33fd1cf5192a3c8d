/**
 * Routes of fixed-term savings (mortgage, its records and the redemptions): main routes, guarded like the rest of the
 * balance screens.
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const Mortgage = lazyPage(() => import('./pages/MortgagePage'), ['earn']);
const MortRecord = lazyPage(() => import('./pages/MortRecordPage'), ['earn']);
const RedeemRecord = lazyPage(() => import('./pages/RedeemRecordPage'), ['earn']);

export const routes: AppRoute[] = [
  { path: '/mortgage', Page: Mortgage, login: true, fallthrough: true, order: 440 },
  { path: '/mort_record', Page: MortRecord, login: true, fallthrough: true, order: 450 },
  { path: '/redeem_record', Page: RedeemRecord, login: true, fallthrough: true, order: 460 },
];
