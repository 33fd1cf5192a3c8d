/**
 * The crash loop (no acknowledged change lost or invented under any fault), short: the server runs as
 * a real process (crash-harness.ts), three users trade BTC/USDT among themselves and with what the liquidity bots
 * left in the book (the bots run on the first start only, to sell the users some BTC), and the server is killed
 * with SIGKILL three times at seeded random instants under concurrent load. After every restart each acknowledged
 * order, cancel and rejection is checked, every order found must belong to a submission, the fills must add up to
 * the orders and the balances to the faucet plus the fills. `npm run crash-loop` runs the long version (20 cycles,
 * more users, two markets, kills during recovery).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, cycleLine, runCrashLoop, summaryLines } from './crash-harness';

describe('crash loop', () => {
  // Four server starts on a shared 2-core machine (npm test runs many files at once) dominate the time.
  it('loses and invents nothing across three SIGKILLs under load', { timeout: 420_000 }, async () => {
    const lines: string[] = [];
    const report = await runCrashLoop({
      ...DEFAULT_OPTIONS,
      seed: 20261123,
      cycles: 3,
      users: 3,
      workers: 3,
      symbols: ['BTC/USDT'],
      marketMakers: 'first',
      killAfterMs: [200, 1500],
      killDuringStart: 0,
      log: (line) => lines.push(line),
    });
    const story = [...lines, ...summaryLines(report), ...report.violations.slice(0, 20), report.error ?? ''].join('\n');
    expect(report.error, story).toBeUndefined();
    expect(report.violations, story).toEqual([]);
    expect(
      report.cycles.map((c) => c.cycle),
      story,
    ).toEqual([1, 2, 3]);
    for (const c of report.cycles) {
      expect(c.acks, cycleLine(c)).toBeGreaterThan(0);
      expect(c.check.ackedChecked, cycleLine(c)).toBeGreaterThan(0);
    }
    expect(report.totals.lost, story).toBe(0);
    expect(report.totals.invented, story).toBe(0);
    expect(report.totals.ordersChecked, story).toBeGreaterThan(0);
    // The users bought BTC from the bots and traded with each other: fills were checked, on both sides.
    expect(report.totals.fillsChecked, story).toBeGreaterThan(0);
    expect(report.totals.internalTrades, story).toBeGreaterThan(0);
  });
});
