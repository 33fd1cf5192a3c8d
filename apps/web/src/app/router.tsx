/**
 * The router: an app shell (overlays, side menu, nickname dialog) around the routes of routes.tsx (which
 * collects each feature's features/<feature>/routes.tsx, in their `order`); tab routes sit in the tab
 * layout; `login` routes redirect logged-out visitors to /login?redirect=<path>. Unknown paths show the
 * not-found page.
 *
 * Declarative mode (BrowserRouter + useRoutes), not the data router: the app uses no loaders or
 * actions, and the data router was 17 KB gzip of the initial JavaScript. What the
 * data router gave besides is here: `ScrollRestore` (scroll to top on a new page, back to where the
 * user was on Back) and `NavigatorRegistration` (navigation from outside React).
 */
import { useEffect, useLayoutEffect, type ReactNode } from 'react';
import { BrowserRouter, Navigate, useLocation, useNavigate, useNavigationType, useRoutes, type RouteObject } from 'react-router';
import { useAppStore } from '../shared/storage';
import { setNavigator } from '../shared/navigation';
import { NOT_YET_AVAILABLE, NotAvailable, ROUTES } from './routes';
import { lazyPage } from '../shared/routing';
import { AppShell } from './layouts/AppShell';
import { TabLayout } from './layouts/TabLayout';

const NotFound = lazyPage(() => import('../features/not-found/pages/NotFoundPage'));
const notYetAvailable = new Set(NOT_YET_AVAILABLE.map((p) => p.toLowerCase()));
const fallthroughRoutes = new Map(ROUTES.filter((r) => r.fallthrough).map((r) => [r.path.toLowerCase(), r]));

/** The path as react-router compares it: lower case, without a trailing slash. */
function normalisePath(pathname: string): string {
  return (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname).toLowerCase();
}

/** The `fallthrough` route (routes.tsx) a path no route object matched belongs to, if any. */
export function fallthroughRoute(pathname: string): (typeof ROUTES)[number] | undefined {
  return fallthroughRoutes.get(normalisePath(pathname));
}

/**
 * Which page a path no route matched shows: the "not available yet" page for a route of NOT_YET_AVAILABLE
 * (a spec section 2 route whose screen is not built; the list is empty today), the not-found page otherwise.
 * Those routes are not route objects of their own, like the `fallthrough` ones: react-router compiles a regular
 * expression per route on every match, and fifty-odd routes made the first render of home a long task.
 */
export function unmatchedPage(pathname: string): 'notAvailable' | 'notFound' {
  // Case-insensitive and with or without a trailing slash, as react-router matches a route's path.
  return notYetAvailable.has(normalisePath(pathname)) ? 'notAvailable' : 'notFound';
}

function Unmatched() {
  const { pathname } = useLocation();
  const route = fallthroughRoute(pathname);
  if (route) return route.login ? <RequireLogin>{<route.Page />}</RequireLogin> : <route.Page />;
  return unmatchedPage(pathname) === 'notAvailable' ? <NotAvailable /> : <NotFound />;
}

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

/**
 * Route objects of the app (exported for tests): every route of routes.tsx but the `fallthrough` ones and those
 * of NOT_YET_AVAILABLE, then `*`, which shows a fallthrough route's page, the "not available yet" page for those
 * of NOT_YET_AVAILABLE (unmatchedPage) and the not-found page for the rest.
 */
export const routeObjects: RouteObject[] = [
  {
    element: <AppShell />,
    children: [
      { element: <TabLayout />, children: ROUTES.filter((r) => r.tab).map(toRoute) },
      ...ROUTES.filter((r) => !r.tab && !r.fallthrough && !notYetAvailable.has(r.path.toLowerCase())).map(toRoute),
      { path: '*', element: <Unmatched /> },
    ],
  },
];

/** Window scroll positions by history entry key, kept while the page lives. */
const scrollPositions = new Map<string, number>();

/**
 * Scroll restoration of the window: a pushed or replaced page starts at the top; Back/Forward (POP)
 * returns to the position the entry had. Positions are recorded as the user scrolls.
 */
export function ScrollRestore() {
  const { key } = useLocation();
  const type = useNavigationType();
  useEffect(() => {
    if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
  }, []);
  useEffect(() => {
    const onScroll = () => scrollPositions.set(key, window.scrollY);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [key]);
  useLayoutEffect(() => {
    window.scrollTo(0, type === 'POP' ? (scrollPositions.get(key) ?? 0) : 0);
  }, [key, type]);
  return null;
}

/** Registers the router's navigate for navigation from outside React (API client on 401 / SYS.0015). */
function NavigatorRegistration() {
  const navigate = useNavigate();
  useEffect(() => {
    setNavigator((to, opts) => void navigate(to, opts));
  }, [navigate]);
  return null;
}

function AppRoutes() {
  return useRoutes(routeObjects);
}

/** The app's router with its routes. */
export function AppRouter() {
  return (
    <BrowserRouter>
      <NavigatorRegistration />
      <ScrollRestore />
      <AppRoutes />
    </BrowserRouter>
  );
}
