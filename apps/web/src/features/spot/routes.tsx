/**
 * Routes of spot trading: the trade tab and all spot orders (needs a session).
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const Transaction = lazyPage(() => import('./pages/TransactionPage'), ['spot']);
const AllTransaction = lazyPage(() => import('./pages/AllTransactionPage'), ['spot']);

export const routes: AppRoute[] = [
  { path: '/transaction', Page: Transaction, tab: true, order: 40 },
  { path: '/transaction/allTransaction', Page: AllTransaction, login: true, order: 90 },
];
