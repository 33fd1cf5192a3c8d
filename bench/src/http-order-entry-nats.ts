/**
 * Benchmark: HTTP order entry in the scale-out mode: one engine process and two gateway processes on
 * NATS JetStream (file storage) and PostgreSQL, each started as `npm run engine` / `npm run gateway` start them,
 * then autocannon on both gateways at once (half the connections each) with the same order as benchmark 2 (a limit
 * IOC BUY far below the market: published to the stream, acknowledged by JetStream, applied by the gateway's
 * replica, answered), and the same settings against a Fastify hello-world. Needs NATS_URL and DATABASE_URL (skipped
 * otherwise); its stream, object store and database are created for the run and deleted after.
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { API_PATHS } from '@exchange/api';
import { spawnTs } from './child';
import { REPO_ROOT } from './data/paths';
import { fmtInt, fmtRatio, heading, table } from './report';
import { freePort } from './ports';
import { BENCH_SERVER_ENV } from './http-order-entry';

/** Stated target: order entry requests/s at least this fraction of hello-world's. */
export const TARGET_RATIO = 0.5;
const CONNECTIONS = Number.parseInt(process.env.BENCH_CONNECTIONS ?? '128', 10);
const DURATION_S = 10;
const WARMUP_S = 2;
const USERS = 16;
const ORDER_BODY = 'pairsName=BTC%2FUSDT&side=BUY&orderType=LIMIT&timeInForce=IOC&price=1000.00&amount=0.00500';

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
}
interface Session {
  token: string;
  userId: string;
}

