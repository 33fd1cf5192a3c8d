/**
 * `npm run engine`: the engine process of the scale-out mode (engine-process.ts). Env: NATS_URL, DATABASE_URL,
 * NATS_PREFIX, SNAPSHOT_EVERY, ENGINE_HTTP_PORT, HOST, LOG_LEVEL. Stops cleanly on SIGINT/SIGTERM (a last snapshot);
 * a kill at any other instant loses nothing (the stream is the journal).
 */
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../../platform/config/env';
import { createLogger } from '../../platform/shared/log';
import { startEngineProcess } from './engine-process';
import { exitOnSignal } from './shutdown';

async function main(): Promise<void> {
  const config = loadConfig({ ENGINE_TRANSPORT: 'nats', ...process.env });
  const log = createLogger(config.logLevel) as unknown as FastifyBaseLogger;
  const engine = await startEngineProcess(config, log);
  log.info({ port: engine.httpPort, stream: config.natsPrefix }, 'engine process running');
  exitOnSignal(log, 'engine process', () => engine.close());
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
