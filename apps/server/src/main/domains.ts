/**
 * The modules of the server, in the order their services are built (main/context.ts), app.ts registers their routes
 * and the server processes start their jobs and run their seeds (platform/domain-module.ts): the health checks first,
 * then the domains, the app's WebSocket channels among them, and the Binance-compatible API last (its own error body
 * and hooks). A module's `create` sees the services of the modules before it (a later one only lazily). A new domain
 * adds its module here; the context's type follows from this list (main/context.ts checks every module's needs).
 */
import { projectionsOf, pushesOf } from '../platform/domain-module';
import health from '../platform/health/health.routes';
import type { PlatformContext } from '../platform/platform-context';
import { memberModule } from '../domains/member/member.module';
import { verificationModule } from '../domains/verification/verification.module';
import { demoModule } from '../domains/demo/demo.module';
import { spotModule } from '../domains/spot/spot.module';
import { perpModule } from '../domains/perp/perp.module';
import { assetModule } from '../domains/asset/asset.module';
import { marketDataModule } from '../domains/market-data/market-data.module';
import { marketJobsModule } from '../domains/market-jobs/market-jobs.module';
import { indexPriceModule } from '../domains/index-price/index-price.module';
import { uploadsModule } from '../domains/uploads/uploads.module';
import { kycModule } from '../domains/kyc/kyc.module';
import { paymentModule } from '../domains/payment/payment.module';
import { adminModule } from '../domains/admin/admin.module';
import { securityModule } from '../domains/security/security.module';
import { walletModule } from '../domains/wallet/wallet.module';
import { reservesModule } from '../domains/reserves/reserves.module';
import { otcModule } from '../domains/otc/otc.module';
import { appVersionModule } from '../domains/app-version/app-version.module';
import { activityModule } from '../domains/activity/activity.module';
import { inviteModule } from '../domains/invite/invite.module';
import { contentModule } from '../domains/content/content.module';
import { earnModule } from '../domains/earn/earn.module';
import { convertModule } from '../domains/convert/convert.module';
import { supportModule } from '../domains/support/support.module';
import { inboxModule } from '../domains/inbox/inbox.module';
import { apiKeysModule } from '../domains/api-keys/api-keys.module';
import { wsModule } from '../gateways/ws/ws.module';
import { binanceModule } from '../gateways/binance/binance.module';

export const DOMAINS = [
  { name: 'health', routes: (ctx: PlatformContext) => [health({ host: ctx.host, db: ctx.db })] },
  verificationModule,
  memberModule,
  demoModule,
  spotModule,
  perpModule,
  assetModule,
  marketDataModule,
  marketJobsModule,
  indexPriceModule,
  wsModule,
  uploadsModule,
  kycModule,
  paymentModule,
  adminModule,
  securityModule,
  walletModule,
  reservesModule,
  otcModule,
  appVersionModule,
  activityModule,
  inviteModule,
  contentModule,
  earnModule,
  convertModule,
  supportModule,
  inboxModule,
  apiKeysModule,
  binanceModule,
] as const;

/** The domains' projections, in the order of the list (what every engine host's projector writes). */
export const PROJECTIONS = projectionsOf(DOMAINS);

/** The domains' private WebSocket pushes, in the order of the list (what the app's WebSocket hub sends). */
export const PUSHES = pushesOf(DOMAINS);

/**
 * The URL of the module that exports every table (main/schema.ts), for `openDb`'s `schemaModule` (defined in
 * context-db.ts, which server.ts loads before the domains).
 */
export { SCHEMA_MODULE } from './context-db';
