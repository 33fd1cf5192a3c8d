/**
 * `npm run gateway`: one stateless gateway of the scale-out mode (any number behind a load balancer,
 * docs/deploy.md): the same Fastify app as the embedded server (HTTP under /api, WebSocket at /ws/websocket) over
 * the NATS engine port (platform/engine-port/nats-engine-port.ts). Env: NATS_URL, DATABASE_URL, NATS_PREFIX, PORT, HOST and
 * the server's other settings. The jobs (index price feed, liquidity bots) run only where MARKET_MAKERS is on:
 * turn it on in exactly one gateway, or every gateway quotes its own ladder. The process jobs of server.ts (the
 * chain watcher and withdrawal broadcaster, the proof-of-reserves schedule, the OTC time-out job) run where
 * CHAIN_JOBS is on, off by default in a gateway: turn it on in exactly one (docs/deploy.md).
 */
import { loadConfig } from '../../platform/config/env';
import { withoutDevChain } from '../../domains/wallet/chains';
import { createContext } from '../context';
import { buildApp } from '../app';
import { DOMAINS } from '../domains';
import { startDomainJobs } from '../../platform/domain-module';
import { exitOnSignal } from './shutdown';

async function main(): Promise<void> {
  // Off unless asked for, like the market makers: a second gateway with the process jobs would race the first.
  // A gateway never starts the demo's dev chain: without CHAIN_RPC_URL its networks are listed as not available.
  const config = withoutDevChain(loadConfig({ ENGINE_TRANSPORT: 'nats', MARKET_MAKERS: '0', CHAIN_JOBS: '0', ...process.env }));
  const ctx = await createContext(config);
  const app = await buildApp(ctx);
  await app.listen({ port: config.port, host: config.host });
  ctx.log.info({ port: config.port, stream: config.natsPrefix, marketMakers: config.marketMakers, chainJobs: config.chainJobs }, 'gateway listening');
  // Every module's jobs (main/domains.ts); each runs here only where the config says so (MARKET_MAKERS, CHAIN_JOBS).
  const stopJobs = await startDomainJobs(ctx, DOMAINS);
  exitOnSignal(ctx.log, 'gateway', async () => {
    await stopJobs();
    await app.close();
    await ctx.close();
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
