/**
 * Benchmark 2: HTTP order entry with the durable journal. Builds and starts the real server as `npm start` runs
 * it (apps/server/dist/bin/server.js, built by apps/server/scripts/build.mjs; temp DATA_DIR, MARKET_MAKERS=0, CAPTCHA_TEST_MODE=1, DEMO_MODE=1) as a
 * child process, registers users through the public API (puzzle, code from the demo outbox, register:
 * each gets the demo 10,000 USDT), then autocannon POSTs entrust/entrust/setEntrust form-encoded limit
 * BUYs far below the market (they rest; each holds 5 USDT, the minimum notional) with token/userId
 * headers, one user per connection. Then the same autocannon settings against a plain Fastify
 * hello-world in a separate child process. Prints requests/s, p50/p99 latency and the ratios.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { API_PATHS } from '@exchange/api';
import { spawnTs } from './child';
import { REPO_ROOT } from './data/paths';
import { fmtInt, fmtRatio, heading, table } from './report';
import { freePort } from './ports';

/** Stated target: order entry requests/s at least this fraction of hello-world's. */
export const TARGET_RATIO = 0.5;

/** Concurrent clients (BENCH_CONNECTIONS): an exchange serves many at once, and group commit shares one fsync among all in flight. */
const CONNECTIONS = Number.parseInt(process.env.BENCH_CONNECTIONS ?? '128', 10);
const DURATION_S = 10;
const ORDER_BODY = 'pairsName=BTC%2FUSDT&side=BUY&orderType=LIMIT&timeInForce=IOC&price=1000.00&amount=0.00500';
const WARMUP_S = 2;
/** Users registered through the API (sign-up codes are rate-limited per IP, so not one per connection). */
const USERS = 16;

/** One autocannon measurement. */
export interface HttpMeasure {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
}

/** Node flags for the exchange server's process (BENCH_SERVER_NODE_FLAGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"). */
const SERVER_NODE_FLAGS = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');

/** Polls `url` until it answers 2xx; throws when `child` exits or after `timeoutMs` (with the end of its log). */
export async function waitFor(url: string, child: ChildProcess, timeoutMs: number, log: () => string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`process exited ${child.exitCode}: ${log().slice(-2000)}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not up after ${timeoutMs} ms: ${log().slice(-2000)}`);
}

/** SIGTERM, then SIGKILL after 10 s; resolves when the process has exited. */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

interface Envelope<T> {
  status: string;
  errorCode: string;
  errorMessage: string;
  result: T;
}

/** One app API call (form body when given); the envelope's result, or throws with its error code. */
export async function call<T>(base: string, method: 'GET' | 'POST', p: string, body?: Record<string, string>): Promise<T> {
  const init: RequestInit = { method, headers: { lang: 'en' } };
  if (body !== undefined) {
    init.body = new URLSearchParams(body).toString();
    init.headers = { lang: 'en', 'content-type': 'application/x-www-form-urlencoded' };
  }
  const r = await fetch(`${base}/api/${p}`, init);
  const env = (await r.json()) as Envelope<T>;
  if (env.status !== 'SUCCEED') throw new Error(`${p}: HTTP ${r.status} ${env.errorCode} ${env.errorMessage}`);
  return env.result;
}

/** Register (and thereby log in) a user through the public API; returns its session headers. */
export async function registerUser(base: string, mail: string): Promise<{ token: string; userId: string }> {
  const password = 'Bench-pass-123';
  const puzzle = await call<{ challenge: string }>(base, 'POST', `${API_PATHS.geetestCode}?randomCode=${encodeURIComponent(mail)}`);
  const pass = await call<Record<string, string>>(base, 'POST', API_PATHS.geetestVerify, { challenge: puzzle.challenge, x: '0' });
  await call(base, 'POST', API_PATHS.sendCode, { account: mail, type: 'REGISTER', ...pass });
  const outbox = await call<{ code: string }[]>(base, 'GET', `${API_PATHS.demoOutbox}?account=${encodeURIComponent(mail)}`);
  const code = outbox[0]?.code;
  if (code === undefined) throw new Error(`no code in the demo outbox for ${mail}`);
  const s = await call<{ token: string; userId: string }>(base, 'POST', API_PATHS.register, {
    registerType: 'EMAIL',
    mail,
    code,
    password,
    confirmPassword: password,
    agreement: 'true',
  });
  // A separate login, as a client would after registering (also proves the password path).
  const login = await call<{ token: string; userId: string }>(base, 'POST', API_PATHS.login, { account: mail, password });
  return login ?? s;
}

