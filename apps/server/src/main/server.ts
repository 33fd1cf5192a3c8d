/**
 * The process: configuration, context, app, listen, jobs, graceful shutdown on SIGINT/SIGTERM.
 */
import { loadConfig } from '../platform/config/env';
import { createContext } from './context';
import { buildApp } from './app';
import { DOMAINS } from './domains';
import { seedDomains, startDomainJobs } from '../platform/domain-module';
import { ensureDemoAccount } from '../domains/member/demo-account';
import { ensureDemoOperator } from '../domains/admin/demo-operator';
import { startDemoChain, type DemoChain } from '../domains/wallet/chain.service';

async function main(): Promise<void> {
  // `--demo` (npm start) asks for demo mode; an explicit DEMO_MODE in the environment still decides.
  let config = loadConfig(process.argv.includes('--demo') ? { DEMO_MODE: '1', ...process.env } : process.env);
  // The embedded demo has its own chain: without CHAIN_RPC_URL, a dev chain (Hardhat node, a child process) on
  // DEV_CHAIN_PORT with the USDT token deployed and the hot wallet funded; it stops with the process. Only where the
  // chain jobs run, in the embedded mode (scale-out points CHAIN_RPC_URL at a node); DEV_CHAIN_PORT=0 or CHAIN_JOBS=0
  // leave it out (a demo without chain: deposit screens say the network is not available).
  const started = performance.now();
  let demoChain: DemoChain | null = null;
  if (config.demoMode && config.chainRpcUrl === undefined && config.chainJobs && config.engineTransport === 'embedded' && config.devChainPort > 0) {
    try {
      demoChain = await startDemoChain(config);
      config = demoChain.config;
    } catch (err) {
      // The demo still runs without its chain (e.g. DEV_CHAIN_PORT taken): no deposits or withdrawals then.
      console.warn(
        `  Dev chain not started on port ${config.devChainPort}: ${err instanceof Error ? err.message : String(err)}; the demo runs without chain deposits and withdrawals.\n`,
      );
    }
  }
  // A failed journal write is fatal (engine-host.ts): answer what is in flight, then exit; on restart the journal
  // decides what happened. The exit code tells a supervisor this was not a clean stop.
  const chainMs = performance.now() - started;
  const ctx = await createContext(config, undefined, {
    onFatal: () => {
      setTimeout(() => process.exit(70), 200).unref();
    },
  });
  const contextMs = performance.now() - started - chainMs;
  const app = await buildApp(ctx);
  await app.listen({ port: config.port, host: config.host });
  ctx.log.info(
    {
      port: config.port,
      dataDir: config.dataDir,
      db: config.databaseUrl ? 'postgres' : 'pglite',
      demo: config.demoMode,
      // the cold start by phase: the demo's dev chain, the context (see 'context ready'), the app and listen
      startMs: { chain: Math.round(chainMs), context: Math.round(contextMs), app: Math.round(performance.now() - started - chainMs - contextMs) },
    },
    'exchange server listening',
  );
  const demo = await ensureDemoAccount(ctx);
  // The domains' first-start data: in demo mode an OTC merchant with a SELL and a BUY ad (domains/otc/otc.demo.ts)
  // and the savings products an operator would define in the console (domains/earn/earn.demo.ts).
  await seedDomains(ctx, DOMAINS, ctx.log);
  if (demo) {
    // Printed on purpose: the demo account is how a visitor signs in to the embedded demo.
    console.log(`\n  Exchange demo at http://localhost:${config.port}\n  demo account: ${demo.account}  password: ${demo.password}\n`);
    if (demoChain) console.log(`  Dev chain (Hardhat, chain id ${config.chainId}) at ${config.chainRpcUrl}  USDT token: ${config.chainUsdtContract}\n`);
    // The demo operator's documented credentials (domains/admin/demo-operator.ts): the TOTP key goes into an
    // authenticator app (or any TOTP tool) for the console's login.
    const op = await ensureDemoOperator(ctx);
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
  const stopJobs = await startDomainJobs(ctx, DOMAINS);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    ctx.log.info({ signal }, 'shutting down');
    try {
      await stopJobs();
      await app.close();
      await ctx.close();
      await demoChain?.stop();
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
