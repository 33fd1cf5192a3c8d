/**
 * Routes of the activities (campaigns). The centre and the details are public (joining asks to log in); the history
 * needs a session.
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const ActivityCentre = lazyPage(() => import('./pages/ActivityPage'), ['activity']);
const ActivityDetails = lazyPage(() => import('./pages/ActivityDetailsPage'), ['activity']);
const ActivityHistory = lazyPage(() => import('./pages/ActivityHistoryPage'), ['activity']);

export const routes: AppRoute[] = [
  { path: '/activity', Page: ActivityCentre, fallthrough: true, order: 710 },
  { path: '/activityDetails', Page: ActivityDetails, fallthrough: true, order: 720 },
  { path: '/activityHistory', Page: ActivityHistory, login: true, fallthrough: true, order: 730 },
];
