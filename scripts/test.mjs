#!/usr/bin/env node
// `npm test`: everything, stopping at the first failed stage.
// 1. typecheck every workspace (two at a time); 2. lint and the formatter check; 2b. the web app's initial JavaScript size; 3. every vitest project on the embedded PGlite;
// then two chains side by side (each prints its output as one block when a stage ends):
// 4. the server's API tests again on PostgreSQL when DATABASE_URL is set (CI sets it to the machine's PostgreSQL),
//    4b. then the scale-out mode's processes on NATS JetStream and PostgreSQL when NATS_URL is set too (CI sets both);
//    4c. then the deployment's systemd units (deploy/), each process supervised from its unit's command;
// 5. the Playwright journeys in Debian's Chromium against the app started as `npm start` starts it.
// One after the other, 4 + 4b + 5 took about 14 minutes of a 33-minute run; side by side they share the 2 cores.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { vitestStage } from './vitest-stage.mjs';

function run(label, cmd, args, env = process.env) {
  const status = runStatus(label, cmd, args, env);
  if (status !== 0) process.exit(status);
}

/** Runs a stage with its output shown as it comes; returns its exit status. */
function runStatus(label, cmd, args, env = process.env) {
  const started = Date.now();
  console.log(`\n=== ${label}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env, shell: false });
  console.log(`=== ${label}: ${r.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return r.status ?? 1;
}

/**
 * Runs a stage with its output kept and printed as one block when it ends (stages side by side would interleave their
 * lines); resolves with its exit status.
 */
function runBuffered(label, cmd, args, env = process.env) {
  const started = Date.now();
  console.log(`\n=== ${label}: started (its output follows when it ends)`);
  return new Promise((resolve) => {
    const out = [];
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env, shell: false });
    p.stdout.on('data', (d) => out.push(d));
    p.stderr.on('data', (d) => out.push(d));
    p.on('close', (code) => {
      console.log(`\n=== ${label}: output`);
      const text = Buffer.concat(out);
      process.stdout.write(text);
      console.log(`=== ${label}: ${code === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (code !== 0) failures.push({ label, digest: failureDigest(text.toString('utf8')) });
      resolve(code ?? 1);
    });
  });
}

/** The failed side-by-side stages, each with its failure digest, printed again as the run's last lines. */
const failures = [];
/**
 * The lines of a failed stage's output that say what failed (vitest's FAIL lines and summary, Playwright's numbered
 * failures, flaky and failed lists, and the first lines of each error), at most 80, colours removed. A stage that
 * ended early prints them in the middle of a long log; a reader of the log's end (CI shows its tail) finds them again
 * there.
 */
function failureDigest(text) {
  const lines = stripVTControlCharacters(text).split('\n');
  const keep =
    /(^\s*(FAIL|×|✘)\s)|(^\s+\d+\) )|(\b\d+ (failed|flaky|interrupted|did not run)\b)|(^\s*(Error|AssertionError|TimeoutError|TypeError)\b)|(^\s*(Expected|Received|Timeout|Locator)\b)|(^\s+\[\w+\] › )|(^\s*(Test Files|Tests)\s)/;
  const picked = lines.filter((l) => keep.test(l));
  return picked.length > 80 ? [...picked.slice(0, 40), `… ${picked.length - 80} lines …`, ...picked.slice(-40)] : picked;
}

const pgUrl = process.env.DATABASE_URL;
const embedded = { ...process.env };
delete embedded.DATABASE_URL;

// Every workspace's typecheck, two at a time (the machine has 2 cores; one after another took ~80 s).
await (async function typecheck() {
  const started = Date.now();
  console.log('\n=== typecheck');
  const root = JSON.parse(fs.readFileSync('package.json', 'utf8'));
  const failed = [];
  // The packages every app references (TypeScript project references: composite, declarations in dist/types) are
  // checked and built once, first, so that the two workers below never build them at the same time.
  const refs = spawnSync('npx', ['tsc', '-b', 'packages/money', 'packages/core', 'packages/api', 'packages/chain'], { encoding: 'utf8' });
  if (refs.status !== 0) {
    process.stdout.write(refs.stdout + refs.stderr);
    failed.push('packages/money, packages/core, packages/api, packages/chain');
  }
  const queue = root.workspaces.filter((w) => !w.startsWith('packages/') && JSON.parse(fs.readFileSync(`${w}/package.json`, 'utf8')).scripts?.typecheck);
  const worker = async () => {
    for (let w = queue.shift(); w !== undefined; w = queue.shift()) {
      const out = [];
      const code = await new Promise((resolve) => {
        const p = spawn('npm', ['run', 'typecheck', '-w', w], { stdio: ['ignore', 'pipe', 'pipe'] });
        p.stdout.on('data', (d) => out.push(d));
        p.stderr.on('data', (d) => out.push(d));
        p.on('close', resolve);
      });
      if (code !== 0) {
        failed.push(w);
        process.stdout.write(Buffer.concat(out));
      }
    }
  };
  await Promise.all([worker(), worker()]);
  console.log(`=== typecheck: ${failed.length === 0 ? 'ok' : `FAILED (${failed.join(', ')})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (failed.length > 0) process.exit(1);
})();
run('lint', 'npx', ['eslint', '.']);
// One formatter (Prettier, .prettierrc.json) over the code: `npm run format` writes it.
run('format', 'npx', ['prettier', '--check', '--log-level', 'warn', '**/*.{ts,tsx,js,mjs,cjs}']);
// The web app's initial JavaScript (entry + static imports, gzip) against its 150 KB limit: a build into a temp dir, ~5 s.
run('initial JavaScript size', 'node', ['scripts/bundle-size.mjs', '--build']);
{
  const label = 'unit, property and API tests (PGlite)';
  const status = await vitestStage(label, ['vitest', 'run'], embedded, async (l, a, e) => runStatus(l, 'npx', a, e));
  if (status !== 0) process.exit(status);
}
// The second pass leaves out the tests that never use DATABASE_URL (their own PGlite, an in-memory store, or a
// child server started without it), and those that measure or attack something other than the database (the captcha
// solver's rate, the rate limiters, WebSocket abuse, forged tokens: CPU-bound, minutes under CI's load, and no
// different on PostgreSQL): they ran in the first pass already.
const PGLITE_ONLY = [
  'src/domains/verification/captcha.solver.test.ts',
  // its own PGlite data directory (the operator tool and the app it logs into), never DATABASE_URL
  'src/tools/admin-cli.test.ts',
  'src/platform/rate-limit/rate-limits.test.ts',
  'src/gateways/ws/ws.abuse.test.ts',
  'test/forged-token-flood.test.ts',
  'test/crash.test.ts',
  'test/crash-loop.test.ts',
  'test/journal-identity.test.ts',
  'src/tools/fault-sim.test.ts',
  'src/platform/engine-host/engine-host.faults.test.ts',
  'src/platform/engine-host/journal.test.ts',
  'src/platform/engine-host/memory-fs.test.ts',
  // The Binance-compatible API's wire checks: CCXT against a listening server (the suite's minute of live
  // order book sync), the stream formats and the weights. Their SQL is the spot, contract and api-keys repositories',
  // which the Binance API tests and the bad-input table run on PostgreSQL. On PostgreSQL beside the journeys they
  // doubled the stage and pushed the restart tests past their 60 s timeouts.
  'test/ccxt/ccxt.test.ts',
  'src/gateways/binance/spot.ccxt.test.ts',
  'src/gateways/binance/futures.ccxt.test.ts',
  'src/gateways/binance/streams.ccxt.test.ts',
  'src/gateways/binance/streams.test.ts',
  'src/gateways/binance/streams.user.test.ts',
  'src/gateways/binance/binance.weights.test.ts',
  // PGlite's worker thread itself (openDb on memory://): never PostgreSQL.
  'src/platform/db/worker-client.test.ts',
  // Chain-backed (Hardhat nodes, half a minute each): their SQL is the wallet repository's, which wallet.test.ts
  // and wallet.restart.test.ts run on PostgreSQL.
  'src/domains/wallet/chain-watcher.test.ts',
  'src/domains/wallet/withdrawal-broadcaster.test.ts',
  // The test-only controls (reference price, clock) live in memory; the database only holds the test app.
  'src/domains/demo/demo-contract.test.ts',
  'src/domains/demo/demo-clock.test.ts',
];
/**
 * The server's test files that open a database (a test app or context, `openDb`, the client, a domain's tables, or
 * DATABASE_URL read from the environment), minus PGLITE_ONLY and the scale-out tests (next stage). The others
 * (journal, codecs, limiters, hubs, jobs against fakes, config parsing) never see DATABASE_URL: a second run of them
 * on PostgreSQL would repeat the first pass exactly, so they are left out by this scan, and a new API test is
 * picked up without editing a list.
 */
function databaseTestFiles() {
  const uses = /\b(makeTestApp|openTestApp|make\w+TestApp|createContext|openDb)\b|from '[^']*\/db\/|\.tables'|process\.env\.DATABASE_URL/;
  const skip = new Set(PGLITE_ONLY);
  return ['src', 'test']
    .flatMap((dir) => fs.readdirSync(`apps/server/${dir}`, { recursive: true }).map((f) => `${dir}/${f}`))
    .filter((f) => f.endsWith('.test.ts') && !f.startsWith('test/scale-out/') && !skip.has(f))
    .filter((f) => uses.test(fs.readFileSync(`apps/server/${f}`, 'utf8')))
    .sort();
}
// 4 and 4b (one after the other) beside 5: the PostgreSQL pass and the journeys each wait on I/O much of the time.
async function postgresChain() {
  if (!pgUrl) {
    console.log('\n(DATABASE_URL not set: API tests on PostgreSQL skipped)');
    return 0;
  }
  const api = await vitestStage(
    'API tests on PostgreSQL',
    ['vitest', 'run', '--project', 'server', ...databaseTestFiles().map((f) => `apps/server/${f}`)],
    process.env,
    (l, a, e) => runBuffered(l, 'npx', a, e),
  );
  // A first run that lost files to a dead worker and passed when they ran again: its digest is not a failure.
  if (api === 0) failures.splice(0, failures.length, ...failures.filter((f) => !f.label.startsWith('API tests on PostgreSQL')));
  if (api !== 0) return api;
  // The scale-out mode: one engine process and two gateways on the machine's NATS JetStream and PostgreSQL, ~1 min.
  if (!process.env.NATS_URL) {
    console.log('\n(NATS_URL or DATABASE_URL not set: scale-out tests skipped)');
    return 0;
  }
  const scaleOut = await runBuffered(
    'scale-out mode on NATS JetStream and PostgreSQL',
    'npx',
    ['vitest', 'run', '--project', 'server', 'test/scale-out/'],
    process.env,
  );
  if (scaleOut !== 0) return scaleOut;
  // 4c. The deployment's systemd units (deploy/systemd): verified, and each process killed and started again from its
  // unit's command line on NATS and PostgreSQL, ~2 min.
  return runBuffered('systemd units of deploy/', 'npx', ['vitest', 'run', '-c', 'deploy/vitest.config.ts'], process.env);
}
const sideBySide = Date.now();
const statuses = await Promise.all([postgresChain(), runBuffered('Playwright journeys', 'npm', ['run', 'test', '-w', 'e2e', '--if-present'], embedded)]);
console.log(
  `\n=== PostgreSQL and scale-out beside the journeys: ${statuses.every((c) => c === 0) ? 'ok' : 'FAILED'} in ${((Date.now() - sideBySide) / 1000).toFixed(1)} s`,
);
for (const f of failures) console.log(`\n=== what failed in ${f.label}:\n${f.digest.join('\n')}`);
const failed = statuses.find((c) => c !== 0);
if (failed !== undefined) process.exit(failed);
