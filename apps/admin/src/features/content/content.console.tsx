/** The content page (every role views; editing and publishing by content_edit and content_publish, checked in the page). Texts: ./locales.ts. */
import { lazy } from 'react';
import { FileTextOutlined } from '@ant-design/icons';
import type { ConsoleFeature } from '../../shared/console-feature';

const feature: ConsoleFeature = {
  pages: [{ path: 'content', page: lazy(() => import('./ContentPage')), menu: { label: 'nav.content', icon: <FileTextOutlined />, order: 130 } }],
};
export default feature;
