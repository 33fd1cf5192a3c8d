/** The app versions page (every role views; publishing and withdrawing need `operators`, checked in the page). Texts: ./locales.ts. */
import { lazy } from 'react';
import { CloudUploadOutlined } from '@ant-design/icons';
import type { ConsoleFeature } from '../../shared/console-feature';

const feature: ConsoleFeature = {
  pages: [
    { path: 'app-versions', page: lazy(() => import('./AppVersionsPage')), menu: { label: 'nav.appVersions', icon: <CloudUploadOutlined />, order: 110 } },
  ],
};
export default feature;
