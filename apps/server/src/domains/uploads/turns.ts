/**
 * A fair scheduler for expensive jobs of many users (image checks): at most `jobsAtOnce` run together; further jobs
 * wait, turns going round the waiting users (one job each in turn: a Map keeps insertion order and a served user goes
 * to the back), so one user's burst never holds another's job back by more than the jobs running and one job per
 * other waiting user. A user may have at most `perUser` jobs running or waiting; beyond it the job is refused at once.
 */
import { AppError } from '../../platform/shared/errors';

export interface TurnLimits {
  /** Jobs running at once. */
  jobsAtOnce: number;
  /** Jobs of one user running or waiting at once; beyond it AppError upload_busy (429). */
  perUser: number;
  /** Jobs waiting over all users; beyond it AppError service_unavailable (503). */
  waitingMax: number;
}

/** Runs `userId`'s `job` in turn; resolves or rejects with the job's outcome. Throws upload_busy (429) and service_unavailable (503) as in TurnLimits. */
export type InTurn = <T>(userId: string, job: () => Promise<T>) => Promise<T>;

/** Builds a scheduler with `limits`; its state lives in the closure (one per service). */
export function createTurns(limits: TurnLimits): InTurn {
  let running = 0;
  let waitingTotal = 0;
  /** The waiters of each user, users in turn order (a Map keeps insertion order: served users go to the back). */
  const waiting = new Map<string, Array<() => void>>();
  const inFlight = new Map<string, number>();
  /** Gives a finished job's slot to the first waiting user's first waiter (that user then goes to the back). */
  function handOff(): void {
    const first = waiting.entries().next();
    if (first.done === true) {
      running--;
      return;
    }
    const [user, q] = first.value;
    const next = q.shift()!;
    waiting.delete(user);
    if (q.length > 0) waiting.set(user, q);
    waitingTotal--;
    next();
  }
  return async function inTurn<T>(userId: string, job: () => Promise<T>): Promise<T> {
    const mine = inFlight.get(userId) ?? 0;
    if (mine >= limits.perUser) throw new AppError('upload_busy', 429, 'file');
    if (running >= limits.jobsAtOnce && waitingTotal >= limits.waitingMax) throw new AppError('service_unavailable', 503);
    inFlight.set(userId, mine + 1);
    try {
      // A finished job hands its slot straight to the next waiter, so a newcomer can never slip in between.
      if (running >= limits.jobsAtOnce) {
        await new Promise<void>((resolve) => {
          const q = waiting.get(userId);
          if (q) q.push(resolve);
          else waiting.set(userId, [resolve]);
          waitingTotal++;
        });
      } else running++;
      try {
        return await job();
      } finally {
        handOff();
      }
    } finally {
      const n = (inFlight.get(userId) ?? 1) - 1;
      if (n === 0) inFlight.delete(userId);
      else inFlight.set(userId, n);
    }
  };
}
