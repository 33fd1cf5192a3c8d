/**
 * The wallet's pages: withdrawals, deposits, hot wallet, alerts and proof of reserves (every role views; deciding needs
 * wallet_decide, checked in the pages). Texts: ./locales.ts.
 */
import { lazy } from 'react';
import { AlertOutlined, DownloadOutlined, SafetyCertificateOutlined, UploadOutlined, WalletOutlined } from '@ant-design/icons';
import type { ConsoleFeature } from '../../shared/console-feature';

const feature: ConsoleFeature = {
  pages: [
    { path: 'withdrawals', page: lazy(() => import('./WithdrawalsPage')), menu: { label: 'nav.withdrawals', icon: <UploadOutlined />, order: 30 } },
    { path: 'deposits', page: lazy(() => import('./DepositsPage')), menu: { label: 'nav.deposits', icon: <DownloadOutlined />, order: 40 } },
    { path: 'hot-wallet', page: lazy(() => import('./HotWalletPage')), menu: { label: 'nav.hotWallet', icon: <WalletOutlined />, order: 50 } },
    { path: 'alerts', page: lazy(() => import('./AlertsPage')), menu: { label: 'nav.alerts', icon: <AlertOutlined />, order: 60 } },
    { path: 'reserves', page: lazy(() => import('./ReservesPage')), menu: { label: 'nav.reserves', icon: <SafetyCertificateOutlined />, order: 70 } },
  ],
};
export default feature;
