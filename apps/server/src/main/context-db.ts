/**
 * The context's database, opened on its own so a start can begin it early: server.ts opens it (PGlite starts in its
 * worker thread, migrations run) while the main thread is still loading the domains' modules, and hands the handle's
 * promise to createContext (context.ts). Only light modules are imported here (the database client and the config
 * type), so importing this file does not load the domains.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../platform/config/env';
import { openDb, type DbHandle } from '../platform/db/client';

/**
 * The URL of the module that exports every table (main/schema.ts), for `openDb`'s `schemaModule`: from the sources it
 * is schema.ts; in the built server (dist/bin/server.js) the build writes it beside the bundle as schema.js.
 */
export const SCHEMA_MODULE = new URL(import.meta.url.endsWith('.ts') ? './schema.ts' : './schema.js', import.meta.url).href;

/**
 * Opens the database of `config` (PostgreSQL at DATABASE_URL, else PGlite in DATA_DIR) and applies its migrations.
 * A lost pooled connection is logged; a dead database worker is logged as fatal and told to `onFatal` (the journal
 * rebuilds whatever the database lost on restart). Rejects as openDb does (e.g. PostgreSQL not reachable in time).
 */
export function openContextDb(config: Config, logger: FastifyBaseLogger, onFatal?: (err: unknown) => void): Promise<DbHandle> {
  return openDb({
    schemaModule: SCHEMA_MODULE,
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    pgliteTemplateDir: config.pgliteTemplateDir,
    onPoolError: (err) => logger.warn({ err }, 'database connection lost'),
    // The database worker died (e.g. PGlite out of memory): fatal like a failed journal write.
    onWorkerDeath: (err) => {
      logger.fatal({ err }, 'the database worker died');
      onFatal?.(err);
    },
  });
}
