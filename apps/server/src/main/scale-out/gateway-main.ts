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
import { createContext } from '../context';
import { buildApp } from '../app';
import { startJobs } from '../../domains/market-jobs';
import { startChainJobs } from '../../domains/wallet/chain-jobs';
import { startReservesJob } from '../../domains/reserves/reserves.job';
import { startOtcJobs } from '../../domains/otc/otc.jobs';
import { startActivityJobs } from '../../domains/activity/activity.jobs';
import { startInviteJobs } from '../../domains/invite/invite.jobs';
import { startEarnJobs } from '../../domains/earn/earn.jobs';
import { exitOnSignal } from './shutdown';

async function main(): Promise<void> {
  // Off unless asked for, like the market makers: a second gateway with the process jobs would race the first.
  const config = loadConfig({ ENGINE_TRANSPORT: 'nats', MARKET_MAKERS: '0', CHAIN_JOBS: '0', ...process.env });
  const ctx = await createContext(config);
  const app = await buildApp(ctx);
  await app.listen({ port: config.port, host: config.host });
  ctx.log.info({ port: config.port, stream: config.natsPrefix, marketMakers: config.marketMakers, chainJobs: config.chainJobs }, 'gateway listening');
  const jobs = await startJobs(ctx);
  const chainJobs = startChainJobs(ctx);
  const stopReserves = await startReservesJob(ctx);
  const stopOtc = startOtcJobs(ctx);
  const stopActivity = startActivityJobs(ctx);
  const stopInvite = startInviteJobs(ctx);
  const stopEarn = startEarnJobs(ctx);
  exitOnSignal(ctx.log, 'gateway', async () => {
    stopReserves();
    stopOtc();
    stopActivity();
    stopInvite();
    stopEarn();
    await chainJobs.stop();
    await jobs.stop();
    await app.close();
    await ctx.close();
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
