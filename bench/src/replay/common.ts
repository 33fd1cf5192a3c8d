/** Shared pieces of the journal-replay child processes: config, silent logger, JSON result line. */
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig, type Config } from '../../../apps/server/src/platform/config/env';

/** "Snapshots disabled": a snapshot interval no run reaches. */
export const NO_SNAPSHOTS = 1_000_000_000;

/** Engine-host configuration for `dataDir` with periodic snapshots off. */
export function replayConfig(dataDir: string): Config {
  return loadConfig({ NODE_ENV: 'test', MARKET_MAKERS: '0' }, { dataDir, snapshotEvery: NO_SNAPSHOTS });
}

/** A logger that prints nothing (warnings go to stderr). */
export const silentLog = pino({ level: 'warn' }, pino.destination(2)) as unknown as FastifyBaseLogger;

/** Prefix of the single result line a child prints on stdout. */
export const RESULT_PREFIX = 'BENCH_RESULT ';

/** Print the child's result for the parent to parse. */
export function emitResult(obj: Record<string, number | string>): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(obj)}\n`);
}
