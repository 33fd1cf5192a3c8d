/**
 * The process: configuration, context, app, listen, jobs, graceful shutdown on SIGINT/SIGTERM.
 */
import { loadConfig } from './config/env';
import { createContext } from './context';
import { buildApp } from './app';
import { ensureDemoAccount } from './modules/member/demo-account';
import { startJobs } from './jobs';

async function main(): Promise<void> {
  const config = loadConfig();
  // A failed journal write is fatal (engine-host.ts): answer what is in flight, then exit; on restart the journal
  // decides what happened. The exit code tells a supervisor this was not a clean stop.
  const ctx = await createContext(config, undefined, {
    onFatal: () => {
      setTimeout(() => process.exit(70), 200).unref();
    },
  });
  const app = await buildApp(ctx);
  await app.listen({ port: config.port, host: config.host });
  ctx.log.info({ port: config.port, dataDir: config.dataDir, db: config.databaseUrl ? 'postgres' : 'pglite', demo: config.demoMode }, 'exchange server listening');
  const demo = await ensureDemoAccount(ctx);
  if (demo) {
    // Printed on purpose: the demo account is how a visitor signs in to the embedded demo.
    console.log(`\n  Exchange demo at http://localhost:${config.port}\n  demo account: ${demo.account}  password: ${demo.password}\n`);
  }
  const jobs = await startJobs(ctx);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    ctx.log.info({ signal }, 'shutting down');
    try {
      await jobs.stop();
      await app.close();
      await ctx.close();
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
