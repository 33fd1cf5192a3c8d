/** The savings products page (every role views; editing needs wallet_decide, checked in the page). Texts: ./locales.ts. */
import { lazy } from 'react';
import { FundOutlined } from '@ant-design/icons';
import type { ConsoleFeature } from '../../shared/console-feature';

const feature: ConsoleFeature = {
  pages: [{ path: 'earn-products', page: lazy(() => import('./EarnProductsPage')), menu: { label: 'nav.earn', icon: <FundOutlined />, order: 160 } }],
};
export default feature;
