/**
 * Routes of contract trading: the tab and all contract orders (a main route: needs a session).
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const Contract = lazyPage(() => import('./pages/ContractTradePage'), ['contract']);
const AllContract = lazyPage(() => import('./pages/AllContractPage'), ['contract']);

export const routes: AppRoute[] = [
  { path: '/contract', Page: Contract, tab: true, order: 50 },
  { path: '/contract/allContract', Page: AllContract, login: true, fallthrough: true, order: 560 },
];
