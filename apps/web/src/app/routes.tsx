/**
 * The route table: every route of spec section 2. Each feature declares its own routes in
 * features/<feature>/routes.tsx (`export const routes: AppRoute[]`, pages wrapped in lazyPage with the locale
 * namespaces they need); this file collects them with an eager import.meta.glob, adds the app's own routes (the order
 * manager, a page of spot and contract alike) and sorts the lot by each route's `order` (AppRoute, shared/routing),
 * which keeps the list in the order the router and its tests expect. A feature adding a route touches only its
 * folder. The route files import nothing but lazyPage and load their pages by dynamic import, so the eager glob adds
 * no page code to the initial chunk.
 *
 * A route listed in NOT_YET_AVAILABLE (none today: every route has its screen) renders the shared "not available yet"
 * page. Routes marked `login` redirect to /login?redirect=... when logged out (the balance tab among them, spec
 * section 2).
 */
import { lazyPage, type AppRoute } from '../shared/routing';

export type { AppRoute };

/** The shared "not available yet" page (also the router's for the routes of NOT_YET_AVAILABLE, which may be empty). */
export const NotAvailable = lazyPage(() => import('../features/placeholder/pages/NotAvailablePage'));

// The order manager (spot and contract orders together): no login guard in the router, spec section 2; logged out,
// the page asks to log in.
const OrderManager = lazyPage(() => import('./pages/OrderManagerPage'), ['spot', 'contract']);

/** Routes of the app itself, not of one feature. */
const APP_ROUTES: readonly AppRoute[] = [{ path: '/orderManger', Page: OrderManager, fallthrough: true, order: 680 }];

/** Each feature's `routes`, by file path (features/<feature>/routes.tsx). */
const featureRoutes = import.meta.glob<readonly AppRoute[]>('../features/*/routes.tsx', { eager: true, import: 'routes' });

/** Routes whose screens are not built yet (they show the "not available yet" page); empty: every route has a screen. */
export const NOT_YET_AVAILABLE: readonly string[] = [
  // main routes
];

/** Every route of the app (spec section 2, and those the features add beyond it), by `order`; then those of NOT_YET_AVAILABLE. */
export const ROUTES: readonly AppRoute[] = [
  ...[...APP_ROUTES, ...Object.values(featureRoutes).flat()].sort((a, b) => a.order - b.order),
  ...NOT_YET_AVAILABLE.map((path) => ({ path, Page: NotAvailable, order: Infinity })),
];

/**
 * Routes of the app that spec section 2 does not list, as the features declare them (`beyondSpec`): today the account
 * centre's devices and activity, the proof-of-reserves page and the API keys.
 */
export const EXTRA_ROUTES: readonly string[] = ROUTES.filter((r) => r.beyondSpec).map((r) => r.path);
