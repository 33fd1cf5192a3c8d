/**
 * The only place that reads process.env. Defaults: port 8080, PGlite and the journal under ./data, a live market.
 * Demo mode is on only when asked for (`npm start` asks with DEMO_MODE through `server.ts --demo`); demo mode and
 * CAPTCHA_TEST_MODE are refused under production rules (any NODE_ENV but development and test).
 */
import net from 'node:net';
import path from 'node:path';
import { SERVER_ROOT } from './server-root';

export interface Config {
  nodeEnv: string;
  port: number;
  host: string;
  /** Where PGlite, the journal and snapshots live. */
  dataDir: string;
  /** PostgreSQL URL; undefined = embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  /** A migrated PGlite data directory a new embedded database starts as a copy of (PGLITE_TEMPLATE_DIR; the tests set it). */
  pgliteTemplateDir: string | undefined;
  /** Demo mode: demo account printed at start, new users credited with demo funds, /api/demo/outbox on. */
  demoMode: boolean;
  /** Every slide-puzzle answer passes (automated tests only). */
  captchaTestMode: boolean;
  logLevel: string;
  /** Log every HTTP request (access log). */
  logRequests: boolean;
  /** USDT -> CNY valuation rate, a decimal string. */
  usdtCnyRate: string;
  /** Start the reference price feed and the liquidity bots. */
  marketMakers: boolean;
  /**
   * INDEX_SOURCE: where the contracts' index prices come from: 'replay' (default: the replayed historical paths) or
   * 'live' (outside exchanges through CCXT Pro, domains/index-price; docs/index-price.md).
   */
  indexSource: 'replay' | 'live';
  /** INDEX_SOURCES: per-coin sources and limits of the live index as JSON (domains/index-price/index-sources.config.ts); undefined = the defaults. */
  indexSources: string | undefined;
  /** Snapshot the engine every N journaled commands. */
  snapshotEvery: number;
  /**
   * JOURNAL_RETENTION: what happens to the journal segments the oldest kept snapshot covers (engine-host
   * journal-retention.ts): 'keep' (default: every segment stays in DATA_DIR/journal), 'archive' (moved, durably, to
   * `journalArchiveDir`) or 'delete' (removed: a lost database can then no longer be rebuilt with its history).
   */
  journalRetention: JournalRetention;
  /** JOURNAL_ARCHIVE_DIR: where JOURNAL_RETENTION=archive moves segments (default DATA_DIR/journal-archive); read at recovery too. */
  journalArchiveDir: string;
  /**
   * DISK_FREE_ALERT_BYTES: free bytes of the data directory's file system under which an operator's alert should fire
   * (default 5 GiB); exposed as the gauge `exchange_disk_free_alert_bytes` next to `exchange_data_dir_free_bytes`.
   */
  diskFreeAlertBytes: number;
  /** New orders per user per 10 s through the API (Binance's ORDERS limit is 50); 0 = unlimited. */
  orderRatePer10s: number;
  /** Spread the liquidity bots quote, in ticks (BOT_SPREAD_TICKS, default 1 as on Binance BTCUSDT; at least 1). */
  botSpreadTicks: number;
  /** Slide puzzles one IP may request per minute (the captcha service's own budget); 0 = unlimited. */
  captchaPerIpPerMin: number;
  /** WebSocket connections one client IP (`req.ip`) may hold open; beyond it the upgrade is refused (429). 0 = unlimited. */
  wsMaxPerIp: number;
  /** Messages per second one WebSocket may send, sustained; beyond it (and the burst) the socket is closed. 0 = unlimited. */
  wsMessagesPerSec: number;
  /** Messages one WebSocket may send at once (the token bucket's size). */
  wsMessageBurst: number;
  /** Failed auth attempts one WebSocket may make; the last is answered, then the socket is closed. 0 = unlimited. */
  wsAuthFailuresPerSocket: number;
  /** Least ms between two flushes of the WebSocket public pushes (WS_FLUSH_MS, default 20; 0: one per engine batch). */
  wsFlushMs: number;
  /** Built web app to serve at / (absent = API only). */
  webDist: string;
  /** Built operator console (apps/admin) to serve at /admin/ (ADMIN_DIST; absent = not served). */
  adminDist: string;
  /**
   * SMTP_URL: the SMTP server verification codes are mailed through (nodemailer's URL form,
   * `smtp://user:pass@host:587` with STARTTLS when offered, `smtps://...:465` for TLS from the start); unset = no mail
   * (the demo's outbox in demo mode, else sendCode answers service_unavailable for e-mail accounts).
   */
  smtpUrl: string | undefined;
  /** SMTP_FROM: the From address of those mails (`codes@example.com` or `Exchange <codes@example.com>`; default no-reply@exchange.local). */
  smtpFrom: string;
  /**
   * SMS_URL: the HTTP(S) endpoint of the SMS provider's adapter; each code is a POST of JSON (domains/verification
   * code-sender.ts httpSmsCodeSender, docs/operations.md); unset = no SMS (the demo's outbox in demo mode).
   */
  smsUrl: string | undefined;
  /**
   * Which peers' X-Forwarded-For to believe, so that `req.ip` (rate limits, login limits) is the real client:
   * false (the peer is the client), a hop count, or a list of proxy addresses and CIDRs (never any peer).
   */
  trustProxy: false | number | string[];
  /** Requests per IP per minute to every route (the global budget); 0 = unlimited. */
  rateLimitPerMin: number;
  /**
   * Verification codes: least time between two codes to one account (CODE_RESEND_MS, default 60000, at least 1000)
   * and codes one IP may ask for per hour (CODE_IP_PER_HOUR, default 20). Only the journeys' server lowers the first
   * (one loopback address and a few accounts, codes seconds apart); production keeps the defaults.
   */
  codeResendMs: number;
  codeIpPerHour: number;
  /** Tighter requests-per-IP-per-minute budgets of single routes (each counted on its own); 0 = unlimited. */
  routeRateLimits: RouteRateLimits;
  /** Failed session lookups (unknown, expired or forged tokens) per IP per minute before its requests with a token are refused (429) without one; 0 = unlimited. */
  authFailuresPerMin: number;
  /**
   * The Binance-compatible API's limits (gateways/binance/binance.weights.ts, docs/binance-api.md): request
   * weight per IP and per API key per minute (BINANCE_WEIGHT_PER_MIN, default 6000 as Binance spot), new orders per
   * API key per 10 seconds and per day (BINANCE_ORDERS_PER_10S, default 100; BINANCE_ORDERS_PER_DAY, default
   * 200000); 0 = unlimited. Published in exchangeInfo's `rateLimits`.
   */
  binanceWeightPerMin: number;
  binanceOrdersPer10s: number;
  binanceOrdersPerDay: number;
  /**
   * API_KEY_CACHE_MS (default 5000): how long a gateway trusts its in-memory copy of an API key. A delete is seen at
   * once by the gateway that did it; another gateway of the scale-out mode may accept the deleted key this long.
   */
  apiKeyCacheMs: number;
  /** METRICS_TOKEN: bearer token of GET /metrics; unset = /metrics answers loopback clients only (platform/metrics). */
  metricsToken: string | undefined;
  /** ENGINE_TRANSPORT: 'embedded' (default: engine, journal file and projector in this process) or 'nats' (scale-out mode, docs/deploy.md). */
  engineTransport: 'embedded' | 'nats';
  /** NATS_URL: the NATS servers (comma-separated URLs) of the scale-out mode. */
  natsUrl: string | undefined;
  /** NATS_PREFIX: name of the JetStream stream (subject `<prefix>.cmd`, snapshots in `<prefix>-snap`); default EXCH. */
  natsPrefix: string;
  /**
   * The limits of the scale-out journal stream (platform/engine-port/nats-journal.ts streamLimits), applied when the
   * stream is created and updated on every start: NATS_STREAM_KEEP_SNAPSHOTS (default 20; 0 = no message limit) times
   * SNAPSHOT_EVERY messages, NATS_STREAM_MAX_BYTES (default 0 = no byte limit) and NATS_STREAM_MAX_AGE_HOURS (default
   * 0 = no age limit); the oldest messages are discarded first. With any limit set, a lost database can no longer be
   * rebuilt from the stream (it is restored from a backup), as with JOURNAL_RETENTION=delete.
   */
  natsStreamKeepSnapshots: number;
  natsStreamMaxBytes: number;
  natsStreamMaxAgeHours: number;
  /** ENGINE_HTTP_PORT: the engine process's health and state endpoint (scale-out mode; default 8090). */
  engineHttpPort: number;
  /** NATS_REPLICAS: copies JetStream keeps of the stream and the snapshots when it creates them (3 on a 3-node cluster; default 1). */
  natsReplicas: number;
  /**
   * SECRETS_KEY: the AES-256-GCM key of secrets at rest (TOTP secrets), base64 of 32 bytes (platform/shared/secret-box.ts).
   * Unset: the embedded mode creates a key file under DATA_DIR at first start; the scale-out mode has none (2FA
   * binding then answers service_unavailable), since each gateway would make its own.
   */
  secretsKey: string | undefined;
  // ---- wallet (domains/wallet) ----
  /** CHAIN_RPC_URL: JSON-RPC (http/https) of the EVM node; undefined = none (the demo starts a dev chain, domains/wallet chain-jobs). */
  chainRpcUrl: string | undefined;
  /** CHAIN_ID: the EVM chain id the signer signs for (default 31337, the dev chain's). */
  chainId: number;
  /** CHAIN_USDT_CONTRACT: the USDT ERC-20 contract (0x + 40 hex); '' = the dev chain's token (domains/wallet/chains.ts resolves it). */
  chainUsdtContract: string;
  /** CHAIN_CONFIRMATIONS: blocks a deposit or a withdrawal waits before it counts (default 6, at least 1). */
  chainConfirmations: number;
  /** CHAIN_EXPLORER_TX_URL: block explorer link prefix of a transaction (`${url}${txHash}`); '' = no link. */
  chainExplorerTxUrl: string;
  /** CHAIN_EXPLORER_ADDRESS_URL: block explorer link prefix of an address; '' = no link. */
  chainExplorerAddressUrl: string;
  /** CHAIN_START_BLOCK: where the deposit watcher starts when it has no cursor (default 0). */
  chainStartBlock: number;
  /** CHAIN_JOBS: the chain watcher, withdrawal broadcaster, reserves schedule, OTC time-out job and daily rebate settlement run in this process (default on; off by default in a scale-out gateway, turned on in exactly one). */
  chainJobs: boolean;
  /** WALLET_XPUB: the deposit account's extended public key (m/44'/60'/0'); undefined = derived from the signer seed (embedded demo). */
  walletXpub: string | undefined;
  /** SIGNER_SEED_FILE: the hot-wallet signer's seed (32 bytes, base64), created at first start; default DATA_DIR/wallet-seed.key. */
  signerSeedFile: string;
  /** WITHDRAW_AUTO_APPROVE_BELOW_USDT: withdrawals worth less (in USDT, decimal) need no operator (default 0: all reviewed). */
  withdrawAutoApproveBelowUsdt: string;
  /** WITHDRAW_DUAL_APPROVAL_USDT: withdrawals worth this much or more (in USDT, decimal) need two different operators (default 100000). */
  withdrawDualApprovalUsdt: string;
  /** DEV_CHAIN_PORT: the demo's dev chain JSON-RPC port (default PORT + 10). */
  devChainPort: number;
  /**
   * The EVM networks beside Ethereum that carry USDT here (BNB Smart Chain, Arbitrum One, Polygon), each configured by
   * CHAIN_<CODE>_* keys (extraNetworkConfig). CHAIN_NETWORKS (a comma list of BSC, ARBITRUM, MATIC, or "none") chooses
   * them; unset: all three in the embedded demo without CHAIN_RPC_URL (it starts a dev chain for each), elsewhere
   * those with a CHAIN_<CODE>_RPC_URL.
   */
  extraNetworks: NetworkSettings[];
  /** RESERVES_EVERY_HOURS: a proof-of-reserves snapshot every N hours by the process that runs the chain jobs (default 24; 0 = only on demand). */
  reservesEveryHours: number;
  /** OTC_MERCHANT_DEPOSIT: an OTC merchant's security deposit in USDT (decimal, default 1000), set by the first otcConfigure. */
  otcMerchantDeposit: string;
  /** OTC_APPEAL_AFTER_MS: how long after "I have paid" either side may appeal, ms (default 600000 = 10 minutes). */
  otcAppealAfterMs: number;
  /** How long the database keeps its high-volume rows (platform/db/retention.ts; RETENTION_* variables, docs/operations.md). */
  retention: RetentionConfig;
}

