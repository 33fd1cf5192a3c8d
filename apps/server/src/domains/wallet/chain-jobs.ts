/**
 * Starts the chain jobs of a context when CHAIN_JOBS is on and a node is configured: the deposit watcher and, when
 * this process holds the signer, the withdrawal broadcaster. In the scale-out mode exactly one gateway runs them.
 * server.ts (through domains/market-jobs/index.ts) calls startChainJobs after listen and stop() on shutdown.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../platform/config/env';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { ChainService } from './chain.service';
import { insertAlert } from './chain.repository';
import { createChainWatcher, type ChainWatcher } from './chain-watcher';
import { createWithdrawalBroadcaster, type WithdrawalBroadcaster } from './withdrawal-broadcaster';

/** What the chain jobs use: the configuration, the database (alerts), the engine port, the log and the chain service. */
export interface ChainJobDeps {
  config: Config;
  db: Db;
  host: EnginePort;
  log: FastifyBaseLogger;
  chain: ChainService;
}

/** The running chain jobs (either may be absent). */
export interface ChainJobs {
  watcher: ChainWatcher | null;
  broadcaster: WithdrawalBroadcaster | null;
  stop(): Promise<void>;
}

/** Builds the watcher and the broadcaster of `ctx` (not started): null where the context cannot run them. */
export function createChainJobs(ctx: ChainJobDeps, opts: { pollMs?: number } = {}): ChainJobs {
  const { chain } = ctx;
  const client = chain.client;
  if (!ctx.config.chainJobs || client === null) return { watcher: null, broadcaster: null, stop: async () => {} };
  const watcher = createChainWatcher({
    db: ctx.db,
    host: ctx.host,
    client,
    log: ctx.log,
    chain: chain.chain,
    coins: () => chain.coins(),
    addresses: chain.addresses,
    confirmations: ctx.config.chainConfirmations,
    startBlock: ctx.config.chainStartBlock,
    ...(opts.pollMs !== undefined ? { pollMs: opts.pollMs } : {}),
  });
  const broadcaster =
    chain.signer === null
      ? null
      : createWithdrawalBroadcaster({
          host: ctx.host,
          client,
          signer: chain.signer,
          log: ctx.log,
          chain: chain.chain,
          coins: () => chain.coins(),
          confirmations: ctx.config.chainConfirmations,
          alert: (kind, message) => insertAlert(ctx.db, { chain: chain.chain, kind, message }, new Date()),
          ...(opts.pollMs !== undefined ? { pollMs: opts.pollMs } : {}),
        });
  return {
    watcher,
    broadcaster,
    async stop() {
      await Promise.all([watcher.stop(), broadcaster?.stop()]);
    },
  };
}

/** Creates and starts the chain jobs of `ctx`; logs what runs. */
export function startChainJobs(ctx: ChainJobDeps): ChainJobs {
  const jobs = createChainJobs(ctx);
  if (jobs.watcher) {
    jobs.watcher.start();
    jobs.broadcaster?.start();
    ctx.log.info({ chain: ctx.chain.chain, confirmations: ctx.config.chainConfirmations, broadcaster: jobs.broadcaster !== null }, 'chain watcher started');
  }
  return jobs;
}
