#!/usr/bin/env node
// `npm run test:property-long`: the long versions of the core's property tests, which `npm test` (and CI) runs short.
// FULL_PROPERTY_TESTS=1: the model-based test 100,000 random commands (20,000 in `npm test`), the oracle test 60,000
// (12,000), the codec properties 2,000 runs each (300), the fast book 400 runs (40), the perpetual engine 300 (40).
// Each count can be set on its own instead: PROPERTY_COMMANDS, ORACLE_COMMANDS, FAST_BOOK_RUNS, PERP_RUNS (a number set
// in the environment wins over these defaults). Extra arguments go to vitest (e.g. a single file). ~3 min on 2 cores.
// The risk adversary (test/risk) plays RISK_RUNS streams of RISK_STEPS steps (30 x 60 in `npm test`; 300 x 120 here).
// The value-rule adversaries (test/adversary: OTC, savings, convert, rebates, activities) play their long counts here
// (8,000 to 30,000 games each instead of 80 to 150; ADVERSARY_RUNS sets one count for all), ~2 min on 2 cores.
import { spawnSync } from 'node:child_process';

const env = { FULL_PROPERTY_TESTS: '1', FAST_BOOK_RUNS: '400', PERP_RUNS: '300', RISK_RUNS: '300', RISK_STEPS: '120', ...process.env };
const files = [
  'test/model.property.test.ts',
  'test/oracle.property.test.ts',
  'test/codec.property.test.ts',
  'src/spot/fast-book.test.ts',
  'test/perp.property.test.ts',
  'test/risk/adversary.property.test.ts',
  'test/adversary/',
];
const args = process.argv.slice(2);
const r = spawnSync('npx', ['vitest', 'run', '--project', 'core', ...(args.length > 0 ? args : files)], { stdio: 'inherit', env });
process.exit(r.status ?? 1);
