/** The activities page (every role views; deciding is checked in the page). Texts: ./locales.ts. */
import { lazy } from 'react';
import { GiftOutlined } from '@ant-design/icons';
import type { ConsoleFeature } from '../../shared/console-feature';

const feature: ConsoleFeature = {
  pages: [{ path: 'activities', page: lazy(() => import('./ActivitiesPage')), menu: { label: 'nav.activities', icon: <GiftOutlined />, order: 120 } }],
};
export default feature;
