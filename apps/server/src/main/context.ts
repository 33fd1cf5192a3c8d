/**
 * The application context: the platform (configuration, database, log, hooks, engine port, clock, metrics) and the
 * services every domain module builds on it (`create` in each `domains/<domain>/<domain>.module.ts`, in the order of
 * main/domains.ts). `createContext` builds it; `buildApp(ctx)` (app.ts) exposes it over HTTP and WebSocket; server.ts
 * adds the jobs. Its type, `AppContext` (platform/domain-module.ts), is the platform's and every module's services: a
 * new domain declares its services in its own module file, not here.
 */
import type { FastifyBaseLogger } from 'fastify';
import { createLogger } from '../platform/shared/log';
import { createHooks } from '../platform/shared/hooks';
import type { Config } from '../platform/config/env';
import type { DbHandle } from '../platform/db/client';
import { createEnginePort } from '../platform/engine-port/engine-port';
import { createMetrics } from '../platform/metrics/metrics';
import { createServerClock } from '../platform/shared/clock';
import { createDomainServices, type AppContext } from '../platform/domain-module';
import type { PlatformContext } from '../platform/platform-context';
import { DOMAINS, MACHINES, PROJECTIONS, PUSHES } from './domains';
import { openContextDb } from './context-db';

export type { AppContext };

/** Opens the database (with migrations), recovers the engine and builds every service. */
export async function createContext(
  config: Config,
  log?: FastifyBaseLogger,
  opts: {
    /** Called when the engine host stops on a fatal journal error (server.ts exits the process). */
    onFatal?: (err: unknown) => void;
    /** The database being opened already (openContextDb with the same config, logger and onFatal); default: opened here. */
    db?: Promise<DbHandle>;
  } = {},
): Promise<AppContext> {
  const logger = log ?? (createLogger(config.logLevel) as unknown as FastifyBaseLogger);
  const started = performance.now();
  // The database may have been opened already (server.ts begins it while the modules load): its time here is then
  // only what was left of it.
  const handle: DbHandle = await (opts.db ?? openContextDb(config, logger, opts.onFatal));
  const dbMs = performance.now() - started;
  const closers: PlatformContext['closers'] = [() => handle.close()];
  // The engine port: the embedded host, or in the scale-out mode (ENGINE_TRANSPORT=nats) the stream and a replica.
  const metrics = createMetrics();
  const clock = createServerClock();
  const host = await createEnginePort(config, handle.db, logger, {
    ...(opts.onFatal ? { onFatal: opts.onFatal } : {}),
    journalObserver: metrics.journalObserver,
    now: clock.now,
    projections: PROJECTIONS,
    machines: MACHINES,
  });
  closers.push(() => host.close());
  const hostMs = performance.now() - started - dbMs;
  // Every command submitted through the context's port is counted and timed; queue and projector lag read at scrape.
  metrics.instrumentSubmit(host);
  metrics.watchHost(host);
  if (handle.memory) metrics.watchDbMemory(handle.memory, handle.kind === 'pglite');
  const platform: PlatformContext = {
    config,
    db: handle.db,
    log: logger,
    hooks: createHooks(),
    clock,
    host,
    metrics,
    pushes: PUSHES,
    closers,
    async close() {
      for (const c of [...closers].reverse()) await c();
    },
  };
  const timings = new Map<string, number>();
  const ctx = await createDomainServices<AppContext>(platform, DOMAINS, timings);
  // Where a start's time goes (a slow cold start is found here): the database (open, migrations), the engine
  // (recovery: snapshot and journal replay, or the stream), the domains' services (the five slowest named).
  const ms = (x: number) => Math.round(x);
  const slowest = Object.fromEntries([...timings].sort((a, b) => b[1] - a[1]).slice(0, 5));
  logger.info(
    { databaseMs: ms(dbMs), engineMs: ms(hostMs), servicesMs: ms(performance.now() - started - dbMs - hostMs), slowestServicesMs: slowest },
    'context ready',
  );
  return ctx;
}
