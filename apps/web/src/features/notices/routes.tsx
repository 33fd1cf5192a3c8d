/**
 * Routes of the official notices: the list and a notice.
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const NoticeList = lazyPage(() => import('./pages/NoticeListPage'), ['notices']);
const NoticeDetail = lazyPage(() => import('./pages/NoticeDetailPage'), ['notices']);

export const routes: AppRoute[] = [
  { path: '/noticeList', Page: NoticeList, order: 170 },
  { path: '/noticeDetail', Page: NoticeDetail, order: 180 },
];
