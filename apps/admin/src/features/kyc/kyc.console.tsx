/** The KYC review queue. Texts: ./locales.ts. */
import { lazy } from 'react';
import { IdcardOutlined } from '@ant-design/icons';
import type { ConsoleFeature } from '../../shared/console-feature';

const feature: ConsoleFeature = {
  pages: [{ path: 'kyc', page: lazy(() => import('./KycQueuePage')), menu: { label: 'nav.kyc', icon: <IdcardOutlined />, order: 20 } }],
};
export default feature;
