#!/usr/bin/env node
// `npm test`: everything, in order, stopping at the first failure.
// 1. typecheck every workspace (two at a time); 2. lint; 2b. the web app's initial JavaScript size; 3. every vitest project on the embedded PGlite;
// 4. the server's API tests again on PostgreSQL when DATABASE_URL is set (CI sets it to the machine's PostgreSQL);
// 4b. the scale-out mode's processes on NATS JetStream and PostgreSQL when NATS_URL is set too (CI sets both);
// 5. the Playwright journeys in Debian's Chromium against the app started as `npm start` starts it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';

function run(label, cmd, args, env = process.env) {
  const started = Date.now();
  console.log(`\n=== ${label}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env, shell: false });
  console.log(`=== ${label}: ${r.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const pgUrl = process.env.DATABASE_URL;
const embedded = { ...process.env };
delete embedded.DATABASE_URL;

// Every workspace's typecheck, two at a time (the machine has 2 cores; one after another took ~80 s).
await (async function typecheck() {
  const started = Date.now();
  console.log('\n=== typecheck');
  const root = JSON.parse(fs.readFileSync('package.json', 'utf8'));
  const queue = root.workspaces.filter((w) => JSON.parse(fs.readFileSync(`${w}/package.json`, 'utf8')).scripts?.typecheck);
  const failed = [];
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
// The web app's initial JavaScript (entry + static imports, gzip) against its 150 KB limit: a build into a temp dir, ~5 s.
run('initial JavaScript size', 'node', ['scripts/bundle-size.mjs', '--build']);
run('unit, property and API tests (PGlite)', 'npx', ['vitest', 'run'], embedded);
// The second pass leaves out the tests that never use DATABASE_URL (their own PGlite, an in-memory store, or a
// child server started without it), and those that measure or attack something other than the database (the captcha
// solver's rate, the rate limiters, WebSocket abuse, forged tokens: CPU-bound, minutes under CI's load, and no
// different on PostgreSQL): they ran in the first pass already.
const PGLITE_ONLY = [
  'src/modules/sms/captcha.solver.test.ts',
  'src/plugins/rate-limits.test.ts',
  'src/modules/ws/ws.abuse.test.ts',
  'test/forged-token-flood.test.ts',
  'test/crash.test.ts',
  'test/crash-loop.test.ts',
  'test/journal-identity.test.ts',
  'src/engine-host/fault-sim.test.ts',
  'src/engine-host/engine-host.faults.test.ts',
  'src/engine-host/journal.test.ts',
  'src/engine-host/memory-fs.test.ts',
];
/**
 * The server's test files that open a database (a test app or context, `openDb`, the schema or client, or
 * DATABASE_URL read from the environment), minus PGLITE_ONLY and the scale-out tests (next stage). The others
 * (journal, codecs, limiters, hubs, jobs against fakes, config parsing) never see DATABASE_URL: a second run of them
 * on PostgreSQL would repeat the first pass exactly, so they are left out by this scan, and a new API test is
 * picked up without editing a list.
 */
function databaseTestFiles() {
  const uses = /\b(makeTestApp|openTestApp|make\w+TestApp|createContext|openDb)\b|from '[^']*\/db\/|process\.env\.DATABASE_URL/;
  const skip = new Set(PGLITE_ONLY);
  return ['src', 'test']
    .flatMap((dir) => fs.readdirSync(`apps/server/${dir}`, { recursive: true }).map((f) => `${dir}/${f}`))
    .filter((f) => f.endsWith('.test.ts') && !f.startsWith('test/scale-out/') && !skip.has(f))
    .filter((f) => uses.test(fs.readFileSync(`apps/server/${f}`, 'utf8')))
    .sort();
}
if (pgUrl) run('API tests on PostgreSQL', 'npx', ['vitest', 'run', '--project', 'server', ...databaseTestFiles().map((f) => `apps/server/${f}`)], process.env);
else console.log('\n(DATABASE_URL not set: API tests on PostgreSQL skipped)');
// The scale-out mode (issue 9): one engine process and two gateways on the machine's NATS JetStream and PostgreSQL, ~1 min.
if (pgUrl && process.env.NATS_URL) run('scale-out mode on NATS JetStream and PostgreSQL', 'npx', ['vitest', 'run', '--project', 'server', 'test/scale-out/'], process.env);
else console.log('\n(NATS_URL or DATABASE_URL not set: scale-out tests skipped)');
run('Playwright journeys', 'npm', ['run', 'test', '-w', 'e2e', '--if-present'], embedded);
