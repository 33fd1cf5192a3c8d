/** The audit log page. Its menu label is in ./locales.ts; the audit table's texts are shared (src/locales, shared/audit). */
import { lazy } from 'react';
import { AuditOutlined } from '@ant-design/icons';
import type { ConsoleFeature } from '../../shared/console-feature';

const feature: ConsoleFeature = {
  pages: [{ path: 'audit', page: lazy(() => import('./AuditPage')), menu: { label: 'nav.audit', icon: <AuditOutlined />, order: 170 } }],
};
export default feature;
