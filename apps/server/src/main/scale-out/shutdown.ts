/**
 * Graceful stop of a scale-out process: on the first SIGINT or SIGTERM, `stop()` runs once, then the process exits
 * 0 (also when stop throws: a kill at any instant loses nothing, the stream is the journal).
 */
export function exitOnSignal(log: { info(obj: object, msg: string): void }, what: string, stop: () => Promise<void>): void {
  let closing = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (closing) return;
    closing = true;
    log.info({ signal }, `${what} stopping`);
    try {
      await stop();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