/** One autocannon run: requests/s (average), p50/p99 latency (ms), totals. */
export function measure(opts: autocannon.Options): Promise<HttpMeasure> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, r) => {
      if (err !== null && err !== undefined) return reject(err);
      resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, non2xx: r.non2xx, errors: r.errors });
    });
  });
}

/** Start `node [flags] <script>` (built JavaScript) with extra env, from the repository root; stdout/stderr piped. */
export function spawnNode(script: string, env: Record<string, string>, nodeFlags: string[]): ChildProcess {
  return spawn(process.execPath, [...nodeFlags, script], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * The environment of a measured server process (this bench's and the scale-out one's): loopback only, no market
 * makers, every per-IP and per-user budget off (autocannon sends everything from one IP: they would answer 429 after
 * 600 requests a minute, and 16 sign-ups ask for 16 puzzles), captcha test and demo mode for the sign-ups, and no dev
 * chain or chain jobs (they would share the cores with the measured process).
 */
export const BENCH_SERVER_ENV: Readonly<Record<string, string>> = {
  HOST: '127.0.0.1',
  MARKET_MAKERS: '0',
  ORDER_RATE_PER_10S: '0',
  RATE_LIMIT_PER_MIN: '0',
  RATE_LIMIT_ROUTES: 'orderEntry=0,sendCode=0,register=0,login=0,captcha=0',
  AUTH_FAILURES_PER_MIN: '0',
  CAPTCHA_PER_IP_PER_MIN: '0',
  CAPTCHA_TEST_MODE: '1',
  DEMO_MODE: '1',
  DEV_CHAIN_PORT: '0',
  CHAIN_JOBS: '0',
  NODE_ENV: 'development',
  LOG_LEVEL: 'warn',
};

/**
 * Builds the server and starts it as `npm start` runs it (built JavaScript, no TypeScript loader in the measured
 * process) on `port` with `dataDir`, every per-IP budget off and no chain, plus `extraEnv`; its output is collected
 * for `log()`. The caller waits for /healthz (waitFor) and stops it (stop).
 */
export function startBenchServer(port: number, dataDir: string, extraEnv: Record<string, string> = {}): { server: ChildProcess; log: () => string } {
  let log = '';
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'apps', 'server', 'scripts', 'build.mjs')], { stdio: 'ignore' });
  const server = spawnNode(
    path.join(REPO_ROOT, 'apps', 'server', 'dist', 'bin', 'server.js'),
    { PORT: String(port), DATA_DIR: dataDir, ...BENCH_SERVER_ENV, ...extraEnv },
    SERVER_NODE_FLAGS,
  );
  server.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  server.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  return { server, log: () => log };
}

