/** The operators page, for the admin role only (permission `operators`). Texts: ./locales.ts. */
import { lazy } from 'react';
import { TeamOutlined } from '@ant-design/icons';
import type { ConsoleFeature } from '../../shared/console-feature';

const feature: ConsoleFeature = {
  pages: [
    {
      path: 'operators',
      page: lazy(() => import('./OperatorsPage')),
      permission: 'operators',
      menu: { label: 'nav.operators', icon: <TeamOutlined />, order: 180 },
    },
  ],
};
export default feature;
