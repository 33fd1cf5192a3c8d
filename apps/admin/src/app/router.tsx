/**
 * The console's routes under /admin/ (basename): /login, and behind a session /users, /users/:userId, /kyc, /audit,
 * /operators (admin role; others are sent to /users), and the wallet's /withdrawals, /deposits, /hot-wallet, /alerts,
 * /reserves (every role views; deciding needs wallet_decide), OTC's /otc-merchants, /otc-appeals, /otc-ads (every role
 * views; deciding: features/otc/otc-permissions.ts), /content (every role views; editing and publishing by
 * content_edit and content_publish), customer service's /support and /support-canned (roles with `support`; others
 * are sent to /users). Pages load lazily; a lost session (logout, any 401) shows the
 * login page.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Spin } from 'antd';
import { createBrowserRouter, Navigate, useLocation } from 'react-router';
import { useCan } from '../shared/permissions';
import { useSession } from '../shared/session';
import { Layout } from './Layout';

const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const UsersPage = lazy(() => import('../features/users/UsersPage'));
const UserDetailPage = lazy(() => import('../features/users/UserDetailPage'));
const KycQueuePage = lazy(() => import('../features/kyc/KycQueuePage'));
const AuditPage = lazy(() => import('../features/audit/AuditPage'));
const OperatorsPage = lazy(() => import('../features/operators/OperatorsPage'));
const WithdrawalsPage = lazy(() => import('../features/wallet/WithdrawalsPage'));
const DepositsPage = lazy(() => import('../features/wallet/DepositsPage'));
const HotWalletPage = lazy(() => import('../features/wallet/HotWalletPage'));
const AlertsPage = lazy(() => import('../features/wallet/AlertsPage'));
const ReservesPage = lazy(() => import('../features/wallet/ReservesPage'));
const OtcMerchantsPage = lazy(() => import('../features/otc/MerchantsPage'));
const OtcAppealsPage = lazy(() => import('../features/otc/AppealsPage'));
const OtcAdsPage = lazy(() => import('../features/otc/AdsPage'));
const AppVersionsPage = lazy(() => import('../features/app-versions/AppVersionsPage'));
const ActivitiesPage = lazy(() => import('../features/activities/ActivitiesPage'));
const ContentPage = lazy(() => import('../features/content/ContentPage'));
const SupportPage = lazy(() => import('../features/support/SupportPage'));
const CannedRepliesPage = lazy(() => import('../features/support/CannedRepliesPage'));
const EarnProductsPage = lazy(() => import('../features/earn/EarnProductsPage'));

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Spin style={{ display: 'block', margin: 48 }} />}>{children}</Suspense>;
}

function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return children;
}

function RequireOperatorsRole({ children }: { children: ReactNode }) {
  return useCan('operators') ? children : <Navigate to="/users" replace />;
}

function RequireSupportRole({ children }: { children: ReactNode }) {
  return useCan('support') ? children : <Navigate to="/users" replace />;
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
        {
          path: 'users',
          element: (
            <Page>
              <UsersPage />
            </Page>
          ),
        },
        {
          path: 'users/:userId',
          element: (
            <Page>
              <UserDetailPage />
            </Page>
          ),
        },
        {
          path: 'kyc',
          element: (
            <Page>
              <KycQueuePage />
            </Page>
          ),
        },
        {
          path: 'audit',
          element: (
            <Page>
              <AuditPage />
            </Page>
          ),
        },
        {
          path: 'operators',
          element: (
            <RequireOperatorsRole>
              <Page>
                <OperatorsPage />
              </Page>
            </RequireOperatorsRole>
          ),
        },
        {
          path: 'withdrawals',
          element: (
            <Page>
              <WithdrawalsPage />
            </Page>
          ),
        },
        {
          path: 'deposits',
          element: (
            <Page>
              <DepositsPage />
            </Page>
          ),
        },
        {
          path: 'hot-wallet',
          element: (
            <Page>
              <HotWalletPage />
            </Page>
          ),
        },
        {
          path: 'alerts',
          element: (
            <Page>
              <AlertsPage />
            </Page>
          ),
        },
        {
          path: 'reserves',
          element: (
            <Page>
              <ReservesPage />
            </Page>
          ),
        },
        {
          path: 'otc-merchants',
          element: (
            <Page>
              <OtcMerchantsPage />
            </Page>
          ),
        },
        {
          path: 'otc-appeals',
          element: (
            <Page>
              <OtcAppealsPage />
            </Page>
          ),
        },
        {
          path: 'otc-ads',
          element: (
            <Page>
              <OtcAdsPage />
            </Page>
          ),
        },
        {
          path: 'app-versions',
          element: (
            <Page>
              <AppVersionsPage />
            </Page>
          ),
        },
        {
          path: 'activities',
          element: (
            <Page>
              <ActivitiesPage />
            </Page>
          ),
        },
        {
          path: 'content',
          element: (
            <Page>
              <ContentPage />
            </Page>
          ),
        },
        {
          path: 'support',
          element: (
            <RequireSupportRole>
              <Page>
                <SupportPage />
              </Page>
            </RequireSupportRole>
          ),
        },
        {
          path: 'support-canned',
          element: (
            <RequireSupportRole>
              <Page>
                <CannedRepliesPage />
              </Page>
            </RequireSupportRole>
          ),
        },
        {
          path: 'earn-products',
          element: (
            <Page>
              <EarnProductsPage />
            </Page>
          ),
        },
        { path: '*', element: <Navigate to="/users" replace /> },
      ],
    },
  ],
  { basename: '/admin' },
);
