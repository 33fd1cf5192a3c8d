/** The KYC review queue. Texts: ./locales.ts. */
import { lazy } from 'react';
import { IdcardOutlined } from '@ant-design/icons';
import type { ConsoleFeature } from '../../app/console-features';

const feature: ConsoleFeature = {
  pages: [{ path: 'kyc', page: lazy(() => import('./KycQueuePage')), menu: { label: 'nav.kyc', icon: <IdcardOutlined />, order: 20 } }],
};
export default feature;
