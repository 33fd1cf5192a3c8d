/**
 * A job that runs one pass at a time on a timer (the chain watcher and the withdrawal broadcaster): `tick` runs a
 * pass now or joins the one in progress (passes never overlap), `start` runs one and then one every `pollMs` after
 * the previous ended, `stop` ends the timer and waits for a pass in progress. A failed pass (the node down, the
 * database failing) is logged once per distinct error and retried at the next tick; the first pass that works after a
 * failure is logged too.
 */
import type { FastifyBaseLogger } from 'fastify';

/** The job's controls. */
export interface PollingJob {
  /** One pass now (tests); passes never overlap. */
  tick(): Promise<void>;
  start(): void;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

/** Creates the job (not started). `what` names a pass in the log ("chain watcher tick"); `context` goes with each line. */
export function createPollingJob(o: {
  pass: () => Promise<void>;
  pollMs: number;
  log: FastifyBaseLogger;
  what: string;
  context: Record<string, unknown>;
}): PollingJob {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = true;
  let lastError = '';

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      void job.tick().finally(schedule);
    }, o.pollMs);
  }

  const job: PollingJob = {
    tick() {
      if (running) return running;
      running = o
        .pass()
        .then(() => {
          if (lastError !== '') o.log.info(o.context, `${o.what} works again`);
          lastError = '';
        })
        .catch((err: unknown) => {
          const text = err instanceof Error ? err.message : String(err);
          if (text !== lastError) o.log.warn({ err, ...o.context }, `${o.what} failed; retrying`);
          lastError = text;
        })
        .finally(() => {
          running = null;
        });
      return running;
    },
    start() {
      if (!stopped) return;
      stopped = false;
      void job.tick().finally(schedule);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
  return job;
}
