/**
 * Routes of the markets: the quotes tab, a pair's detail and the k-line chart full screen (public, as the pair detail).
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const Quotes = lazyPage(() => import('./pages/QuotesPage'), ['quotes']);
const QuotesDetail = lazyPage(() => import('./pages/QuotesDetailPage'), ['quotes']);
const Kline = lazyPage(() => import('./pages/KlinePage'), ['quotes']);

export const routes: AppRoute[] = [
  { path: '/quotes', Page: Quotes, tab: true, order: 30 },
  { path: '/quotes/quotesDetail', Page: QuotesDetail, order: 80 },
  { path: '/kline', Page: Kline, fallthrough: true, order: 670 },
];
