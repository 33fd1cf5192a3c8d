/**
 * The console's routes under /admin/ (basename): /login, and behind a session the layout with every feature's pages
 * (consolePages: each feature declares its paths, lazy pages and the permission a page needs in
 * features/<feature>/<feature>.console.tsx, gathered by console-features.ts). An operator without a page's permission
 * is sent to /users, as are / and any unknown path. Pages load lazily; a lost session (logout, any 401) shows the
 * login page.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Spin } from 'antd';
import { createBrowserRouter, Navigate, useLocation, type RouteObject } from 'react-router';
import type { OperatorPermission } from '@exchange/api';
import { useCan } from '../shared/permissions';
import { useSession } from '../shared/session';
import { consolePages, type ConsolePage } from './console-features';
import { Layout } from './Layout';

const LoginPage = lazy(() => import('../features/auth/LoginPage'));

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Spin style={{ display: 'block', margin: 48 }} />}>{children}</Suspense>;
}

function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return children;
}

function RequirePermission({ permission, children }: { permission: OperatorPermission; children: ReactNode }) {
  return useCan(permission) ? children : <Navigate to="/users" replace />;
}

function LoginRoute() {
  return useSession() ? (
    <Navigate to="/users" replace />
  ) : (
    <Page>
      <LoginPage />
    </Page>
  );
}

/** A feature's page as a route: the lazy page in Suspense, behind its permission when it declares one. */
function pageRoute({ path, page: PageComponent, permission }: ConsolePage): RouteObject {
  const element = (
    <Page>
      <PageComponent />
    </Page>
  );
  return { path, element: permission ? <RequirePermission permission={permission}>{element}</RequirePermission> : element };
}

/** The router (basename /admin). */
export const router = createBrowserRouter(
  [
    { path: '/login', element: <LoginRoute /> },
    {
      path: '/',
      element: (
        <RequireSession>
          <Layout />
        </RequireSession>
      ),
      children: [
        { index: true, element: <Navigate to="/users" replace /> },
        ...consolePages.map(pageRoute),
        { path: '*', element: <Navigate to="/users" replace /> },
      ],
    },
  ],
  { basename: '/admin' },
);
