/**
 * What the platform gives every domain of a server process, before any domain service exists: configuration, the
 * database, the log, the hooks services listen on, the engine port, the process clock and metrics, and the list of
 * things to close. main/context.ts builds it; each domain module's `create` (platform/domain-module.ts) adds its
 * services to it, in the modules' order (main/domains.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/env';
import type { Db } from './db/client';
import type { EnginePort } from './engine-port/engine-port';
import type { ProcessMetrics } from './metrics/metrics';
import type { ServerClock } from './shared/clock';
import type { Hooks } from './shared/hooks';
import type { DomainPushes } from './shared/private-push';

/** The platform part of a server process's context (see the file comment). */
export interface PlatformContext {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  hooks: Hooks;
  /** The engine behind its journal: submit commands, read state, listen to events. */
  host: EnginePort;
  /** This process's clock: stamps the engine commands' `ts`; moved forward only by the test-only demo/clock/advance. */
  clock: ServerClock;
  /** Every domain's private WebSocket pushes (main/domains.ts `PUSHES`); absent = none. */
  pushes?: readonly DomainPushes[];
  /** This process's metrics (GET /metrics); absent in contexts built without them. */
  metrics?: ProcessMetrics;
  /** Things to close, pushed by each service that opens resources; closed in reverse order. */
  closers: Array<() => Promise<void> | void>;
  /** Closes everything the context opened, in reverse order. */
  close(): Promise<void>;
}
