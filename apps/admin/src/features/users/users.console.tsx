/** The users pages: the search (menu "Users") and a user's detail, reached from it. Texts: ./locales.ts. */
import { lazy } from 'react';
import { UserOutlined } from '@ant-design/icons';
import type { ConsoleFeature } from '../../shared/console-feature';

const feature: ConsoleFeature = {
  pages: [
    { path: 'users', page: lazy(() => import('./UsersPage')), menu: { label: 'nav.users', icon: <UserOutlined />, order: 10 } },
    { path: 'users/:userId', page: lazy(() => import('./UserDetailPage')) },
  ],
};
export default feature;
