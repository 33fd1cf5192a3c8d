/**
 * The application context: configuration, database and the services built on them. `createContext` wires
 * them; `buildApp(ctx)` (app.ts) exposes them over HTTP and WebSocket; server.ts adds the jobs.
 * Each service gets only the ports it uses.
 */
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Config } from './config/env';
import { openDb, type Db, type DbHandle } from './db/client';

export interface AppContext {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  /** Closes everything the context opened, in reverse order. */
  close(): Promise<void>;
  /** Things to close, pushed by each service that opens resources. */
  closers: Array<() => Promise<void> | void>;
}

/** Opens the database (with migrations) and builds every service. */
export async function createContext(config: Config, log?: FastifyBaseLogger): Promise<AppContext> {
  const logger = log ?? (pino({ level: config.logLevel }) as unknown as FastifyBaseLogger);
  const handle: DbHandle = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const closers: AppContext['closers'] = [() => handle.close()];
  const ctx: AppContext = {
    config,
    db: handle.db,
    log: logger,
    closers,
    async close() {
      for (const c of [...closers].reverse()) await c();
    },
  };
  return ctx;
}
