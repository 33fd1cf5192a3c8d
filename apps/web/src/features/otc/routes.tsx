/**
 * Routes of peer-to-peer fiat (OTC) trading. The market and the agreements are public (taking an ad asks to log in);
 * the rest needs a session.
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const OtcBuy = lazyPage(() => import('./pages/MarketPage'), ['otc']);
const OtcSell = lazyPage(() => import('./pages/SellMarketPage'), ['otc']);
const OtcTake = lazyPage(() => import('./pages/TransactionDetailPage'), ['otc']);
const OtcOrders = lazyPage(() => import('./pages/OtcOrdersPage'), ['otc']);
const OtcOrderDetail = lazyPage(() => import('./pages/OrderDetailPage'), ['otc']);
const OtcAppeal = lazyPage(() => import('./pages/AppealPage'), ['otc']);
const OtcMerchant = lazyPage(() => import('./pages/MerchantAuditPage'), ['otc']);
const OtcAds = lazyPage(() => import('./pages/AdvertisementPage'), ['otc']);
const MerchantAgreement = lazyPage(() => import('./pages/AgreementPage'), ['otc']);
const Otc365Agreement = lazyPage(() => import('./pages/Otc365AgreementPage'), ['otc']);

export const routes: AppRoute[] = [
  { path: '/transaction/transactionFabi', Page: OtcBuy, fallthrough: true, order: 570 },
  { path: '/transaction/transactionFabi1', Page: OtcSell, fallthrough: true, order: 580 },
  { path: '/transactionDetail', Page: OtcTake, fallthrough: true, order: 590 },
  { path: '/merchantAgreement', Page: MerchantAgreement, fallthrough: true, order: 600 },
  { path: '/otc365agreement', Page: Otc365Agreement, fallthrough: true, order: 610 },
  { path: '/transaction/otcOrder', Page: OtcOrders, login: true, fallthrough: true, order: 620 },
  { path: '/transaction/orderDetail', Page: OtcOrderDetail, login: true, fallthrough: true, order: 630 },
  { path: '/transaction/appeal', Page: OtcAppeal, login: true, fallthrough: true, order: 640 },
  { path: '/transaction/merchantAudit', Page: OtcMerchant, login: true, fallthrough: true, order: 650 },
  { path: '/advertisement', Page: OtcAds, login: true, fallthrough: true, order: 660 },
];
