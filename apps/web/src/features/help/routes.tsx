/**
 * Routes of the help centre (public, content edited in the console): home, a category (Detail1 ?id=), an article
 * (Detail2 ?id=), search results (Detail3 ?q=), agreements and policies (Detail4, ?slug=); and the download page
 * (public).
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const HelpCenter = lazyPage(() => import('./pages/HelpCenterPage'), ['help']);
const HelpCategory = lazyPage(() => import('./pages/HelpCategoryPage'), ['help']);
const HelpArticle = lazyPage(() => import('./pages/HelpArticlePage'), ['help']);
const HelpSearch = lazyPage(() => import('./pages/HelpSearchPage'), ['help']);
const HelpPolicies = lazyPage(() => import('./pages/HelpPoliciesPage'), ['help']);
const DownloadApp = lazyPage(() => import('./pages/DownloadAppPage'), ['help']);

export const routes: AppRoute[] = [
  { path: '/helpCenter', Page: HelpCenter, fallthrough: true, order: 750 },
  { path: '/helpCenterDetail1', Page: HelpCategory, fallthrough: true, order: 760 },
  { path: '/helpCenterDetail2', Page: HelpArticle, fallthrough: true, order: 770 },
  { path: '/helpCenterDetail3', Page: HelpSearch, fallthrough: true, order: 780 },
  { path: '/helpCenterDetail4', Page: HelpPolicies, fallthrough: true, order: 790 },
  { path: '/downloadApp', Page: DownloadApp, fallthrough: true, order: 800 },
];