/**
 * The database's retention (platform/db/retention.ts runs the rules each domain declares): horizons in whole days,
 * 0 = kept for ever. Every horizon is measured back from the process clock's now; a row is deleted only once the
 * time its rule names (a trade's time, a session's end, ...) lies further back than its horizon.
 */
export interface RetentionConfig {
  /** RETENTION_EVERY_MINUTES: minutes between two runs of the retention job (default 10; 0 = the job does not run). */
  everyMinutes: number;
  /** RETENTION_BATCH_ROWS: rows one DELETE statement removes at most (default 2000, at least 1). */
  batchRows: number;
  /** RETENTION_MAX_BATCHES: DELETE statements one run makes at most per rule (default 50, at least 1); the rest waits for the next run. */
  maxBatchesPerRule: number;
  /** RETENTION_MARKET_TRADES_DAYS: fills between two liquidity bots (no user of ours on either side), the market's public trade history (default 30). */
  marketTradesDays: number;
  /** RETENTION_USER_TRADES_DAYS: fills with a user on one side, that user's trade history (default 0: kept, as Binance keeps myTrades). */
  userTradesDays: number;
  /** RETENTION_UNFILLED_ORDERS_DAYS: canceled or expired orders without any fill, after their last change (default 90, as Binance archives them). */
  unfilledOrdersDays: number;
  /** RETENTION_FILLED_ORDERS_DAYS: closed orders with a fill, after their last change (default 0: kept, the user's order history). */
  filledOrdersDays: number;
  /**
   * RETENTION_KLINES: days kept per k-line period, `1min=30,5min=90` over the defaults (1min 30, 5min 180, 15min 365,
   * 30min 365; 1hour, 1day, 1week: 0 = kept for ever).
   */
  klinesDays: Readonly<Record<string, number>>;
  /** RETENTION_SESSIONS_DAYS: sessions (the users' and the operators') after they expired or were revoked (default 30). */
  sessionsDays: number;
  /** RETENTION_CODES_DAYS: verification codes, slide puzzles, login failures and the demo outbox after they expired (default 7). */
  codesDays: number;
  /** RETENTION_INBOX_DAYS: inbox messages the user has read, after their time (default 90); unread ones stay. */
  inboxReadDays: number;
  /** RETENTION_SECURITY_EVENTS_DAYS: the users' security log (log-ins, password and 2FA changes) (default 365). */
  securityEventsDays: number;
}

