/**
 * The browser router: an app shell (overlays, side menu, nickname dialog) around the routes of
 * routes.tsx; tab routes sit in the tab layout; `login` routes redirect logged-out visitors to
 * /login?redirect=<path>. Unknown paths go home.
 */
import { Navigate, createBrowserRouter, useLocation, type RouteObject } from 'react-router';
import type { ReactNode } from 'react';
import { useAppStore } from '../shared/storage';
import { setNavigator } from '../shared/navigation';
import { ROUTES } from './routes';
import { AppShell } from './layouts/AppShell';
import { TabLayout } from './layouts/TabLayout';

/** Redirects to /login when logged out. */
function RequireLogin({ children }: { children: ReactNode }) {
  const isLogin = useAppStore((s) => s.isLogin);
  const location = useLocation();
  if (!isLogin) return <Navigate to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return <>{children}</>;
}

function toRoute(r: (typeof ROUTES)[number]): RouteObject {
  const el = <r.Page />;
  return { path: r.path, element: r.login ? <RequireLogin>{el}</RequireLogin> : el };
}

/** Route objects of the app (exported for tests). */
export const routeObjects: RouteObject[] = [
  {
    element: <AppShell />,
    children: [
      { element: <TabLayout />, children: ROUTES.filter((r) => r.tab).map(toRoute) },
      ...ROUTES.filter((r) => !r.tab).map(toRoute),
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/** Creates the browser router and registers it for navigation outside React. */
export function createAppRouter() {
  const router = createBrowserRouter(routeObjects);
  setNavigator((to, opts) => void router.navigate(to, opts));
  return router;
}
