/**
 * The application context: configuration, database and the services built on them. `createContext` wires
 * them; `buildApp(ctx)` (app.ts) exposes them over HTTP and WebSocket; server.ts adds the jobs.
 * Each service gets only the ports it uses.
 */
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { createLogger } from '../platform/shared/log';
import { createHooks, type Hooks } from '../platform/shared/hooks';
import type { Config } from '../platform/config/env';
import { openDb, type Db, type DbHandle } from '../platform/db/client';
import type { EnginePort } from '../platform/engine-port/engine-port';
import { createEnginePort } from '../platform/engine-port/engine-port';
import { registerDemoFaucet } from '../domains/asset/demo-faucet';
import { createMemberService, type MemberService } from '../domains/member/member.service';
import { createSecurityService, type SecurityService } from '../domains/security/security.service';
import { createEntrustService, type EntrustService } from '../domains/entrust/entrust.service';
import { createContractService, type ContractService } from '../domains/contract/contract.service';
import { createMarketDataService, type MarketDataService } from '../domains/market-data/market-data.service';
import { createContractMarketService, type ContractMarketService } from '../domains/contract-market/contract-market.service';
import { createMetrics, type ProcessMetrics } from '../platform/metrics/metrics';
import { createUploadsService, type UploadsService } from '../domains/uploads/uploads.service';
import { createKycService, type KycService } from '../domains/kyc/kyc.service';
import { createPaymentService, type PaymentService } from '../domains/payment/payment.service';
import { createAdminService, type AdminService } from '../domains/admin/admin.service';
import { createAppVersionService, type AppVersionService } from '../domains/app-version/app-version.service';
import { createReservesService, type ReservesService } from '../domains/reserves/reserves.service';
import { secretBoxFromConfig } from '../platform/shared/secret-box';
import { createChainService, type ChainService } from '../domains/wallet/chain.service';
import { createWalletService, type WalletService } from '../domains/wallet/wallet.service';
import { createOtcService, type OtcService } from '../domains/otc/otc.service';
import { createInboxService, type InboxService } from '../domains/inbox/inbox.service';
import { createInviteService, type InviteService } from '../domains/invite/invite.service';
import { createContentService, type ContentService } from '../domains/content/content.service';
import { createServerClock, type ServerClock } from '../platform/shared/clock';
import { createActivityService, type ActivityService } from '../domains/activity/activity.service';
import { createEarnService, type EarnService } from '../domains/earn/earn.service';
import { createConvertService, type ConvertService } from '../domains/convert/convert.service';
import { createSupportService, type SupportService } from '../domains/support/support.service';
import { createApiKeyService, type ApiKeyService } from '../domains/api-keys/api-keys.service';

export interface AppContext {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  hooks: Hooks;
  /** The engine behind its journal: submit commands, read state, listen to events. */
  host: EnginePort;
  /** Users, sessions (authenticate), codes, captcha, favourites. */
  members: MemberService;
  /** Account security: second factors, transaction password, withdrawal locks, sessions and the security log. */
  security: SecurityService;
  /** Spot order entry and queries, used by routes and by the liquidity bots alike. */
  entrust: EntrustService;
  /** The USDT perpetual contracts, user side: account, positions, settings, orders, records. */
  contract: ContractService;
  /** Markets, coins, tickers, k-lines, depth, trades, banners, notices; the reference and index prices. */
  marketData: MarketDataService;
  /** The perpetual contracts' public market data: markets, mark/index/funding, depth, trades, k-lines, funding history. */
  contractMarket: ContractMarketService;
  /** Image uploads (KYC photos, payment QR codes): checked, re-encoded, stored under DATA_DIR/uploads, served to their owner. */
  uploads: UploadsService;
  /** Identity verification (basic, advanced); the console decides through it (listApplications, application, decide, imageFor). */
  kyc: KycService;
  /** Payment methods (bank card, WeChat, Alipay) of verified users. */
  payments: PaymentService;
  /** The operator console: operator auth for /api/admin/* (header x-admin-token), the audit log, user and KYC actions. */
  admin: AdminService;
  /** The chain side of the wallet: deposit addresses, signer, chain client, deposit monitor, hot wallet, demo deposits. */
  chain: ChainService;
  /** Proof of reserves: Merkle-sum snapshots of user liabilities, the root, each user's proof. */
  reserves: ReservesService;
  /** The wallet, user side: coins, deposit addresses, withdrawals, transfers, records, address book; the console's withdrawal queue. */
  wallet: WalletService;
  /** Peer-to-peer fiat trading: merchants, ads, orders with escrow, appeals, the order chat. */
  otc: OtcService;
  /** The in-app inbox (/message): the users' messages from their events, unread counts, read marks. */
  inbox: InboxService;
  /** App versions per platform and their web bundles: the update flow (spec section 4). */
  appVersions: AppVersionService;
  /** Activities: campaigns defined in the console, joining, progress counted by the engine, payouts. */
  activity: ActivityService;
  /** Invitation and rebates: rules, invitees, rebates per day, rankings, the daily settlement. */
  invite: InviteService;
  /** Content edited in the console: banners, notices, help centre, text pages; drafts and published copies. */
  content: ContentService;
  /** Fixed-term savings: products, locks, daily interest, redemptions. */
  earn: EarnService;
  /** Convert: quotes at the order book, guaranteed for 10 s, and their market orders. */
  convert: ConvertService;
  /** Customer service: the support chat between users and operators, the console's queue and canned replies. */
  support: SupportService;
  /**
   * API keys of the Binance-compatible API: the users' and the console's key management, and the
   * ApiKeyVerifier (key lookup and signature checks) of /api/v3, /fapi and the streams.
   */
  apiKeys: ApiKeyService;
  /** This process's clock: stamps the engine commands' `ts`; moved forward only by the test-only demo/clock/advance. */
  clock: ServerClock;
  /** This process's metrics (GET /metrics); absent in contexts built without them. */
  metrics?: ProcessMetrics;
  /** Closes everything the context opened, in reverse order. */
  close(): Promise<void>;
  /** Things to close, pushed by each service that opens resources. */
  closers: Array<() => Promise<void> | void>;
}