/** RETENTION_KLINES's defaults: days per k-line period (0 = kept for ever). */
export const DEFAULT_KLINE_RETENTION_DAYS: Readonly<Record<string, number>> = {
  '1min': 30,
  '5min': 180,
  '15min': 365,
  '30min': 365,
  '1hour': 0,
  '1day': 0,
  '1week': 0,
};

/** JOURNAL_RETENTION's values (Config.journalRetention). */
export type JournalRetention = 'keep' | 'archive' | 'delete';

/**
 * Per-IP budgets (requests per minute) of the routes an attacker would hammer: the puzzle (geetestCode and
 * geetestVerify, each), sendCode, login, register, forgetPassword and order entry (setEntrust and cancelEntrust,
 * each; the per-user order limit is ORDER_RATE_PER_10S).
 */
export interface RouteRateLimits {
  captcha: number;
  sendCode: number;
  login: number;
  register: number;
  forgetPassword: number;
  orderEntry: number;
}

/** The default per-IP route budgets, per minute. */
export const DEFAULT_ROUTE_RATE_LIMITS: Readonly<RouteRateLimits> = { captcha: 30, sendCode: 10, login: 30, register: 10, forgetPassword: 10, orderEntry: 300 };

/** The codes of the EVM networks beside Ethereum (Binance's network codes), in the order the screens list them. */
export const EXTRA_NETWORK_CODES = ['BSC', 'ARBITRUM', 'MATIC'] as const;
/** One of EXTRA_NETWORK_CODES. */
export type ExtraNetworkCode = (typeof EXTRA_NETWORK_CODES)[number];
/**
 * The chain id of each network's dev chain in the demo (Ethereum's is 31337, Hardhat's default). They are not the
 * real networks' ids (56, 42161, 137), so nothing signed for a dev chain can be replayed on a real network.
 */
