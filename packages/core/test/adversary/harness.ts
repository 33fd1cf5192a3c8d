/**
 * What the adversary tests share (ARCHITECTURE.md, convention 16): how many random plays to run, the fast-check
 * driver that names the seed of a failure, the ledger invariants checked after every step (every asset sums to zero,
 * no user bucket negative), and the small readers of a group's holdings. Nothing here knows a domain's rules: each
 * test file carries its own model, written from the published rules, sharing no code with the engine.
 *
 * Run counts: ADVERSARY_RUNS (random plays per test) wins; else FULL_PROPERTY_TESTS (`npm run test:property-long`)
 * gives each test's long count; else its short count (`npm test`). ADVERSARY_SEED replays one seed (fast-check
 * prints the seed and path of a failure).
 */
import fc from 'fast-check';
import type { Engine } from '../../src/engine';
import type { AccountKind } from '../../src/types';

// The core's tsconfig has no Node types (src must not use them); the tests read their env this way.
const { process, console } = globalThis as unknown as { process: { env: Record<string, string | undefined> }; console: { log(...args: unknown[]): void } };
const ENV = process.env;

/** Random plays per test: ADVERSARY_RUNS, else `long` under FULL_PROPERTY_TESTS, else `short`. */
export function adversaryRuns(short: number, long: number): number {
  if (ENV.ADVERSARY_RUNS !== undefined) return Math.max(1, Number.parseInt(ENV.ADVERSARY_RUNS, 10));
  return ENV.FULL_PROPERTY_TESTS !== undefined ? long : short;
}

/** The seed to replay (ADVERSARY_SEED), or undefined for a fresh one. */
export const ADVERSARY_SEED: number | undefined = ENV.ADVERSARY_SEED === undefined ? undefined : Number.parseInt(ENV.ADVERSARY_SEED, 10);

/**
 * Counts of what the plays exercised (e.g. "lock:ok", "redeemed:EARLY"), so a test can assert that its random plays
 * reached the rules it claims to test; printed when ADVERSARY_STATS is set.
 */
export class Tally {
  private readonly n = new Map<string, number>();
  add(key: string): void {
    this.n.set(key, (this.n.get(key) ?? 0) + 1);
  }
  get(key: string): number {
    return this.n.get(key) ?? 0;
  }
  clear(): void {
    this.n.clear();
  }
  /** Prints the counts under `name` when ADVERSARY_STATS is set. */
  report(name: string): void {
    if (ENV.ADVERSARY_STATS !== undefined)
      console.log(
        `${name}: ${[...this.n]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
  }
}

/** JSON with bigints as strings: for failure messages naming the operation. */
export function show(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}` : x));
}

/** A failed invariant: the message names the step, the operation and the amounts. */
export class LeakError extends Error {}

/** Throws a LeakError unless `cond`. */
export function invariant(cond: boolean, msg: () => string): asserts cond {
  if (!cond) throw new LeakError(msg());
}

/**
 * Plays `runs` random games (a setup and an operation list) through `play`, which throws on a broken invariant. On
 * failure the error carries fast-check's seed and shrunk counterexample (the shortest list found that still breaks
 * the rule).
 */
export function playAdversary<T>(name: string, arb: fc.Arbitrary<T>, runs: number, play: (game: T) => void): void {
  // A fresh seed each run unless one is given; named when ADVERSARY_STATS is set (and by fast-check on failure).
  const seed = ADVERSARY_SEED ?? (Date.now() ^ Math.floor(Math.random() * 0x1_0000_0000)) | 0;
  if (ENV.ADVERSARY_STATS !== undefined) console.log(`${name}: seed ${seed}, ${runs} plays`);
  fc.assert(
    fc.property(arb, (game) => {
      play(game);
    }),
    { numRuns: runs, seed },
  );
}

/**
 * Plays with a deliberately leaking variant and returns the first broken invariant's message, or null when every
 * run passed (the canary tests expect a message: the invariants can fail). Fixed seed, no shrinking.
 */
export function findLeak<T>(arb: fc.Arbitrary<T>, runs: number, seed: number, play: (game: T) => void): string | null {
  const details = fc.check(
    fc.property(arb, (game) => {
      play(game);
    }),
    { numRuns: runs, seed, endOnFailure: true },
  );
  if (!details.failed) return null;
  const err = details.errorInstance;
  if (!(err instanceof LeakError)) throw err instanceof Error ? err : new Error(String(err));
  return err.message;
}

/**
 * The ledger invariants after every step: every asset sums to zero over all accounts (conservation: system accounts
 * included, they go negative by what they issued), and no user's available or frozen bucket is negative.
 */
export function checkLedger(e: Engine, where: () => string): void {
  const totals = new Map<string, bigint>();
  for (const a of e.ledger.accounts()) {
    totals.set(a.asset, (totals.get(a.asset) ?? 0n) + a.available + a.frozen);
    if (a.kind !== 'SYSTEM')
      invariant(
        a.available >= 0n && a.frozen >= 0n,
        () => `${where()}: negative balance ${a.owner}/${a.kind}/${a.asset} available ${a.available} frozen ${a.frozen}`,
      );
  }
  for (const [asset, total] of totals) invariant(total === 0n, () => `${where()}: ${asset} sums to ${total} over all accounts`);
}

const KINDS: readonly AccountKind[] = ['ASSETS', 'SPOT', 'CONTRACT', 'OTC'];

/** A user's holdings of `asset`: available plus frozen over the four accounts (asset units). */
export function holdings(e: Engine, userId: string, asset: string): bigint {
  let s = 0n;
  for (const k of KINDS) {
    const b = e.balance(userId, k, asset);
    s += b.available + b.frozen;
  }
  return s;
}

/** A group's holdings of `asset` (asset units). */
export function groupHoldings(e: Engine, users: readonly string[], asset: string): bigint {
  let s = 0n;
  for (const u of users) s += holdings(e, u, asset);
  return s;
}

/** The balance of a system account (available + frozen, asset units). */
export function systemBalance(e: Engine, owner: string, asset: string): bigint {
  const b = e.balance(owner, 'SYSTEM', asset);
  return b.available + b.frozen;
}