/** Opens the database (with migrations), recovers the engine and builds every service. */
export async function createContext(
  config: Config,
  log?: FastifyBaseLogger,
  opts: {
    /** Called when the engine host stops on a fatal journal error (server.ts exits the process). */
    onFatal?: (err: unknown) => void;
  } = {},
): Promise<AppContext> {
  const logger = log ?? (createLogger(config.logLevel) as unknown as FastifyBaseLogger);
  const handle: DbHandle = await openDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    pgliteTemplateDir: config.pgliteTemplateDir,
    onPoolError: (err) => logger.warn({ err }, 'database connection lost'),
    // The database worker died (e.g. PGlite out of memory): fatal like a failed journal write; the journal rebuilds
    // whatever the database lost on restart.
    onWorkerDeath: (err) => {
      logger.fatal({ err }, 'the database worker died');
      opts.onFatal?.(err);
    },
  });
  const closers: AppContext['closers'] = [() => handle.close()];
  const hooks: Hooks = createHooks();
  // The engine port: the embedded host, or in the scale-out mode (ENGINE_TRANSPORT=nats) the stream and a replica.
  const metrics = createMetrics();
  const clock = createServerClock();
  const host = await createEnginePort(config, handle.db, logger, { ...opts, journalObserver: metrics.journalObserver, now: clock.now });
  closers.push(() => host.close());
  // Every command submitted through the context's port is counted and timed; queue and projector lag read at scrape.
  metrics.instrumentSubmit(host);
  metrics.watchHost(host);
  registerDemoFaucet({ config, host, log: logger, hooks });
  // Login asks account security for the second factor; security uses the member service (codes, passwords, sessions).
  const members = createMemberService({ config, db: handle.db, log: logger, hooks, host, security: () => security });
  const security: SecurityService = createSecurityService({ db: handle.db, host, members, box: secretBoxFromConfig(config), log: logger });
  const entrust = createEntrustService({ config, db: handle.db, log: logger, host });
  const contract = createContractService({ db: handle.db, host });
  // Content: the first start writes the demo's banners, notices, help centre and pages, published.
  const content = createContentService({ db: handle.db, now: clock.now });
  await content.seed(path.join(config.dataDir, 'static', 'banners'), clock.now());
  const marketData = await createMarketDataService({ config, db: handle.db, log: logger, host, now: clock.now });
  closers.push(() => marketData.close());
  const contractMarket = await createContractMarketService({ db: handle.db, log: logger, host, marketData, now: clock.now });
  closers.push(() => contractMarket.close());
  const uploads = createUploadsService({ db: handle.db, dataDir: config.dataDir });
  const kyc = createKycService({ db: handle.db, host, uploads });
  // The transaction password is checked by the security service (its verifyTransactionPassword).
  const payments = createPaymentService({ db: handle.db, kyc, uploads, security: () => security });
  const admin = createAdminService({ db: handle.db, host, box: secretBoxFromConfig(config), kyc: () => kyc });
  const chain = createChainService({ config, db: handle.db, host, log: logger });
  // Proof of reserves: user liabilities from the engine, the exchange's on-chain balances from the chain service.
  const reserves = createReservesService({ db: handle.db, host, log: logger, onChainReserves: () => chain.onChainReserves() });
  closers.push(() => chain.close());
  const wallet = createWalletService({ config, db: handle.db, host, members, security: () => security, chain });
  const otc = createOtcService({ config, db: handle.db, host, kyc, uploads, security: () => security, log: logger, now: clock.now });
  closers.push(() => otc.close());
  // The first start configures OTC (deposit, appeal wait, cancel limit) once the coin is listed (market data seeds it).
  await otc.ensureConfigured();
  const inbox = createInboxService({ db: handle.db, host });
  const appVersions = createAppVersionService({ db: handle.db, webDist: config.webDist });
  const activity = createActivityService({ host, now: clock.now });
  const invite = createInviteService({ db: handle.db, host });
  const earn = createEarnService({ db: handle.db, host });
  const convert = createConvertService({ db: handle.db, host, now: clock.now });
  const support = createSupportService({ db: handle.db, host, uploads });
  const apiKeys = createApiKeyService({
    db: handle.db,
    host,
    box: secretBoxFromConfig(config),
    security: () => security,
    log: logger,
    now: clock.now,
    cacheMs: config.apiKeyCacheMs,
  });
  const ctx: AppContext = {
    config,
    db: handle.db,
    log: logger,
    hooks,
    clock,
    host,
    members,
    security,
    entrust,
    contract,
    marketData,
    contractMarket,
    uploads,
    kyc,
    payments,
    admin,
    chain,
    reserves,
    wallet,
    otc,
    appVersions,
    activity,
    invite,
    content,
    earn,
    convert,
    support,
    inbox,
    apiKeys,
    metrics,
    closers,
    async close() {
      for (const c of [...closers].reverse()) await c();
    },
  };
  return ctx;
}
