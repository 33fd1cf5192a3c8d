/** Customer service: the support chat and the canned replies, for the roles with `support` only. Texts: ./locales.ts. */
import { lazy } from 'react';
import { CustomerServiceOutlined, MessageOutlined } from '@ant-design/icons';
import type { ConsoleFeature } from '../../shared/console-feature';

const feature: ConsoleFeature = {
  pages: [
    {
      path: 'support',
      page: lazy(() => import('./SupportPage')),
      permission: 'support',
      menu: { label: 'nav.support', icon: <CustomerServiceOutlined />, order: 140 },
    },
    {
      path: 'support-canned',
      page: lazy(() => import('./CannedRepliesPage')),
      permission: 'support',
      menu: { label: 'nav.supportCanned', icon: <MessageOutlined />, order: 150 },
    },
  ],
};
export default feature;
