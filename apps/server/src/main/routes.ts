/**
 * Every route module of the app, registered in this order by app.ts. Each is a Fastify plugin that reads
 * what it needs from `app.ctx`.
 */
import type { FastifyPluginAsync } from 'fastify';
import health from '../platform/health/health.routes';
import memberRoutes from '../domains/member/member.routes';
import verificationRoutes from '../domains/verification/verification.routes';
import demoRoutes from '../domains/demo/demo.routes';
import demoContractRoutes from '../domains/demo/demo-contract.routes';
import demoClockRoutes from '../domains/demo/demo-clock.routes';
import entrustRoutes from '../domains/entrust/entrust.routes';
import contractRoutes from '../domains/contract/contract.routes';
import assetRoutes from '../domains/asset/asset.routes';
import marketDataRoutes from '../domains/market-data/market-data.routes';
import contractMarketRoutes from '../domains/contract-market/contract-market.routes';
import wsRoutes from '../gateways/ws/ws.routes';
import uploadsRoutes from '../domains/uploads/uploads.routes';
import kycRoutes from '../domains/kyc/kyc.routes';
import paymentRoutes from '../domains/payment/payment.routes';
import adminRoutes from '../domains/admin/admin.routes';
import securityRoutes from '../domains/security/security.routes';
import walletRoutes from '../domains/wallet/wallet.routes';
import walletAdminRoutes from '../domains/wallet/wallet.admin.routes';
import chainAdminRoutes from '../domains/wallet/chain.admin.routes';
import demoDepositRoutes from '../domains/wallet/demo-deposit.routes';
import reservesRoutes from '../domains/reserves/reserves.routes';
import otcRoutes from '../domains/otc/otc.routes';
import otcAdminRoutes from '../domains/otc/otc.admin.routes';
import appVersionRoutes from '../domains/app-version/app-version.routes';
import activityRoutes from '../domains/activity/activity.routes';
import activityAdminRoutes from '../domains/activity/activity.admin.routes';
import inviteRoutes from '../domains/invite/invite.routes';
import contentRoutes from '../domains/content/content.routes';
import contentAdminRoutes from '../domains/content/content.admin.routes';
import earnRoutes from '../domains/earn/earn.routes';
import earnAdminRoutes from '../domains/earn/earn.admin.routes';
import convertRoutes from '../domains/convert/convert.routes';
// Customer service.
import supportRoutes from '../domains/support/support.routes';
import supportAdminRoutes from '../domains/support/support.admin.routes';
import inboxRoutes from '../domains/inbox/inbox.routes';
// API keys (app and console), then the Binance-compatible API (/api/v3, /fapi, streams), its own error body and hooks.
import apiKeyRoutes from '../domains/api-keys/api-keys.routes';
import binanceRoutes from '../gateways/binance/binance.routes';

export const modules: FastifyPluginAsync[] = [
  health,
  memberRoutes,
  verificationRoutes,
  demoRoutes,
  demoContractRoutes,
  demoClockRoutes,
  entrustRoutes,
  contractRoutes,
  assetRoutes,
  marketDataRoutes,
  contractMarketRoutes,
  wsRoutes,
  uploadsRoutes,
  kycRoutes,
  paymentRoutes,
  adminRoutes,
  securityRoutes,
  walletRoutes,
  walletAdminRoutes,
  chainAdminRoutes,
  demoDepositRoutes,
  reservesRoutes,
  otcRoutes,
  otcAdminRoutes,
  appVersionRoutes,
  activityRoutes,
  activityAdminRoutes,
  inviteRoutes,
  contentRoutes,
  contentAdminRoutes,
  earnRoutes,
  earnAdminRoutes,
  convertRoutes,
  supportRoutes,
  supportAdminRoutes,
  inboxRoutes,
  apiKeyRoutes,
  binanceRoutes,
];
