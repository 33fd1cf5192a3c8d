/**
 * The savings tests' engine (given the savings machine, as the server's savings module gives it): USDT listed, users "1" (alice) and "2" (bob) with 10,000 USDT each in ASSETS, commands
 * run at a settable time; and a product's terms (30 days at 3.65% a year, 10 to 5,000 USDT a lock, quotas 6,000 a
 * user and 8,000 in all, early redemption forfeiting the interest), any field overridable.
 */
import { Engine } from '../src/engine';
import { earnMachine } from '../src/earn/earn-engine';
import type { EarnProductTerms } from '../src/earn/types';
import type { Command, CommandResult } from '../src/types';

/** 1 USDT (scale 8). */
export const U = 100_000_000n;
/** The tests' start time (Unix ms). */
export const T0 = 1_700_000_000_000;

/** A fresh engine with the two funded users; `run` executes at the current time, `at` moves it. */
export function earnSetup() {
  const e = new Engine({ machines: [earnMachine] });
  let ts = T0;
  const run = (c: Record<string, unknown>): CommandResult => e.execute({ ts, ...c } as unknown as Command);
  const at = (t: number) => {
    ts = t;
  };
  run({ type: 'addAsset', asset: { code: 'USDT', scale: 8 } });
  for (const a of ['alice', 'bob']) run({ type: 'registerUser', account: a, uniqueKeys: [], profile: {} });
  for (const u of ['1', '2']) run({ type: 'deposit', userId: u, asset: 'USDT', account: 'ASSETS', amount: 10_000n * U, from: '@faucet' });
  return { e, run, at };
}

/** The standard product's terms with `over` applied. */
export const earnTerms = (over: Partial<EarnProductTerms> = {}): EarnProductTerms => ({
  asset: 'USDT',
  termDays: 30,
  aprPpm: 36_500, // 3.65% a year = 0.01% a day
  minAmount: 10n * U,
  maxAmount: 5_000n * U,
  userQuota: 6_000n * U,
  totalQuota: 8_000n * U,
  earlyRedeem: 'FORFEIT_INTEREST',
  status: 'ON',
  ...over,
});
