/**
 * The upload scheduler with jobs the test releases by hand (no timing): at most `jobsAtOnce` run, a user's
 * `perUser`-th job is refused upload_busy (429), `waitingMax` waiters over all users then service_unavailable (503),
 * turns go round the waiting users, and a failed job frees its slot like a finished one.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/shared/errors';
import { createTurns } from './turns';

/** A job that runs until the test releases it; `started` says whether the scheduler has started it. */
function gate(name: string, log: string[]) {
  let release!: () => void;
  let fail!: (e: Error) => void;
  const done = new Promise<string>((res, rej) => {
    release = () => res(name);
    fail = rej;
  });
  const g = {
    started: false,
    release,
    fail,
    job: () => {
      g.started = true;
      log.push(name);
      return done;
    },
  };
  return g;
}

const tick = () => new Promise((r) => setImmediate(r));

/** 'ok', an AppError's [code, status], or another error's message. */
async function codeOf(p: Promise<unknown>): Promise<[string, number] | string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return e instanceof AppError ? [e.code, e.status] : (e as Error).message;
  }
}

describe('upload turns', () => {
  it('runs 2 at once, lets one user have 3 in flight and refuses the 4th to 6th upload_busy; a finished job starts the next', async () => {
    const inTurn = createTurns({ jobsAtOnce: 2, perUser: 3, waitingMax: 64 });
    const log: string[] = [];
    const gates = Array.from({ length: 6 }, (_, i) => gate(`bob${i}`, log));
    const answers = gates.map((g) => codeOf(inTurn('bob', g.job)));
    await tick();
    expect(gates.map((g) => g.started)).toEqual([true, true, false, false, false, false]);
    expect(await Promise.all(answers.slice(3))).toEqual([
      ['upload_busy', 429],
      ['upload_busy', 429],
      ['upload_busy', 429],
    ]);
    gates[0]!.release();
    await tick();
    expect(gates[2]!.started).toBe(true);
    // a slot is free again for bob once one of his three has ended
    const later = gate('bob6', log);
    const laterAnswer = codeOf(inTurn('bob', later.job));
    await tick();
    expect(later.started).toBe(false);
    gates[1]!.release();
    gates[2]!.fail(new Error('damaged'));
    await tick();
    expect(later.started).toBe(true);
    later.release();
    expect(await Promise.all([...answers.slice(0, 3), laterAnswer])).toEqual(['ok', 'ok', 'damaged', 'ok']);
    expect(log).toEqual(['bob0', 'bob1', 'bob2', 'bob6']);
  });

  it("turns go round the users: a user arriving after another's flood waits for at most the running jobs", async () => {
    const inTurn = createTurns({ jobsAtOnce: 2, perUser: 3, waitingMax: 64 });
    const log: string[] = [];
    const alice = Array.from({ length: 3 }, (_, i) => gate(`alice${i}`, log));
    const carol = Array.from({ length: 3 }, (_, i) => gate(`carol${i}`, log));
    const bob = gate('bob', log);
    const all = [...alice, ...carol].map((g, i) => inTurn(i < 3 ? 'alice' : 'carol', g.job));
    const bobs = inTurn('bob', bob.job);
    await tick();
    expect(log).toEqual(['alice0', 'alice1']);
    // waiting: alice2, carol0..2, bob; the turn order is alice, carol, bob, carol, carol
    const order = [alice[0]!, alice[1]!, alice[2]!, carol[0]!, bob, carol[1]!, carol[2]!];
    for (const g of order) {
      g.release();
      await tick();
    }
    await Promise.all([...all, bobs]);
    expect(log).toEqual(['alice0', 'alice1', 'alice2', 'carol0', 'bob', 'carol1', 'carol2']);
  });

  it('refuses service_unavailable (503) once waitingMax jobs wait over all users, and takes jobs again after', async () => {
    const inTurn = createTurns({ jobsAtOnce: 1, perUser: 3, waitingMax: 2 });
    const log: string[] = [];
    const a = gate('a', log);
    const b = gate('b', log);
    const c = gate('c', log);
    const pa = inTurn('u1', a.job);
    const pb = inTurn('u2', b.job);
    const pc = inTurn('u3', c.job);
    expect(await codeOf(inTurn('u4', gate('d', log).job))).toEqual(['service_unavailable', 503]);
    a.release();
    await tick();
    const e = gate('e', log);
    const pe = inTurn('u4', e.job);
    for (const g of [b, c, e]) {
      g.release();
      await tick();
    }
    expect(await Promise.all([pa, pb, pc, pe])).toEqual(['a', 'b', 'c', 'e']);
    expect(log).toEqual(['a', 'b', 'c', 'e']);
  });
});