async function healthy(url: string, child: ChildProcess, out: () => string): Promise<void> {
  const end = Date.now() + 120_000;
  for (; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${out().slice(-1500)}`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
  }
  throw new Error(`${url} not up: ${out().slice(-1500)}`);
}

/** SIGTERM, then SIGKILL after 10 s. */
function stopProc(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function start(script: string, env: Record<string, string>): { child: ChildProcess; out: () => string } {
  let log = '';
  // BENCH_SCALE_OUT_NODE_FLAGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof": node flags of the engine process and gateways.
  const flags = (process.env.BENCH_SCALE_OUT_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
  const child = spawnTs(path.join(REPO_ROOT, 'apps', 'server', 'src', 'main', 'scale-out', script), [], env, flags);
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  return { child, out: () => log };
}

async function api<T>(base: string, p: string, body?: Record<string, string>): Promise<T> {
  const r = await fetch(`${base}/api/${p}`, {
    method: body === undefined && p.startsWith(API_PATHS.demoOutbox) ? 'GET' : 'POST',
    headers: { lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
    ...(body === undefined ? {} : { body: new URLSearchParams(body).toString() }),
  });
  const env = (await r.json()) as { status: string; errorCode: string; result: T };
  if (env.status !== 'SUCCEED') throw new Error(`${p}: HTTP ${r.status} ${env.errorCode}`);
  return env.result;
}

/** Signs up through gateway `base` (puzzle in test mode, code from the demo outbox); the session works on any gateway. */
async function signUp(base: string, mail: string): Promise<Session> {
  const puzzle = await api<{ challenge: string }>(base, `${API_PATHS.geetestCode}?randomCode=${encodeURIComponent(mail)}`, {});
  const pass = await api<Record<string, string>>(base, API_PATHS.geetestVerify, { challenge: puzzle.challenge, x: '0' });
  await api(base, API_PATHS.sendCode, { account: mail, type: 'REGISTER', ...pass });
  const box = await api<Array<{ code: string }>>(base, `${API_PATHS.demoOutbox}?account=${encodeURIComponent(mail)}`);
  const code = box[0]?.code ?? '';
  return api<Session>(base, API_PATHS.register, {
    registerType: 'EMAIL',
    mail,
    code,
    password: 'Bench-pass-123',
    confirmPassword: 'Bench-pass-123',
    agreement: 'true',
  });
}

function cannon(opts: autocannon.Options): Promise<Measure> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, r) =>
      err
        ? reject(err)
        : resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, non2xx: r.non2xx, errors: r.errors }),
    );
  });
}

/** Both gateways at once: requests/s summed, latency percentiles the worse of the two. */
async function both(bases: string[], sessions: Session[], duration: number): Promise<Measure> {
  let n = 0;
  const runs = await Promise.all(
    bases.map((base) =>
      cannon({
        url: `${base}/api/${API_PATHS.setEntrust}`,
        method: 'POST',
        connections: Math.max(1, Math.floor(CONNECTIONS / bases.length)),
        duration,
        body: ORDER_BODY,
        setupClient: (client) => {
          const s = sessions[n++ % sessions.length]!;
          client.setHeaders({ 'content-type': 'application/x-www-form-urlencoded', lang: 'en', token: s.token, userId: s.userId });
        },
      }),
    ),
  );
  return runs.reduce((a, b) => ({
    rps: a.rps + b.rps,
    p50: Math.max(a.p50, b.p50),
    p99: Math.max(a.p99, b.p99),
    total: a.total + b.total,
    non2xx: a.non2xx + b.non2xx,
    errors: a.errors + b.errors,
  }));
}

/** Runs the benchmark; undefined when NATS_URL or DATABASE_URL is missing or a process could not start (printed). */
export async function runHttpOrderEntryNats(): Promise<{ entry: Measure; hello: Measure } | undefined> {
  heading('2b. HTTP order entry, scale-out mode (one engine, two gateways, NATS JetStream + PostgreSQL) vs Fastify hello-world');
  const natsUrl = process.env.NATS_URL;
  const dbBase = process.env.DATABASE_URL;
  if (!natsUrl || !dbBase) {
    console.log('  skipped: set NATS_URL and DATABASE_URL');
    return undefined;
  }
  const id = randomUUID().replace(/-/g, '').slice(0, 10);
  const prefix = `BENCH${id}`;
  const dbName = `bench_nats_${id}`;
  const admin = new pg.Client({ connectionString: dbBase });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(dbBase);
  url.pathname = `/${dbName}`;
  const env = {
    NATS_URL: natsUrl,
    NATS_PREFIX: prefix,
    DATABASE_URL: url.toString(),
    ...BENCH_SERVER_ENV,
  };
  const procs: ChildProcess[] = [];
  let entry: Measure;
  try {
    const enginePort = await freePort();
    const engine = start('engine-main.ts', { ...env, ENGINE_HTTP_PORT: String(enginePort) });
    procs.push(engine.child);
    await healthy(`http://127.0.0.1:${enginePort}/healthz`, engine.child, engine.out);
    const ports = [await freePort(), await freePort()];
    const gateways = ports.map((p) => start('gateway-main.ts', { ...env, PORT: String(p) }));
    procs.push(...gateways.map((g) => g.child));
    await Promise.all(gateways.map((g, i) => healthy(`http://127.0.0.1:${ports[i]}/healthz`, g.child, g.out)));
    const bases = ports.map((p) => `http://127.0.0.1:${p}`);
    const sessions: Session[] = [];
    for (let u = 0; u < USERS; u++) sessions.push(await signUp(bases[u % 2]!, `bench-nats${u}@example.com`));
    console.log(`  engine :${enginePort}, gateways :${ports.join(', :')}, stream ${prefix}; ${USERS} users signed up through both gateways`);
    await both(bases, sessions, WARMUP_S);
    entry = await both(bases, sessions, DURATION_S);
    console.log(`  order entry: ${fmtInt(entry.total)} requests, ${entry.non2xx} non-2xx, ${entry.errors} errors`);
  } catch (err) {
    console.log(`  skipped: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  } finally {
    // SIGTERM first (a clean stop writes the processes' --cpu-prof files when BENCH_SCALE_OUT_NODE_FLAGS asks).
    await Promise.all(procs.map((c) => stopProc(c)));
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    const nc = await connect({ servers: natsUrl });
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(prefix).catch(() => undefined);
    await jsm.streams.delete(`OBJ_${prefix}-snap`).catch(() => undefined);
    await nc.close();
  }

  const helloPort = await freePort();
  let hlog = '';
  const hello = spawnTs(path.join(import.meta.dirname, 'http', 'hello-server.ts'), [String(helloPort)]);
  hello.stdout?.on('data', (d: Buffer) => (hlog += d.toString()));
  let hw: Measure;
  try {
    await healthy(`http://127.0.0.1:${helloPort}/`, hello, () => hlog);
    await cannon({ url: `http://127.0.0.1:${helloPort}/`, connections: CONNECTIONS, duration: WARMUP_S });
    hw = await cannon({ url: `http://127.0.0.1:${helloPort}/`, connections: CONNECTIONS, duration: DURATION_S });
  } finally {
    hello.kill('SIGKILL');
  }
  console.log(`  ${CONNECTIONS} connections (half on each gateway), ${DURATION_S} s after a ${WARMUP_S} s warm-up:`);
  table([
    ['endpoint', 'req/s', 'p50 ms', 'p99 ms', 'ratio req/s'],
    [
      'POST setEntrust via 2 gateways (JetStream ack)',
      fmtInt(entry.rps),
      String(entry.p50),
      String(entry.p99),
      `${fmtRatio(entry.rps / hw.rps)} of hello (target ${TARGET_RATIO})`,
    ],
    ['GET / Fastify hello-world', fmtInt(hw.rps), String(hw.p50), String(hw.p99), '1.00x'],
  ]);
  return { entry, hello: hw };
}
