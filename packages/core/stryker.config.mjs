// Mutation testing of spot trading (src/spot: the markets and matching, and spot's state machine spot-engine.ts) and the ledger
// `npm run mutation` at the root, or `npx stryker run` here. Not part of `npm test` (it takes a while).
//
// Stryker 9 is pinned: Stryker 10 needs Node 22 and the repository runs on Node 20. Its vitest
// runner (>= vitest 2) runs the core's own vitest project, only the tests that cover each mutant.
// The sandbox (a mutated copy of this package) lives in dist/ (the core emits no build), which git,
// ESLint and the tidy test already ignore, so a run never shows up in the shared working tree; the
// reports go to coverage/mutation/ (gitignored). Node modules resolve from the repository root.
//
// The random tests run fewer commands per mutant than in `npm test` (each mutant runs the tests that
// cover it, and the instrumented code is several times slower): 1,000 fast-vs-naive and 2,000 oracle
// commands, 4 random fast books, a 2,000-order deep book. Any of these variables set outside wins.
process.env.PROPERTY_COMMANDS ??= '1000';
process.env.ORACLE_COMMANDS ??= '2000';
process.env.FAST_BOOK_RUNS ??= '4';
process.env.BOUNDED_WALK_ASKS ??= '2000';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: ['src/spot/**/*.ts', 'src/ledger/**/*.ts', '!src/**/*.test.ts'],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  tempDirName: 'dist',
  ignorePatterns: ['coverage', 'dist'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'coverage/mutation/index.html' },
  jsonReporter: { fileName: 'coverage/mutation/mutation.json' },
  thresholds: { high: 90, low: 85, break: null },
  // Reuses the results of unchanged mutants and tests from the last run (delete the file for a full run).
  incremental: true,
  incrementalFile: 'coverage/mutation/stryker-incremental.json',
};