export const DEV_NETWORK_CHAIN_IDS: Readonly<Record<ExtraNetworkCode, number>> = { BSC: 31338, ARBITRUM: 31339, MATIC: 31340 };

/** One EVM network's deployment settings: Ethereum's from the CHAIN_* keys, the others' from CHAIN_<CODE>_*. */
export interface NetworkSettings {
  /** Binance's network code: ETH, BSC, ARBITRUM, MATIC */
  code: string;
  /** JSON-RPC (http/https) of its node; undefined = none (the demo starts a dev chain) */
  rpcUrl: string | undefined;
  /** the chain id the signer signs for (CHAIN_<CODE>_ID; default the dev chain's, DEV_NETWORK_CHAIN_IDS) */
  chainId: number;
  /** the USDT contract (0x + 40 hex); '' = the dev chain's token */
  usdtContract: string;
  /** blocks a deposit or a withdrawal waits (CHAIN_<CODE>_CONFIRMATIONS; default CHAIN_CONFIRMATIONS) */
  confirmations: number;
  /** where the deposit watcher starts without a cursor (CHAIN_<CODE>_START_BLOCK, default 0) */
  startBlock: number;
  /** explorer link prefixes ('' = no link) */
  explorerTxUrl: string;
  explorerAddressUrl: string;
  /** the demo's dev chain port (DEV_CHAIN_PORT_<CODE>; default DEV_CHAIN_PORT + 1, + 2, + 3 in EXTRA_NETWORK_CODES order) */
  devChainPort: number;
}

/**
 * The networks beside Ethereum (Config.extraNetworks) from CHAIN_NETWORKS and the CHAIN_<CODE>_* keys. Throws naming
 * the variable on an unknown network code, a URL that is not http(s) or a contract that is not an address.
 */
function extraNetworkConfig(env: NodeJS.ProcessEnv, config: Config): NetworkSettings[] {
  const listed = (env.CHAIN_NETWORKS ?? '').trim();
  let codes: ExtraNetworkCode[];
  // the embedded demo starts a dev chain per network (main/server.ts); elsewhere a network needs its node
  const embeddedDemo = config.demoMode && config.engineTransport === 'embedded' && config.chainRpcUrl === undefined;
  if (listed === '') codes = EXTRA_NETWORK_CODES.filter((c) => embeddedDemo || (env[`CHAIN_${c}_RPC_URL`] ?? '') !== '');
  else if (listed.toLowerCase() === 'none') codes = [];
  else {
    const asked = listed
      .split(',')
      .map((c) => c.trim().toUpperCase())
      .filter((c) => c !== '' && c !== 'ETH');
    for (const c of asked) {
      if (!(EXTRA_NETWORK_CODES as readonly string[]).includes(c))
        throw new Error(`CHAIN_NETWORKS: unknown network "${c}" (ETH, ${EXTRA_NETWORK_CODES.join(', ')} or none)`);
    }
    codes = EXTRA_NETWORK_CODES.filter((c) => asked.includes(c));
  }
  return codes.map((code) => {
    const key = (k: string) => `CHAIN_${code}_${k}`;
    const rpcUrl = env[key('RPC_URL')] || undefined;
    if (rpcUrl !== undefined && !/^https?:\/\/\S+$/.test(rpcUrl)) throw new Error(`${key('RPC_URL')} must be an http(s) URL`);
    const usdtContract = (env[key('USDT_CONTRACT')] ?? '').trim();
    if (usdtContract !== '' && !/^0x[0-9a-fA-F]{40}$/.test(usdtContract))
      throw new Error(`${key('USDT_CONTRACT')} must be an address (0x + 40 hex), got "${usdtContract}"`);
    const explorerTxUrl = env[key('EXPLORER_TX_URL')] ?? '';
    const explorerAddressUrl = env[key('EXPLORER_ADDRESS_URL')] ?? '';
    for (const [name, v] of [
      [key('EXPLORER_TX_URL'), explorerTxUrl],
      [key('EXPLORER_ADDRESS_URL'), explorerAddressUrl],
    ] as const) {
      if (v !== '' && !/^https?:\/\/\S+$/.test(v)) throw new Error(`${name} must be an http(s) URL prefix or empty, got "${v}"`);
    }
    return {
      code,
      rpcUrl,
      chainId: atLeastOne(int(env[key('ID')], DEV_NETWORK_CHAIN_IDS[code], key('ID')), key('ID')),
      usdtContract,
      confirmations: atLeastOne(int(env[key('CONFIRMATIONS')], config.chainConfirmations, key('CONFIRMATIONS')), key('CONFIRMATIONS')),
      startBlock: int(env[key('START_BLOCK')], 0, key('START_BLOCK')),
      explorerTxUrl,
      explorerAddressUrl,
      devChainPort: int(
        env[`DEV_CHAIN_PORT_${code}`],
        config.devChainPort > 0 ? config.devChainPort + 1 + EXTRA_NETWORK_CODES.indexOf(code) : 0,
        `DEV_CHAIN_PORT_${code}`,
      ),
    };
  });
}

