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

/**
 * The perpetuals in parts of a few hundred mutants each (the whole folder, 3,400 mutants, takes over 2 h on 2 cores and
 * reports nothing before its end): the layer files of the state machine (perp-market.ts lists them), less the functions
 * of `perp-risk`, so that together with perp-risk they cover the folder once.
 */
const PERP_PARTS = {
  'perp-orders': ['src/perp/perp-orders.ts', 'src/perp/perp-settlement.ts'],
  'perp-settings': ['src/perp/perp-settings.ts', 'src/perp/perp-market.ts'],
  'perp-liquidation': ['src/perp/perp-liquidation.ts', 'src/perp/perp-adl.ts'],
  'perp-funding': ['src/perp/perp-funding.ts', 'src/perp/perp-margin.ts'],
  'perp-engine': ['src/perp/perp-engine.ts'],
  'perp-math': ['src/perp/math.ts', 'src/perp/types.ts'],
};

const DIRS = ['perp', 'perp-risk', ...Object.keys(PERP_PARTS), 'otc', 'wallet', 'earn', 'rebate', 'ledger'];
const dir = process.env.MUTATE_DIR ?? 'perp';
if (!DIRS.includes(dir)) throw new Error(`MUTATE_DIR must be one of ${DIRS.join(', ')}`);

/**
 * `perp-risk`: the perpetuals' functions that decide what a user may move or lose, found by their names (so the
 * ranges follow edits): the max withdraw amount, the leverage and margin changes, the fill guard, the fund's close,
 * the account view, and the wallet's transfer (wallet/wallet-engine.ts). About a fifth of `perp`'s mutants.
 */
const RISK = [
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
];

/** The 1-based [start, end] lines of each method (or top-level function) of `file` among `names`. */
function spans(file, names) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const out = [];
  for (const name of names) {
    const method = lines.findIndex((l) => new RegExp(`^  (private |protected |static )*${name}\\(`).test(l));
    const top = method >= 0 ? -1 : lines.findIndex((l) => new RegExp(`^(export )?function ${name}\\(`).test(l));
    const start = method >= 0 ? method : top;
    if (start < 0) continue;
    const close = method >= 0 ? '  }' : '}';
    let end = start;
    while (end < lines.length && lines[end] !== close) end++;
    out.push([start + 1, end + 1]);
  }
  return out.sort((x, y) => x[0] - y[0]);
}

/** The layer files of the perpetuals' state machine (each function name is defined in one of them). */
const PERP_FILES = fs
  .readdirSync('src/perp')
  .filter((f) => /^perp-[a-z-]+\.ts$/.test(f) && !f.endsWith('.test.ts'))
  .map((f) => `src/perp/${f}`);

function riskRanges() {
  const ranges = [];
  for (const file of PERP_FILES) ranges.push(...spans(file, RISK).map(([a, z]) => `${file}:${a}-${z}`));
  const found = ranges.length;
  if (found !== RISK.length) throw new Error(`stryker.risk.config: ${RISK.length - found} of the risk functions not found in src/perp`);
  ranges.push(...spans('src/wallet/wallet-engine.ts', ['transfer']).map(([a, z]) => `src/wallet/wallet-engine.ts:${a}-${z}`));
  return ranges;
}

/** `files` less the lines of the risk functions, as Stryker's `file:start-end` ranges. */
function partRanges(files) {
  const ranges = [];
  for (const file of files) {
    const n = fs.readFileSync(file, 'utf8').split('\n').length;
    let from = 1;
    for (const [a, z] of spans(file, RISK)) {
      if (a > from) ranges.push(`${file}:${from}-${a - 1}`);
      from = z + 1;
    }
    if (from <= n) ranges.push(`${file}:${from}-${n}`);
  }
  return ranges;
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: dir === 'perp-risk' ? riskRanges() : dir in PERP_PARTS ? partRanges(PERP_PARTS[dir]) : [`src/${dir}/**/*.ts`, '!src/**/*.test.ts'],
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
