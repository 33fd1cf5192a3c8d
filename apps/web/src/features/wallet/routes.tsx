/**
 * Routes of the wallet (deposit, withdraw, transfer, capital records). Main routes: each needs a session (the router
 * sends logged-out visitors to /login).
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const WALLET_NS = ['wallet', 'account'];
const ChooseCoin = lazyPage(() => import('./pages/ChooseCoinPage'), WALLET_NS);
const CoinCharging = lazyPage(() => import('./pages/CoinChargingPage'), WALLET_NS);
const WithdrawCoin = lazyPage(() => import('./pages/WithdrawCoinPage'), WALLET_NS);
const WithdrawCoinSuccess = lazyPage(() => import('./pages/WithdrawCoinSuccessPage'), WALLET_NS);
const Transfer = lazyPage(() => import('./pages/TransferPage'), WALLET_NS);
const TranferSuccess = lazyPage(() => import('./pages/TranferSuccessPage'), WALLET_NS);
const CapitalRecords = lazyPage(() => import('./pages/CapitalRecordsPage'), WALLET_NS);
const CapitalRecordsDetail = lazyPage(() => import('./pages/CapitalRecordsDetailPage'), WALLET_NS);

export const routes: AppRoute[] = [
  { path: '/assets/chooseCoin', Page: ChooseCoin, login: true, fallthrough: true, order: 480 },
  { path: '/assets/coinCharging', Page: CoinCharging, login: true, fallthrough: true, order: 490 },
  { path: '/assets/withdrawCoin', Page: WithdrawCoin, login: true, fallthrough: true, order: 500 },
  { path: '/assets/withdrawCoinSuccess', Page: WithdrawCoinSuccess, login: true, fallthrough: true, order: 510 },
  { path: '/assets/transfer', Page: Transfer, login: true, fallthrough: true, order: 520 },
  { path: '/assets/tranferSuccess', Page: TranferSuccess, login: true, fallthrough: true, order: 530 },
  { path: '/assets/capitalRecords', Page: CapitalRecords, login: true, fallthrough: true, order: 540 },
  { path: '/assets/capitalRecordsDetail', Page: CapitalRecordsDetail, login: true, fallthrough: true, order: 550 },
];
