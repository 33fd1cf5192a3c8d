/**
 * Runs the fault simulator (fault-sim.ts) over many seeds: each seed injects one fault (crash at a random instant,
 * torn write, zero-filled tail, flipped bit, failed fdatasync, lost / rolled-back / foreign database, rolled-back
 * journal) and checks that no acknowledged command is lost or invented, nothing reported failed is applied, the
 * state equals a clean replay, every asset sums to zero, and the database matches the journal or the start is
 * refused loudly. FAULT_SEEDS sets the count (default 2,000); `npm run fault-sim -- --seeds N` runs any number.
 */
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS, runSeeds } from './fault-sim';
import { PROJECTIONS } from '../main/domains';

const SEEDS = Number.parseInt(process.env.FAULT_SEEDS ?? '2000', 10);

describe('fault simulator', () => {
  it(`${SEEDS} seeds: nothing acknowledged lost, nothing failed applied, state = clean replay`, async () => {
    const { failed, totals } = await runSeeds(1, SEEDS, PROJECTIONS);
    console.log('fault simulator totals', totals);
    for (const f of failed.slice(0, 3)) console.log(`seed ${f.seed} (${f.fault}):`, f.violations.slice(0, 5));
    expect(failed.map((f) => f.seed)).toEqual([]);
    expect(totals.lost).toBe(0);
    expect(totals.acked).toBeGreaterThan(SEEDS * 5);
    for (const k of FAULT_KINDS) expect(totals[`fault:${k}`]).toBeGreaterThan(0);
    // Refusals happen only for the faults that make the pair unusable, and do happen for them.
    expect(totals.refused).toBeGreaterThan(0);
  }, 600_000);
});
