// Mutation testing of the rules that limit what a user may take (StrykerJS with its vitest runner): the perpetuals
// (margin, transfers out, leverage, liquidation, the insurance fund, funding), OTC escrow, the wallet's withdrawals,
// savings, invitation rebates and the ledger. Run by `npm run mutation:risk` at the root (scripts/mutation-risk.mjs,
// one folder at a time, MUTATE_DIR=perp|otc|wallet|earn|rebate|ledger), or `MUTATE_DIR=perp npx stryker run
// stryker.risk.config.mjs` here. Not part of `npm test`: the perpetuals alone take about an hour on 2 cores.
//
// Same sandbox and runner as stryker.config.mjs (spot and ledger). The random tests run shorter per mutant (each
// mutant runs the tests that cover it, on instrumented code several times slower): the perpetuals' model test 12 runs,
// the risk adversary 10 streams of 40 steps, the value-rule adversaries 30 games each; any variable set outside wins.
import fs from 'node:fs';

process.env.PERP_RUNS ??= '12';
process.env.RISK_RUNS ??= '10';
process.env.RISK_STEPS ??= '40';
process.env.ADVERSARY_RUNS ??= '30';
process.env.PROPERTY_COMMANDS ??= '1000';
process.env.ORACLE_COMMANDS ??= '2000';
process.env.FAST_BOOK_RUNS ??= '4';
process.env.BOUNDED_WALK_ASKS ??= '2000';

const DIRS = ['perp', 'perp-risk', 'otc', 'wallet', 'earn', 'rebate', 'ledger'];
const dir = process.env.MUTATE_DIR ?? 'perp';
if (!DIRS.includes(dir)) throw new Error(`MUTATE_DIR must be one of ${DIRS.join(', ')}`);

/**
 * `perp-risk`: the perpetuals' functions that decide what a user may move or lose, found by their names (so the
 * ranges follow edits): the max withdraw amount, the leverage and margin changes, the fill guard, the fund's close,
 * the account view, and the engine's transfer. About a fifth of `perp`'s 3,300 mutants (which take ~2 h on 2 cores).
 */
function riskRanges() {
  const ranges = [];
  const fileRanges = (file, names) => {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    for (const name of names) {
      const start = lines.findIndex((l) => new RegExp(`^  (private )?${name}\\(`).test(l));
      if (start < 0) throw new Error(`stryker.risk.config: ${name} not found in ${file}`);
      let end = start;
      while (end < lines.length && lines[end] !== '  }') end++;
      ranges.push(`${file}:${start + 1}-${end + 1}`);
    }
  };
  fileRanges('src/perp/perp-engine.ts', [
    'spendable',
    'crossUpnl',
    'fillPayable',
    'setLeverage',
    'leverageMarginMove',
    'orderHoldMove',
    'adjustMargin',
    'fundClose',
    'perpAccount',
    'perpLeverageMarginMove',
  ]);
  fileRanges('src/engine.ts', ['transfer']);
  return ranges;
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: dir === 'perp-risk' ? riskRanges() : [`src/${dir}/**/*.ts`, '!src/**/*.test.ts'],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  tempDirName: 'dist',
  ignorePatterns: ['coverage', 'dist'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `coverage/mutation-risk/${dir}/index.html` },
  jsonReporter: { fileName: `coverage/mutation-risk/${dir}/mutation.json` },
  thresholds: { high: 90, low: 85, break: null },
  incremental: true,
  incrementalFile: `coverage/mutation-risk/${dir}/stryker-incremental.json`,
  timeoutMS: 60_000,
};
