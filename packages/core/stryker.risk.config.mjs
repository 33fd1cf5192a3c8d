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
 * The perpetuals in parts of a few hundred mutants each (the whole folder, 3,404 mutants, takes over 2 h on 2 cores and
 * reports nothing before its end): functions of perp-engine.ts by name (`static ` and top-level functions too), or
 * whole files. Together with perp-risk they cover the folder.
 */
const PERP_PARTS = {
  'perp-orders': [
    'place',
    'placeFor',
    'reduceRoom',
    'walk',
    'match',
    'fill',
    'settleFill',
    'closePart',
    'releaseHold',
    'ended',
    'closeResting',
    'expireReduceOnly',
    'cancel',
    'pay',
    'depthAt',
  ],
  'perp-settings': ['addMarket', 'fundInsurance', 'setMarginMode', 'saveSettings', 'setTpSl', 'triggerTpSl', 'execute', 'flush', 'touch'],
  'perp-liquidation': ['markTick', 'valuePrice', 'crossFigures', 'atRisk', 'liquidations', 'liquidate', 'addFundPosition', 'adl'],
  'perp-funding': [
    'funding',
    'nextFunding',
    'markState',
    'view',
    'perpOpenOrders',
    'perpDepth',
    'positions',
    'positionCount',
    'perpView',
    'bandOk',
    'bandLow',
    'bandHigh',
    'refPrice',
  ],
  'perp-snapshot': ['rows', 'restore', 'copyConfig', 'configRow', 'parseConfig'],
};
const PERP_FILES = { 'perp-math': ['src/perp/math.ts', 'src/perp/types.ts'] };

const DIRS = ['perp', 'perp-risk', ...Object.keys(PERP_PARTS), ...Object.keys(PERP_FILES), 'otc', 'wallet', 'earn', 'rebate', 'ledger'];
const dir = process.env.MUTATE_DIR ?? 'perp';
if (!DIRS.includes(dir)) throw new Error(`MUTATE_DIR must be one of ${DIRS.join(', ')}`);

/**
 * `perp-risk`: the perpetuals' functions that decide what a user may move or lose, found by their names (so the
 * ranges follow edits): the max withdraw amount, the leverage and margin changes, the fill guard, the fund's close,
 * the account view, and the engine's transfer. About a fifth of `perp`'s 3,300 mutants (which take ~2 h on 2 cores).
 */
/** The line ranges of the methods (or top-level functions) `names` of `file`, as Stryker's `file:start-end`. */
function fileRanges(file, names) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  return names.map((name) => {
    const method = lines.findIndex((l) => new RegExp(`^  (private |static )?${name}\\(`).test(l));
    const top = method >= 0 ? -1 : lines.findIndex((l) => new RegExp(`^(export )?function ${name}\\(`).test(l));
    const start = method >= 0 ? method : top;
    if (start < 0) throw new Error(`stryker.risk.config: ${name} not found in ${file}`);
    const close = method >= 0 ? '  }' : '}';
    let end = start;
    while (end < lines.length && lines[end] !== close) end++;
    return `${file}:${start + 1}-${end + 1}`;
  });
}

function riskRanges() {
  const ranges = [];
  ranges.push(
    ...fileRanges('src/perp/perp-engine.ts', [
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
    ]),
  );
  ranges.push(...fileRanges('src/engine.ts', ['transfer']));
  return ranges;
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate:
    dir === 'perp-risk'
      ? riskRanges()
      : dir in PERP_PARTS
        ? fileRanges('src/perp/perp-engine.ts', PERP_PARTS[dir])
        : dir in PERP_FILES
          ? PERP_FILES[dir]
          : [`src/${dir}/**/*.ts`, '!src/**/*.test.ts'],
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
