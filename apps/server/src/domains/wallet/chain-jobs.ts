/**
 * Starts the chain jobs of a context when CHAIN_JOBS is on: per network with a node, its deposit watcher and, when
 * this process holds the signer, its withdrawal broadcaster. In the scale-out mode exactly one gateway runs them.
 * server.ts (through domains/market-jobs/index.ts) calls startChainJobs after listen and stop() on shutdown.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../platform/config/env';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { ChainClient } from '@exchange/chain';
import type { ChainNetwork, ChainService } from './chain.service';
import { insertAlert } from './chain.repository';
import { EVM_CHAIN } from './chains';
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

/** One network's jobs. */
export interface NetworkJobs {
  watcher: ChainWatcher;
  broadcaster: WithdrawalBroadcaster | null;
}

/** The running chain jobs (none where the context cannot run them). */
export interface ChainJobs {
  /** Ethereum's watcher (null where it does not run) */
  watcher: ChainWatcher | null;
  /** Ethereum's broadcaster */
  broadcaster: WithdrawalBroadcaster | null;
  /** every network's jobs by network code */
  byNetwork: ReadonlyMap<string, NetworkJobs>;
  stop(): Promise<void>;
}

/** One network's watcher and broadcaster (not started). */
function networkJobs(ctx: ChainJobDeps, n: ChainNetwork, client: ChainClient, opts: { pollMs?: number }): NetworkJobs {
  const watcher = createChainWatcher({
    db: ctx.db,
    host: ctx.host,
    client,
    log: ctx.log,
    chain: n.code,
    coins: () => n.coins(),
    addresses: ctx.chain.addresses,
    confirmations: n.confirmations,
    startBlock: n.startBlock,
    ...(opts.pollMs !== undefined ? { pollMs: opts.pollMs } : {}),
  });
  const broadcaster =
    n.signer === null
      ? null
      : createWithdrawalBroadcaster({
          host: ctx.host,
          client,
          signer: n.signer,
          log: ctx.log,
          chain: n.code,
          coins: () => n.coins(),
          confirmations: n.confirmations,
          alert: (kind, message) => insertAlert(ctx.db, { chain: n.code, kind, message }, new Date()),
          ...(opts.pollMs !== undefined ? { pollMs: opts.pollMs } : {}),
        });
  return { watcher, broadcaster };
}

/** Builds the watchers and broadcasters of `ctx` (not started): none where the context cannot run them. */
export function createChainJobs(ctx: ChainJobDeps, opts: { pollMs?: number } = {}): ChainJobs {
  const byNetwork = new Map<string, NetworkJobs>();
  if (ctx.config.chainJobs) {
    for (const n of ctx.chain.networks) {
      if (n.client !== null) byNetwork.set(n.code, networkJobs(ctx, n, n.client, opts));
    }
  }
  const eth = byNetwork.get(EVM_CHAIN);
  return {
    watcher: eth?.watcher ?? null,
    broadcaster: eth?.broadcaster ?? null,
    byNetwork,
    async stop() {
      await Promise.all([...byNetwork.values()].flatMap((j) => [j.watcher.stop(), j.broadcaster?.stop()]));
    },
  };
}

/** Creates and starts the chain jobs of `ctx`; logs what runs. */
export function startChainJobs(ctx: ChainJobDeps): ChainJobs {
  const jobs = createChainJobs(ctx);
  for (const [code, j] of jobs.byNetwork) {
    j.watcher.start();
    j.broadcaster?.start();
    ctx.log.info({ chain: code, confirmations: ctx.chain.network(code)?.confirmations, broadcaster: j.broadcaster !== null }, 'chain watcher started');
  }
  return jobs;
}
