/**
 * The process: configuration, the port opened at once (main/boot.ts: /healthz answers and /readyz says the phase while
 * starting), then the modules, the context (database, engine recovery, services) and the app on that port; after it
 * serves, the demo seeds and the jobs; graceful shutdown on SIGINT/SIGTERM.
 *
 * Only node's and this file's light imports run before the port opens: the server's modules (Fastify, PGlite, every
 * domain) are imported in the 'modules' phase, so a supervisor hears the process while they load.
 */
import { loadConfig } from '../platform/config/env';
import { startServer } from './boot';

async function main(): Promise<void> {
  // `--demo` (npm start) asks for demo mode; an explicit DEMO_MODE in the environment still decides.
  let config = loadConfig(process.argv.includes('--demo') ? { DEMO_MODE: '1', ...process.env } : process.env);
  // The heavy modules, loaded once the port answers (startServer's 'modules' phase).
  let m!: {
    context: typeof import('./context');
    app: typeof import('./app');
    domains: typeof import('./domains');
    domainModule: typeof import('../platform/domain-module');
    demoAccount: typeof import('../domains/member/demo-account');
    demoOperator: typeof import('../domains/admin/demo-operator');
    chain: typeof import('../domains/wallet/chain.service');
    log: import('fastify').FastifyBaseLogger;
    /** The database, opening since the start of the modules' phase. */
    db: Promise<import('../platform/db/client').DbHandle>;
  };
  // A failed journal write is fatal (engine-host.ts): answer what is in flight, then exit; on restart the journal
  // decides what happened. The exit code tells a supervisor this was not a clean stop. A dead database worker too.
  const onFatal = () => {
    setTimeout(() => process.exit(70), 200).unref();
  };
  /** Milliseconds from the start of the modules' phase until the database was open and migrated. */
  let databaseMs = 0;
  // The demo's dev chain once started (a holder: it is set inside a step).
  const started: { chain: import('../domains/wallet/chain.service').DemoChain | null } = { chain: null };
  // The embedded demo has its own chain: without CHAIN_RPC_URL, a dev chain (Hardhat node, a child process) on
  // DEV_CHAIN_PORT with the USDT token deployed and the hot wallet funded; it stops with the process. Only where the
  // chain jobs run, in the embedded mode (scale-out points CHAIN_RPC_URL at a node); DEV_CHAIN_PORT=0 or CHAIN_JOBS=0
  // leave it out (a demo without chain: deposit screens say the network is not available).
  const wantsDevChain =
    config.demoMode && config.chainRpcUrl === undefined && config.chainJobs && config.engineTransport === 'embedded' && config.devChainPort > 0;
  /** The dev chain starting (its child process boots and the token is deployed) while the database opens. */
  let devChain: Promise<import('../domains/wallet/chain.service').DemoChain> | undefined;
  /** How long the context still waited for the dev chain (ms): what the chain added to the start. */
  let chainMs = 0;
  const { ctx, app, startup, startMs } = await startServer(config.port, config.host, {
    async loadModules() {
      // The database first (PGlite starts in its worker thread and migrates) while this thread loads the domains.
      const opened = performance.now();
      const [{ openContextDb }, { createLogger }] = await Promise.all([import('./context-db'), import('../platform/shared/log')]);
      const log = createLogger(config.logLevel) as unknown as import('fastify').FastifyBaseLogger;
      const db = openContextDb(config, log, onFatal);
      void db.then(
        () => (databaseMs = performance.now() - opened),
        () => {}, // awaited (and thrown) by createContext
      );
      const chainModule = import('../domains/wallet/chain.service');
      if (wantsDevChain) {
        devChain = chainModule.then((c) => c.startDemoChain(config));
        devChain.catch(() => {}); // awaited (and reported) by createContext
      }
      const [context, appModule, domains, domainModule, demoAccount, demoOperator, chain] = await Promise.all([
        import('./context'),
        import('./app'),
        import('./domains'),
        import('../platform/domain-module'),
        import('../domains/member/demo-account'),
        import('../domains/admin/demo-operator'),
        chainModule,
      ]);
      m = { context, app: appModule, domains, domainModule, demoAccount, demoOperator, chain, log, db };
    },
    async createContext() {
      // The dev chain, started with the modules' phase: the wallet's catalogue needs its address and token.
      const chainStarted = performance.now();
      if (devChain) {
        try {
          started.chain = await devChain;
          config = started.chain.config;
        } catch (err) {
          // The demo still runs without its chain (e.g. DEV_CHAIN_PORT taken): no deposits or withdrawals then.
          console.warn(
            `  Dev chains not started (ports from ${config.devChainPort}): ${err instanceof Error ? err.message : String(err)}; the demo runs without chain deposits and withdrawals.\n`,
          );
        }
      }
      // A demo without a dev chain (none wanted, e.g. CHAIN_JOBS=0, or none started) lists its networks as not available.
      if (!started.chain) config = m.chain.withoutDevChain(config);
      chainMs = performance.now() - chainStarted;
      return m.context.createContext(config, m.log, { onFatal, db: m.db });
    },
    async buildApp(c, serverFactory) {
      const a = await m.app.buildApp(c, { serverFactory });
      await a.ready();
      return a;
    },
  });
  ctx.log.info(
    {
      port: config.port,
      dataDir: config.dataDir,
      db: config.databaseUrl ? 'postgres' : 'pglite',
      demo: config.demoMode,
      // the cold start by phase (ms): the process until the port answered, the modules' loading, the demo's dev chain,
      // the context (see 'context ready': what was left of the database, engine recovery, services) and the app; total
      // is since the spawn. database: opening and migrating it, from the start of the modules' phase (in parallel).
      startMs: {
        ...startMs,
        chain: Math.round(chainMs),
        context: startMs.context - Math.round(chainMs),
        database: Math.round(databaseMs),
        total: Math.round(performance.now()),
      },
    },
    'exchange server listening',
  );
  const DOMAINS = m.domains.DOMAINS;
  const demo = await m.demoAccount.ensureDemoAccount(ctx);
  // The domains' first-start data: in demo mode an OTC merchant with a SELL and a BUY ad (domains/otc/otc.demo.ts)
  // and the savings products an operator would define in the console (domains/earn/earn.demo.ts).
  await m.domainModule.seedDomains(ctx, DOMAINS, ctx.log);
  if (demo) {
    // Printed on purpose: the demo account is how a visitor signs in to the embedded demo.
    console.log(`\n  Exchange demo at http://localhost:${config.port}\n  demo account: ${demo.account}  password: ${demo.password}\n`);
    if (started.chain) {
      const lines = [...started.chain.devChains].map(([code, c]) => `  Dev chain ${code} (Hardhat, chain id ${c.chainId}) at ${c.rpcUrl}`);
      console.log(`${lines.join('\n')}\n  USDT token on each: ${config.chainUsdtContract}\n`);
    }
    // The demo operator's documented credentials (domains/admin/demo-operator.ts): the TOTP key goes into an
    // authenticator app (or any TOTP tool) for the console's login.
    const op = await m.demoOperator.ensureDemoOperator(ctx);
    if (op)
      console.log(
        `  Operator console at http://localhost:${config.port}/admin/\n  demo operator: ${op.email}  password: ${op.password}  TOTP key: ${op.totpSecret}\n`,
      );
    const exposed = config.host !== '127.0.0.1' && config.host !== '::1' && config.host !== 'localhost';
    console.warn(
      exposed
        ? `  WARNING: DEMO MODE on ${config.host}: demo funds for every registration and a code outbox, reachable from the network. Do not run demo mode where real users can reach it.\n`
        : `  DEMO MODE: demo funds and a code outbox; listening on ${config.host} only (HOST=0.0.0.0 exposes it).\n`,
    );
  }
  // Every module's jobs (main/domains.ts): the market jobs, the chain watcher and broadcaster, proof of reserves, the
  // OTC time-outs, the activity, rebate and savings settlements.
  const stopJobs = await m.domainModule.startDomainJobs(ctx, DOMAINS);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    ctx.log.info({ signal }, 'shutting down');
    try {
      await stopJobs();
      await app.close();
      // The app runs on the startup server's socket (serverFactory): Fastify leaves closing it to us.
      await startup.close();
      await ctx.close();
      await started.chain?.stop();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
