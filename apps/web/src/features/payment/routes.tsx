/**
 * Routes of the payment methods (bank card, WeChat, Alipay). No router login guard (spec section 2); logged out, each
 * page asks to log in.
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const Payment = lazyPage(() => import('./pages/PaymentPage'), ['payment']);
const BankCard = lazyPage(() => import('./pages/BankCardPage'), ['payment']);
const Weixin = lazyPage(() => import('./pages/WeixinPage'), ['payment']);
const Zhifubao = lazyPage(() => import('./pages/ZhifubaoPage'), ['payment']);

export const routes: AppRoute[] = [
  { path: '/payment', Page: Payment, fallthrough: true, order: 310 },
  { path: '/payment/bankCard', Page: BankCard, fallthrough: true, order: 320 },
  { path: '/payment/weixin', Page: Weixin, fallthrough: true, order: 330 },
  { path: '/payment/zhifubao', Page: Zhifubao, fallthrough: true, order: 340 },
];
