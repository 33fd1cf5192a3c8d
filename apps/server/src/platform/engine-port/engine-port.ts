/**
 * The engine port (ARCHITECTURE.md section 4): the one interface through which every service reaches the engine.
 * Two implementations with the same behaviour towards services:
 * - in-process (embedded default): the EngineHost of platform/engine-host/engine-host.ts (journal file + group commit);
 * - NATS (scale-out mode, ENGINE_TRANSPORT=nats): createNatsEnginePort (nats-engine-port.ts), commands on a
 *   JetStream stream and a read replica of the engine fed by it.
 * `createEnginePort` picks one from the configuration.
 */
import type { FastifyBaseLogger } from 'fastify';
import { NON_PRODUCTION_ENVS, type Config } from '../config/env';
import type { Db } from '../db/client';
import { createEngineHost, type EngineHost } from '../engine-host/engine-host';
import type { DomainProjection } from '../engine-host/projection';
import type { EngineMachine } from '@exchange/core';
import { drizzleProjectionStore } from '../db/projection-store';
import type { JournalObserver } from '../engine-host/journal';
import { createNatsEnginePort } from './nats-engine-port';
import type { ReadBarrier } from './read-barrier';

/**
 * What services use of the engine: submit a command and await its result, read the state synchronously, listen to
 * events, wait for the database projection, readiness, queue figures for /metrics. Services and the app context take
 * this type, never EngineHost (which adds the embedded host's journal, snapshot and recovery details), so each
 * feature works in both modes. `readBarrier` is the scale-out port's only (read-your-writes across gateways,
 * read-barrier.ts); the embedded host has none and the HTTP layer then adds nothing to a request.
 */
export type EnginePort = Pick<EngineHost, 'engine' | 'submit' | 'onEvents' | 'projected' | 'ready' | 'failure' | 'stats' | 'close'> & {
  readonly readBarrier?: ReadBarrier;
};

/** The embedded host, or in the scale-out mode (config.engineTransport 'nats') the NATS port. */
export async function createEnginePort(
  config: Config,
  db: Db,
  log: FastifyBaseLogger,
  opts: {
    onFatal?: (err: unknown) => void;
    /** Metrics of the embedded journal's batches (no journal file in NATS mode). */
    journalObserver?: JournalObserver;
    /** The clock that stamps each command's `ts` (default Date.now; the context passes its ServerClock's now). */
    now?: () => number;
    /** The domains' projections (main/domains.ts `PROJECTIONS`) the embedded host writes to the database. */
    projections?: readonly DomainProjection[];
    /** The engine machines beyond the core's own (main/domains.ts `MACHINES`): the embedded host's and the replica's. */
    machines?: readonly EngineMachine[];
  } = {},
): Promise<EngineHost & { readonly readBarrier?: ReadBarrier }> {
  const clock = opts.now ? { now: opts.now } : {};
  if (config.engineTransport === 'nats') {
    if (!config.natsUrl) throw new Error('ENGINE_TRANSPORT=nats needs NATS_URL');
    return createNatsEnginePort({
      natsUrl: config.natsUrl,
      prefix: config.natsPrefix,
      replicas: config.natsReplicas,
      productionRules: !NON_PRODUCTION_ENVS.includes(config.nodeEnv),
      log,
      store: drizzleProjectionStore(db),
      ...(opts.machines ? { machines: opts.machines } : {}),
      ...clock,
    });
  }
  return createEngineHost({
    config,
    db,
    log,
    projections: opts.projections ?? [],
    ...(opts.machines ? { machines: opts.machines } : {}),
    ...(opts.onFatal ? { onFatal: opts.onFatal } : {}),
    ...(opts.journalObserver ? { journalObserver: opts.journalObserver } : {}),
    ...clock,
  });
}
