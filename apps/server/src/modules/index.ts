/**
 * Every route module of the app, registered in this order by app.ts. Each is a Fastify plugin that reads
 * what it needs from `app.ctx`.
 */
import type { FastifyPluginAsync } from 'fastify';
import health from './health/health.routes';
import memberRoutes from './member/member.routes';
import verificationRoutes from './verification/verification.routes';
import demoRoutes from './demo/demo.routes';
import demoContractRoutes from './demo/demo-contract.routes';
import demoClockRoutes from './demo/demo-clock.routes';
import entrustRoutes from './entrust/entrust.routes';
import contractRoutes from './contract/contract.routes';
import assetRoutes from './asset/asset.routes';
import marketDataRoutes from './market-data/market-data.routes';
import contractMarketRoutes from './contract-market/contract-market.routes';
import wsRoutes from './ws/ws.routes';
import uploadsRoutes from './uploads/uploads.routes';
import kycRoutes from './kyc/kyc.routes';
import paymentRoutes from './payment/payment.routes';
import adminRoutes from './admin/admin.routes';
import securityRoutes from './security/security.routes';
import walletRoutes from './wallet/wallet.routes';
import walletAdminRoutes from './wallet/wallet.admin.routes';
import chainAdminRoutes from './wallet/chain.admin.routes';
import demoDepositRoutes from './wallet/demo-deposit.routes';
import reservesRoutes from './reserves/reserves.routes';
import otcRoutes from './otc/otc.routes';
import otcAdminRoutes from './otc/otc.admin.routes';
import appVersionRoutes from './app-version/app-version.routes';
import activityRoutes from './activity/activity.routes';
import activityAdminRoutes from './activity/activity.admin.routes';
import inviteRoutes from './invite/invite.routes';
import contentRoutes from './content/content.routes';
import contentAdminRoutes from './content/content.admin.routes';
import earnRoutes from './earn/earn.routes';
import earnAdminRoutes from './earn/earn.admin.routes';
import convertRoutes from './convert/convert.routes';
// Customer service.
import supportRoutes from './support/support.routes';
import supportAdminRoutes from './support/support.admin.routes';
import inboxRoutes from './inbox/inbox.routes';
// API keys (app and console), then the Binance-compatible API (/api/v3, /fapi, streams), its own error body and hooks.
import apiKeyRoutes from './api-keys/api-keys.routes';
import binanceRoutes from './binance/binance.routes';

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