/** Run the benchmark. Returns undefined if a server could not be started (printed). */
export async function runHttpOrderEntry(): Promise<{ entry: HttpMeasure; authRead: HttpMeasure; hello: HttpMeasure } | undefined> {
  heading('2. HTTP order entry with durable journal vs Fastify hello-world (same machine, same run)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-http-'));
  const port = await freePort();
  const { server, log } = startBenchServer(port, dataDir);
  const base = `http://127.0.0.1:${port}`;
  let entry: HttpMeasure;
  let authRead: HttpMeasure;
  try {
    await waitFor(`${base}/healthz`, server, 120_000, log);
    const sessions: { token: string; userId: string }[] = [];
    for (let u = 0; u < USERS; u++) sessions.push(await registerUser(base, `bench${u}@example.com`));
    console.log(`  server up on :${port} (DATA_DIR ${dataDir}); ${sessions.length} users registered through the API, 10,000 demo USDT each`);
    let n = 0;
    const opts = (duration: number): autocannon.Options => ({
      url: `${base}/api/${API_PATHS.setEntrust}`,
      method: 'POST',
      connections: CONNECTIONS,
      duration,
      headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en' },
      setupClient: (client) => {
        const s = sessions[n++ % sessions.length] as { token: string; userId: string };
        client.setHeaders({ 'content-type': 'application/x-www-form-urlencoded', lang: 'en', token: s.token, userId: s.userId });
      },
      // A limit IOC BUY of 0.00500 BTC at 1,000.00 USDT, far below the market: journaled, validated, 5 USDT held,
      // matched against the book (nothing crosses) and expired with the hold released, so the users' funds never
      // run out however fast the server goes (resting GTC orders would use up 10,000 USDT in 2,000 orders).
      body: ORDER_BODY,
    });
    await measure(opts(WARMUP_S));
    entry = await measure(opts(DURATION_S));
    // Diagnostic: an authenticated read that journals nothing (token check + one query), same settings.
    authRead = await measure({
      url: `${base}/api/${API_PATHS.getMember}`,
      connections: CONNECTIONS,
      duration: DURATION_S / 2,
      setupClient: (client) => {
        const s = sessions[n++ % sessions.length] as { token: string; userId: string };
        client.setHeaders({ lang: 'en', token: s.token, userId: s.userId });
      },
    });
    // Check what the run did: every answered order must be accepted and expired (not rejected).
    const one = sessions[0] as { token: string; userId: string };
    const check = await fetch(`${base}/api/${API_PATHS.setEntrust}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en', token: one.token, userId: one.userId },
      body: ORDER_BODY,
    });
    const env = (await check.json()) as Envelope<{ status: string }>;
    console.log(
      `  order entry: ${fmtInt(entry.total)} requests, ${entry.non2xx} non-2xx, ${entry.errors} errors; a last order answers ${env.status} ${env.result?.status ?? env.errorCode}`,
    );
  } catch (err) {
    console.log(`  skipped: the exchange server could not be benchmarked: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  } finally {
    await stop(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const helloPort = await freePort();
  let hlog = '';
  const hello = spawnTs(path.join(import.meta.dirname, 'http', 'hello-server.ts'), [String(helloPort)]);
  hello.stdout?.on('data', (d: Buffer) => (hlog += d.toString()));
  hello.stderr?.on('data', (d: Buffer) => (hlog += d.toString()));
  let hw: HttpMeasure;
  try {
    await waitFor(`http://127.0.0.1:${helloPort}/`, hello, 30_000, () => hlog);
    const opts = (duration: number): autocannon.Options => ({ url: `http://127.0.0.1:${helloPort}/`, connections: CONNECTIONS, duration });
    await measure(opts(WARMUP_S));
    hw = await measure(opts(DURATION_S));
  } finally {
    await stop(hello);
  }
  console.log(`  ${CONNECTIONS} connections, ${DURATION_S} s each after a ${WARMUP_S} s warm-up:`);
  table([
    ['endpoint', 'req/s', 'p50 ms', 'p99 ms', 'ratio req/s'],
    [
      'POST setEntrust (journal fsync)',
      fmtInt(entry.rps),
      String(entry.p50),
      String(entry.p99),
      `${fmtRatio(entry.rps / hw.rps)} of hello (target ${TARGET_RATIO})`,
    ],
    [
      'GET getMember (auth, no journal)',
      fmtInt(authRead.rps),
      String(authRead.p50),
      String(authRead.p99),
      `${fmtRatio(authRead.rps / hw.rps)} of hello (diagnostic)`,
    ],
    ['GET / Fastify hello-world', fmtInt(hw.rps), String(hw.p50), String(hw.p99), '1.00x'],
  ]);
  return { entry, authRead, hello: hw };
}
