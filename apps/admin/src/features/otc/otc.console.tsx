/**
 * OTC's pages: merchants, appeals and ads (every role views; deciding: ./otc-permissions.ts, checked in the pages).
 * Texts: ./locales.ts.
 */
import { lazy } from 'react';
import { NotificationOutlined, ShopOutlined, SolutionOutlined } from '@ant-design/icons';
import type { ConsoleFeature } from '../../shared/console-feature';

const feature: ConsoleFeature = {
  pages: [
    { path: 'otc-merchants', page: lazy(() => import('./MerchantsPage')), menu: { label: 'nav.otcMerchants', icon: <ShopOutlined />, order: 80 } },
    { path: 'otc-appeals', page: lazy(() => import('./AppealsPage')), menu: { label: 'nav.otcAppeals', icon: <SolutionOutlined />, order: 90 } },
    { path: 'otc-ads', page: lazy(() => import('./AdsPage')), menu: { label: 'nav.otcAds', icon: <NotificationOutlined />, order: 100 } },
  ],
};
export default feature;
