/**
 * A periodic job of a server process (the savings settlement, the rebate settlement, the OTC time-outs, the activity
 * payouts ...): every `everyMs` it runs `run` with the process clock's time (the clock that stamps the engine
 * commands' `ts`, so a job judges "due" on the same time the engine does, also after the demo moved the clock). Never
 * two runs at once: a tick that finds the last run still going is skipped. A failed run is logged and the next tick
 * tries again; nothing is thrown. The timer is unref'd: a job never holds a process open.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ServerClock } from './clock';

/** What `startPeriodicJob` needs. */
export interface PeriodicJob<T> {
  /** Period between ticks (ms). */
  everyMs: number;
  /** One run, given the process clock's time (Unix ms). */
  run: (now: number) => Promise<T>;
  /** The log line of a run's result (undefined: nothing worth a line, e.g. nothing was due). */
  report?: (result: T) => { msg: string; fields?: Record<string, unknown> } | undefined;
  /** The error line of a failed run, e.g. 'earn: settle job failed'. */
  failure: string;
  /** Also run once at start (not only after the first period). */
  immediately?: boolean;
  log: FastifyBaseLogger;
  clock: Pick<ServerClock, 'now'>;
}

/** Starts `job`; returns the function that stops it (a run in flight finishes on its own). */
export function startPeriodicJob<T>(job: PeriodicJob<T>): () => void {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    job
      .run(job.clock.now())
      .then((result) => {
        const line = job.report?.(result);
        if (line) job.log.info(line.fields ?? {}, line.msg);
      })
      .catch((err: unknown) => job.log.error({ err }, job.failure))
      .finally(() => {
        running = false;
      });
  };
  const timer = setInterval(tick, job.everyMs);
  timer.unref();
  if (job.immediately) tick();
  return () => clearInterval(timer);
}