function bool(v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === '') return dflt;
  return ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
}

/** `n` when it is 1 or more; else an error naming the variable. */
function atLeastOne(n: number, name: string): number {
  if (n < 1) throw new Error(`${name} must be at least 1, got ${n}`);
  return n;
}

function int(v: string | undefined, dflt: number, name: string): number {
  if (v === undefined || v === '') return dflt;
  if (!/^[0-9]+$/.test(v)) throw new Error(`${name} must be a whole number, got "${v}"`);
  return Number.parseInt(v, 10);
}

/**
 * TRUST_PROXY: unset, '', 'false', 'off', 'no' or '0' = trust no proxy; a whole number = that many proxy hops;
 * otherwise a comma-separated list of IPs, CIDRs or proxy-addr's names (loopback, linklocal, uniquelocal). 'true'
 * (any peer) is refused: every client could then choose the IP the rate and login limits key on by sending its own
 * X-Forwarded-For (OWASP ASVS 4.0, V14.5: trust only the proxies in front).
 */
function trustProxy(v: string | undefined): false | number | string[] {
  const s = (v ?? '').trim().toLowerCase();
  if (['', 'false', 'off', 'no', '0'].includes(s)) return false;
  if (['true', 'on', 'yes'].includes(s))
    throw new Error(
      "TRUST_PROXY=true would trust any peer's X-Forwarded-For (every client could choose the IP the rate and login limits key on): give the proxies' addresses (e.g. 10.0.0.5 or 10.0.0.0/8) or their hop count",
    );
  if (/^[0-9]+$/.test(s)) return Number.parseInt(s, 10);
  const list = s.split(',').map((x) => x.trim());
  for (const entry of list) {
    const [addr = '', bits, ...rest] = entry.split('/');
    const family = net.isIP(addr);
    const namedRange = ['loopback', 'linklocal', 'uniquelocal'].includes(entry);
    const bitsOk = bits === undefined || (/^[0-9]{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!namedRange && (family === 0 || !bitsOk || rest.length > 0)) {
      throw new Error(`TRUST_PROXY must be true, a hop count, or a comma-separated list of IPs and CIDRs; "${entry}" is none of them`);
    }
  }
  return list;
}

/** RATE_LIMIT_ROUTES: 'login=20,captcha=60' over the defaults (names of RouteRateLimits; 0 = unlimited). */
function routeRateLimits(v: string | undefined): RouteRateLimits {
  const out: RouteRateLimits = { ...DEFAULT_ROUTE_RATE_LIMITS };
  for (const part of (v ?? '').split(',')) {
    if (part.trim() === '') continue;
    const [name = '', value] = part.split('=').map((x) => x.trim());
    if (!Object.hasOwn(out, name)) throw new Error(`RATE_LIMIT_ROUTES: unknown route budget "${name}" (known: ${Object.keys(out).join(', ')})`);
    out[name as keyof RouteRateLimits] = int(value ?? '-', 0, `RATE_LIMIT_ROUTES ${name}`);
  }
  return out;
}

/** RETENTION_KLINES: 'period=days,...' over DEFAULT_KLINE_RETENTION_DAYS (periods of that list; 0 = kept for ever). */
function klineRetention(v: string | undefined): Record<string, number> {
  const out: Record<string, number> = { ...DEFAULT_KLINE_RETENTION_DAYS };
  for (const part of (v ?? '').split(',')) {
    if (part.trim() === '') continue;
    const [name = '', value] = part.split('=').map((x) => x.trim());
    if (!Object.hasOwn(out, name)) throw new Error(`RETENTION_KLINES: unknown k-line period "${name}" (known: ${Object.keys(out).join(', ')})`);
    out[name] = int(value ?? '-', 0, `RETENTION_KLINES ${name}`);
  }
  return out;
}

/** INDEX_SOURCE: 'replay' (default) or 'live'; anything else stops the start with the variable's name. */
function indexSourceOf(v: string | undefined): 'replay' | 'live' {
  if (v === undefined || v === '' || v === 'replay') return 'replay';
  if (v === 'live') return 'live';
  throw new Error(`INDEX_SOURCE must be replay or live, got '${v.slice(0, 40)}'`);
}

/** The RETENTION_* variables (RetentionConfig). */
function retentionConfig(env: NodeJS.ProcessEnv): RetentionConfig {
  return {
    everyMinutes: int(env.RETENTION_EVERY_MINUTES, 10, 'RETENTION_EVERY_MINUTES'),
    batchRows: atLeastOne(int(env.RETENTION_BATCH_ROWS, 2000, 'RETENTION_BATCH_ROWS'), 'RETENTION_BATCH_ROWS'),
    maxBatchesPerRule: atLeastOne(int(env.RETENTION_MAX_BATCHES, 50, 'RETENTION_MAX_BATCHES'), 'RETENTION_MAX_BATCHES'),
    marketTradesDays: int(env.RETENTION_MARKET_TRADES_DAYS, 30, 'RETENTION_MARKET_TRADES_DAYS'),
    userTradesDays: int(env.RETENTION_USER_TRADES_DAYS, 0, 'RETENTION_USER_TRADES_DAYS'),
    unfilledOrdersDays: int(env.RETENTION_UNFILLED_ORDERS_DAYS, 90, 'RETENTION_UNFILLED_ORDERS_DAYS'),
    filledOrdersDays: int(env.RETENTION_FILLED_ORDERS_DAYS, 0, 'RETENTION_FILLED_ORDERS_DAYS'),
    klinesDays: klineRetention(env.RETENTION_KLINES),
    sessionsDays: int(env.RETENTION_SESSIONS_DAYS, 30, 'RETENTION_SESSIONS_DAYS'),
    codesDays: int(env.RETENTION_CODES_DAYS, 7, 'RETENTION_CODES_DAYS'),
    inboxReadDays: int(env.RETENTION_INBOX_DAYS, 90, 'RETENTION_INBOX_DAYS'),
    securityEventsDays: int(env.RETENTION_SECURITY_EVENTS_DAYS, 365, 'RETENTION_SECURITY_EVENTS_DAYS'),
  };
}

/** ENGINE_TRANSPORT: unset or 'embedded', or 'nats'. */
function engineTransport(v: string | undefined): 'embedded' | 'nats' {
  const s = (v ?? '').trim().toLowerCase();
  if (s === '' || s === 'embedded') return 'embedded';
  if (s === 'nats') return 'nats';
  throw new Error(`ENGINE_TRANSPORT must be embedded or nats, got "${v}"`);
}

/** JOURNAL_RETENTION: unset or 'keep', 'archive' or 'delete'. */
function journalRetention(v: string | undefined): JournalRetention {
  const s = (v ?? '').trim().toLowerCase();
  if (s === '' || s === 'keep') return 'keep';
  if (s === 'archive' || s === 'delete') return s;
  throw new Error(`JOURNAL_RETENTION must be keep, archive or delete, got "${v}"`);
}

/** NODE_ENV values that are not production; any other value (or a misspelling such as "Production") gets production rules. */
export const NON_PRODUCTION_ENVS: readonly string[] = ['development', 'test'];

/**
 * Reads the configuration from `env` (default process.env). Fails closed: demo mode (DEMO_MODE) and the
 * captcha test mode (CAPTCHA_TEST_MODE) are off unless asked for, and refused under production rules, which apply
 * to every NODE_ENV but development and test (unset means development). Demo mode listens on loopback unless HOST
 * says otherwise. Throws on invalid or forbidden settings.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const nodeEnv = env.NODE_ENV ?? 'development';
  const productionRules = !NON_PRODUCTION_ENVS.includes(nodeEnv);
  const captchaTestMode = bool(env.CAPTCHA_TEST_MODE, false);
  if (productionRules && captchaTestMode) {
    throw new Error(`CAPTCHA_TEST_MODE is refused under production rules (NODE_ENV=${nodeEnv} is neither development nor test)`);
  }
  const demoMode = bool(env.DEMO_MODE, false);
  if (productionRules && demoMode) {
    throw new Error(`DEMO_MODE is refused under production rules (NODE_ENV=${nodeEnv} is neither development nor test)`);
  }
  const serverRoot = SERVER_ROOT;
  const config: Config = {
    nodeEnv,
    port: int(env.PORT, 8080, 'PORT'),
    // Demo mode hands out funds and shows codes: loopback only unless the operator says otherwise.
    host: env.HOST || (demoMode ? '127.0.0.1' : '0.0.0.0'),
    // Relative to where `npm start` was typed (npm's INIT_CWD), not the workspace folder npm runs the script in.
    dataDir: path.resolve(env.INIT_CWD ?? process.cwd(), env.DATA_DIR ?? 'data'),
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteTemplateDir: env.PGLITE_TEMPLATE_DIR || undefined,
    demoMode,
    captchaTestMode,
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'warn' : 'info'),
    logRequests: bool(env.LOG_REQUESTS, false),
    usdtCnyRate: env.USDT_CNY_RATE ?? '7.10',
    marketMakers: bool(env.MARKET_MAKERS, true),
    indexSource: indexSourceOf(env.INDEX_SOURCE),
    indexSources: env.INDEX_SOURCES || undefined,
    snapshotEvery: int(env.SNAPSHOT_EVERY, 50_000, 'SNAPSHOT_EVERY'),
    journalRetention: journalRetention(env.JOURNAL_RETENTION),
    journalArchiveDir: '',
    diskFreeAlertBytes: int(env.DISK_FREE_ALERT_BYTES, 5 * 1024 ** 3, 'DISK_FREE_ALERT_BYTES'),
    orderRatePer10s: int(env.ORDER_RATE_PER_10S, 50, 'ORDER_RATE_PER_10S'),
    botSpreadTicks: atLeastOne(int(env.BOT_SPREAD_TICKS, 1, 'BOT_SPREAD_TICKS'), 'BOT_SPREAD_TICKS'),
    captchaPerIpPerMin: int(env.CAPTCHA_PER_IP_PER_MIN, 10, 'CAPTCHA_PER_IP_PER_MIN'),
    wsMaxPerIp: int(env.WS_MAX_PER_IP, 20, 'WS_MAX_PER_IP'),
    wsMessagesPerSec: int(env.WS_MESSAGES_PER_SEC, 20, 'WS_MESSAGES_PER_SEC'),
    wsMessageBurst: int(env.WS_MESSAGE_BURST, 40, 'WS_MESSAGE_BURST'),
    wsAuthFailuresPerSocket: int(env.WS_AUTH_FAILURES_PER_SOCKET, 5, 'WS_AUTH_FAILURES_PER_SOCKET'),
    wsFlushMs: int(env.WS_FLUSH_MS, 20, 'WS_FLUSH_MS'),
    webDist: path.resolve(env.WEB_DIST ?? path.join(serverRoot, '..', 'web', 'dist')),
    adminDist: path.resolve(env.ADMIN_DIST ?? path.join(serverRoot, '..', 'admin', 'dist')),
    smtpUrl: env.SMTP_URL || undefined,
    smtpFrom: env.SMTP_FROM ?? 'no-reply@exchange.local',
    smsUrl: env.SMS_URL || undefined,
    trustProxy: trustProxy(env.TRUST_PROXY),
    rateLimitPerMin: int(env.RATE_LIMIT_PER_MIN, 600, 'RATE_LIMIT_PER_MIN'),
    codeResendMs: Math.max(1000, int(env.CODE_RESEND_MS, 60_000, 'CODE_RESEND_MS')),
    codeIpPerHour: int(env.CODE_IP_PER_HOUR, 20, 'CODE_IP_PER_HOUR'),
    routeRateLimits: routeRateLimits(env.RATE_LIMIT_ROUTES),
    authFailuresPerMin: int(env.AUTH_FAILURES_PER_MIN, 30, 'AUTH_FAILURES_PER_MIN'),
    binanceWeightPerMin: int(env.BINANCE_WEIGHT_PER_MIN, 6000, 'BINANCE_WEIGHT_PER_MIN'),
    binanceOrdersPer10s: int(env.BINANCE_ORDERS_PER_10S, 100, 'BINANCE_ORDERS_PER_10S'),
    binanceOrdersPerDay: int(env.BINANCE_ORDERS_PER_DAY, 200_000, 'BINANCE_ORDERS_PER_DAY'),
    apiKeyCacheMs: int(env.API_KEY_CACHE_MS, 5000, 'API_KEY_CACHE_MS'),
    metricsToken: env.METRICS_TOKEN || undefined,
    engineTransport: engineTransport(env.ENGINE_TRANSPORT),
    natsUrl: env.NATS_URL || undefined,
    natsPrefix: env.NATS_PREFIX || 'EXCH',
    natsStreamKeepSnapshots: int(env.NATS_STREAM_KEEP_SNAPSHOTS, 20, 'NATS_STREAM_KEEP_SNAPSHOTS'),
    natsStreamMaxBytes: int(env.NATS_STREAM_MAX_BYTES, 0, 'NATS_STREAM_MAX_BYTES'),
    natsStreamMaxAgeHours: int(env.NATS_STREAM_MAX_AGE_HOURS, 0, 'NATS_STREAM_MAX_AGE_HOURS'),
    engineHttpPort: int(env.ENGINE_HTTP_PORT, 8090, 'ENGINE_HTTP_PORT'),
    natsReplicas: atLeastOne(int(env.NATS_REPLICAS, 1, 'NATS_REPLICAS'), 'NATS_REPLICAS'),
    secretsKey: env.SECRETS_KEY || undefined,
    chainRpcUrl: env.CHAIN_RPC_URL || undefined,
    chainId: atLeastOne(int(env.CHAIN_ID, 31337, 'CHAIN_ID'), 'CHAIN_ID'),
    chainUsdtContract: (env.CHAIN_USDT_CONTRACT ?? '').trim(),
    chainConfirmations: atLeastOne(int(env.CHAIN_CONFIRMATIONS, 6, 'CHAIN_CONFIRMATIONS'), 'CHAIN_CONFIRMATIONS'),
    chainExplorerTxUrl: env.CHAIN_EXPLORER_TX_URL ?? '',
    chainExplorerAddressUrl: env.CHAIN_EXPLORER_ADDRESS_URL ?? '',
    chainStartBlock: int(env.CHAIN_START_BLOCK, 0, 'CHAIN_START_BLOCK'),
    chainJobs: bool(env.CHAIN_JOBS, true),
    walletXpub: env.WALLET_XPUB || undefined,
    signerSeedFile: '',
    withdrawAutoApproveBelowUsdt: (env.WITHDRAW_AUTO_APPROVE_BELOW_USDT ?? '').trim() || '0',
    withdrawDualApprovalUsdt: (env.WITHDRAW_DUAL_APPROVAL_USDT ?? '').trim() || '100000',
    devChainPort: 0,
    extraNetworks: [],
    reservesEveryHours: int(env.RESERVES_EVERY_HOURS, 24, 'RESERVES_EVERY_HOURS'),
    otcMerchantDeposit: (env.OTC_MERCHANT_DEPOSIT ?? '').trim() || '1000',
    otcAppealAfterMs: int(env.OTC_APPEAL_AFTER_MS, 600_000, 'OTC_APPEAL_AFTER_MS'),
    retention: retentionConfig(env),
    ...overrides,
  };
  if (!/^[0-9]+(\.[0-9]+)?$/.test(config.usdtCnyRate)) throw new Error('USDT_CNY_RATE must be a decimal');
  if (!/^[0-9]+(\.[0-9]{1,8})?$/.test(config.otcMerchantDeposit)) throw new Error('OTC_MERCHANT_DEPOSIT must be a decimal of at most 8 decimals');
  walletConfig(config, env, overrides);
  if (overrides.extraNetworks === undefined) config.extraNetworks = extraNetworkConfig(env, config);
  if (overrides.journalArchiveDir === undefined) {
    config.journalArchiveDir = env.JOURNAL_ARCHIVE_DIR
      ? path.resolve(env.INIT_CWD ?? process.cwd(), env.JOURNAL_ARCHIVE_DIR)
      : path.join(config.dataDir, 'journal-archive');
  }
  if (config.wsMessagesPerSec > 0 && config.wsMessageBurst < 1) throw new Error('WS_MESSAGE_BURST must be at least 1');
  if (config.engineTransport === 'nats' && (!config.natsUrl || !config.databaseUrl))
    throw new Error('ENGINE_TRANSPORT=nats needs NATS_URL and DATABASE_URL (docs/deploy.md)');
  mailConfig(config);
  if (config.secretsKey !== undefined && Buffer.from(config.secretsKey, 'base64').length !== 32) throw new Error('SECRETS_KEY must be base64 of 32 bytes');
  return config;
}

/**
 * Code delivery keys: SMTP_URL an smtp:// or smtps:// URL, SMS_URL an http(s) URL, SMTP_FROM one address (bare or as
 * `Name <address>`). Throws naming the variable; the URLs are not repeated in the error, since they may carry a
 * password or an API key.
 */
function mailConfig(config: Config): void {
  if (config.smtpUrl !== undefined && !/^smtps?:\/\/[^\s/]+/.test(config.smtpUrl))
    throw new Error('SMTP_URL must be an smtp:// or smtps:// URL with a host (smtp://user:pass@mail.example.com:587)');
  if (config.smsUrl !== undefined && !/^https?:\/\/[^\s/]+\S*$/.test(config.smsUrl))
    throw new Error('SMS_URL must be an http(s) URL with a host (https://sms-gateway.example.com/send)');
  if (!/^(?:[^\s@<>]+@[^\s@<>]+|[^<>]*<[^\s@<>]+@[^\s@<>]+>)$/.test(config.smtpFrom))
    throw new Error(`SMTP_FROM must be an e-mail address (codes@example.com or "Exchange <codes@example.com>"), got "${config.smtpFrom}"`);
}

/**
 * Wallet keys: the defaults that depend on other keys (SIGNER_SEED_FILE under DATA_DIR, DEV_CHAIN_PORT =
 * PORT + 10) and the checks: CHAIN_RPC_URL http(s), CHAIN_USDT_CONTRACT 0x + 40 hex or '', WALLET_XPUB an xpub,
 * the two withdrawal thresholds decimals (USDT), explorer prefixes http(s) or ''. Throws naming the variable.
 */
function walletConfig(config: Config, env: NodeJS.ProcessEnv, overrides: Partial<Config>): void {
  if (overrides.signerSeedFile === undefined) {
    config.signerSeedFile = env.SIGNER_SEED_FILE
      ? path.resolve(env.INIT_CWD ?? process.cwd(), env.SIGNER_SEED_FILE)
      : path.join(config.dataDir, 'wallet-seed.key');
  }
  if (overrides.devChainPort === undefined) config.devChainPort = int(env.DEV_CHAIN_PORT, config.port + 10, 'DEV_CHAIN_PORT');
  if (config.chainRpcUrl !== undefined && !/^https?:\/\/\S+$/.test(config.chainRpcUrl))
    throw new Error(`CHAIN_RPC_URL must be an http(s) URL, got "${config.chainRpcUrl}"`);
  if (config.chainUsdtContract !== '' && !/^0x[0-9a-fA-F]{40}$/.test(config.chainUsdtContract)) {
    throw new Error(`CHAIN_USDT_CONTRACT must be an address (0x + 40 hex), got "${config.chainUsdtContract}"`);
  }
  if (config.walletXpub !== undefined && !/^xpub[1-9A-HJ-NP-Za-km-z]{100,112}$/.test(config.walletXpub))
    throw new Error('WALLET_XPUB must be an extended public key (xpub...)');
  for (const [name, v] of [
    ['WITHDRAW_AUTO_APPROVE_BELOW_USDT', config.withdrawAutoApproveBelowUsdt],
    ['WITHDRAW_DUAL_APPROVAL_USDT', config.withdrawDualApprovalUsdt],
  ] as const) {
    if (!/^[0-9]{1,15}(\.[0-9]{1,8})?$/.test(v)) throw new Error(`${name} must be a decimal amount of USDT, got "${v}"`);
  }
  for (const [name, v] of [
    ['CHAIN_EXPLORER_TX_URL', config.chainExplorerTxUrl],
    ['CHAIN_EXPLORER_ADDRESS_URL', config.chainExplorerAddressUrl],
  ] as const) {
    if (v !== '' && !/^https?:\/\/\S+$/.test(v)) throw new Error(`${name} must be an http(s) URL prefix or empty, got "${v}"`);
  }
}
