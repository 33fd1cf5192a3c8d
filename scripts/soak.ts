/**
 * `npm run soak [-- options]`: the demo under a steady mixed load for a long time, as an operator would run it, and
 * what that costs. Starts the server as the crash loop does (one node process, a temporary DATA_DIR, a free port,
 * PGlite, the liquidity bots running), registers users over HTTP, buys them some base from the bots, then drives
 * orders and cancels (apps/server/test/crash-harness.ts LoadDriver) with the server's own per-user order rate for
 * `--minutes`, and every `--sample-s` prints: the server's RSS and where it is (V8's heap in use, memory outside it,
 * the database worker's heap and PGlite's WebAssembly memory), its event-loop lag (p99, from /metrics), the
 * /healthz latency, the engine's last sequence number, the journal, archive, database and snapshot bytes, and the
 * snapshots taken. At the end: growth per hour of each, the snapshot cadence, and the growth over 30 days at that rate
 * (with whatever JOURNAL_RETENTION the environment sets). Exits 1 when the server dies or stops answering /healthz.
 *
 * The database per table: rows and bytes (pg_total_relation_size: the table with its indexes and TOAST) of every
 * table once the start's k-line backfill is done and the load is about to begin, and again at the end; the growth per
 * hour of each, and its size after 30 days at that rate under the retention rules (each domain's `retention`,
 * platform/db/retention.ts, with the RETENTION_* horizons of the environment: a table whose rules all delete after
 * N < 30 days holds N days of growth; a rule with horizon 0, or no rule, keeps 30 days' worth). With PGlite the
 * server is stopped (SIGTERM) to read its files and started again on them, before and after the load (the second
 * start is the restart after load, timed as the cold start is); with `--database-url` (PostgreSQL: the soak creates
 * a database of its own on that server and drops it at the end unless `--keep`) the tables are read while it runs.
 *
 *   --minutes N     how long the load runs (default 120; the long-run scripts' short version: 10)
 *   --sample-s N    seconds between samples (default 30)
 *   --users N       test users (default 4)
 *   --workers N     concurrent request loops (default 4)
 *   --order-rate N  the server's ORDER_RATE_PER_10S per user (default 50, the server's own default)
 *   --database-url URL  PostgreSQL server to run on (e.g. postgres://postgres@127.0.0.1:5432/postgres; default PGlite)
 *   --keep          keep the data directory (and the PostgreSQL database)
 *   --clock-rate R  run the server's clock R times as fast as the wall clock (R a whole number, default 1): the demo's
 *                   clock control (POST /api/demo/clock/advance) moves it one minute forward every 60/(R-1) s, so
 *                   every structure bounded by a window of command time (the engine's 24-hour idempotency keys, the
 *                   24-hour ticker windows, the retention horizons) fills in 24/R hours of soak and its plateau can be
 *                   seen; a `clock h` column gives the hours of command time. Funding, interest and k-line bars then
 *                   come R times as often, so the disk growth per hour is not the real rate of such a run
 *   --heap-snapshots DIR  write a V8 heap snapshot of the server into DIR after the first sample, at the middle of
 *                   the load and at its end (node's --heapsnapshot-signal; each blocks the server for a few seconds),
 *                   to compare in Chrome's DevTools (Memory, Comparison) where memory grows
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { API_PATHS } from '@exchange/api';
import { pow10 } from '@exchange/core';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import {
  ApiClient,
  DEFAULT_OPTIONS,
  freePort,
  LoadDriver,
  loadMarkets,
  Model,
  refreshDepth,
  registerUser,
  REPO_ROOT,
  ServerProcess,
  sleep,
  type User,
} from '../apps/server/test/crash-harness';

interface Options {
  minutes: number;
  sampleS: number;
  users: number;
  workers: number;
  orderRate: number;
  keep: boolean;
  databaseUrl: string | undefined;
  heapSnapshots: string | undefined;
  clockRate: number;
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    minutes: 120,
    sampleS: 30,
    users: 4,
    workers: 4,
    orderRate: 50,
    keep: false,
    databaseUrl: undefined,
    heapSnapshots: undefined,
    clockRate: 1,
  };
  const int = (flag: string, v: string | undefined): number => {
    if (v === undefined || !/^[0-9]+$/.test(v)) throw new Error(`${flag} needs a whole number`);
    return Number.parseInt(v, 10);
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const v = argv[i + 1];
    if (flag === '--keep') {
      o.keep = true;
      continue;
    }
    if (flag === '--heap-snapshots') {
      if (!v) throw new Error('--heap-snapshots needs a directory');
      o.heapSnapshots = path.resolve(v);
      i++;
      continue;
    }
    if (flag === '--database-url') {
      if (!v || !/^postgres(ql)?:\/\//.test(v)) throw new Error('--database-url needs a postgres:// URL');
      o.databaseUrl = v;
      i++;
      continue;
    }
    const key = (
      {
        '--minutes': 'minutes',
        '--sample-s': 'sampleS',
        '--users': 'users',
        '--workers': 'workers',
        '--order-rate': 'orderRate',
        '--clock-rate': 'clockRate',
      } as const
    )[flag];
    if (key === undefined) throw new Error(`unknown option ${flag}`);
    o[key] = int(flag, v);
    i++;
  }
  if (o.clockRate < 1) throw new Error('--clock-rate needs a whole number of at least 1');
  return o;
}

/** Bytes of every file under `dir` (0 when it does not exist). */
function bytesUnder(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let n = 0;
  for (const f of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]) {
    const st = fs.statSync(path.join(dir, f), { throwIfNoEntry: false });
    if (st?.isFile()) n += st.size;
  }
  return n;
}

/** Waits (at most 2 minutes) until `dir` holds `n` heap snapshots and the newest has stopped growing. */
async function heapSnapshotsWritten(dir: string, n: number): Promise<void> {
  let last = -1;
  for (const t = Date.now(); Date.now() - t < 120_000; await sleep(2000)) {
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot'));
    const size = files.reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0);
    if (files.length >= n && size === last) {
      console.log(`heap snapshots in ${dir}: ${files.sort().join(', ')}`);
      return;
    }
    last = size;
  }
  console.error(`heap snapshots: fewer than ${n} written in ${dir}`);
}

/** GET `p` on the server: status, body and milliseconds. */
function get(port: number, p: string): Promise<{ status: number; body: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: p, timeout: 10_000, agent: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - t0 }));
    });
    req.on('error', () => resolve({ status: 0, body: '', ms: performance.now() - t0 }));
    req.on('timeout', () => {
      req.destroy();
      resolve({ status: 0, body: '', ms: performance.now() - t0 });
    });
  });
}

/** A metric's value in Prometheus text (the first sample of that name, without labels), or NaN. */
function metric(text: string, name: string): number {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)$`, 'm').exec(text);
  return m ? Number(m[1]) : Number.NaN;
}

/** The resident set size of process `pid` in bytes (Linux /proc), or NaN. */
function rssOf(pid: number | undefined): number {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(s);
    return m ? Number(m[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** One table's size: live rows (count(*)) and bytes with its indexes and TOAST (pg_total_relation_size). */
interface TableSize {
  rows: number;
  bytes: number;
}

/** Runs one query and answers its rows (PGlite or node-postgres). */
type Query = (text: string) => Promise<Array<Record<string, unknown>>>;

/** Rows and bytes of every table of the public schema, by name. */
async function tableSizes(query: Query): Promise<Map<string, TableSize>> {
  const names = (await query(`select tablename from pg_tables where schemaname = 'public' order by 1`)).map((r) => String(r.tablename));
  const out = new Map<string, TableSize>();
  if (names.length === 0) return out;
  const union = names
    .map((n) => `select '${n}' as t, (select count(*) from "${n}")::bigint as rows, pg_total_relation_size('public."${n}"')::bigint as bytes`)
    .join(' union all ');
  for (const r of await query(union)) out.set(String(r.t), { rows: Number(r.rows), bytes: Number(r.bytes) });
  return out;
}

/** The table sizes of a stopped server's PGlite directory (opened here, then closed). */
async function pgliteSizes(dir: string): Promise<Map<string, TableSize>> {
  const db = new PGlite(dir);
  try {
    return await tableSizes(async (text) => (await db.query<Record<string, unknown>>(text)).rows);
  } finally {
    await db.close();
  }
}

/** The table sizes of a PostgreSQL database. */
async function postgresSizes(url: string): Promise<Map<string, TableSize>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await tableSizes(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
  } finally {
    await client.end();
  }
}

/**
 * Days of growth each table holds at most under the retention rules (table name -> days; absent: no rule). A table
 * whose rules all have a horizon holds the longest of them; one rule with horizon 0 (kept for ever) keeps it all.
 * The rules are the server's own (main/domains.ts DOMAINS), loaded here once the load is over.
 */
async function retentionDays(): Promise<Map<string, number>> {
  const [{ DOMAINS }, { retentionOf }, { loadConfig }, { getTableName }] = await Promise.all([
    import('../apps/server/src/main/domains'),
    import('../apps/server/src/platform/db/retention'),
    import('../apps/server/src/platform/config/env'),
    import('drizzle-orm'),
  ]);
  const retention = loadConfig(process.env).retention;
  const days = new Map<string, number>();
  for (const rule of retentionOf(DOMAINS)) {
    const name = getTableName(rule.table);
    const d = rule.horizonDays(retention);
    const before = days.get(name);
    days.set(name, before === 0 || d === 0 ? 0 : Math.max(before ?? 0, d));
  }
  return days;
}

/** Prints each table's growth between `a` and `b` over `hours`, and its size after 30 days under `keptDays`. */
function printTableGrowth(a: Map<string, TableSize>, b: Map<string, TableSize>, hours: number, keptDays: Map<string, number>): void {
  const rows: Array<{ name: string; a: TableSize; b: TableSize; rowsH: number; bytesH: number; days: number; rule: string }> = [];
  for (const [name, end] of b) {
    const start = a.get(name) ?? { rows: 0, bytes: 0 };
    const kept = keptDays.get(name);
    const days = kept === undefined || kept === 0 ? 30 : Math.min(30, kept);
    const rule = kept === undefined ? 'none' : kept === 0 ? 'kept' : `${kept} d`;
    rows.push({ name, a: start, b: end, rowsH: (end.rows - start.rows) / hours, bytesH: (end.bytes - start.bytes) / hours, days, rule });
  }
  rows.sort((x, y) => y.bytesH - x.bytesH || x.name.localeCompare(y.name));
  console.log('\ndatabase per table (rows; bytes with indexes), growth per hour and after 30 days at that rate under the retention rules:');
  console.log('  table                             rows start -> end       rows/h      MB start -> end    MB/h  retention  30 days: rows        MB');
  let total30 = 0;
  for (const r of rows) {
    const rows30 = r.b.rows + Math.max(0, r.rowsH) * 24 * r.days;
    const bytes30 = r.b.bytes + Math.max(0, r.bytesH) * 24 * r.days;
    total30 += bytes30;
    if (r.a.rows === r.b.rows && r.a.bytes === r.b.bytes && r.b.rows === 0) continue;
    console.log(
      `  ${r.name.padEnd(32)} ${String(r.a.rows).padStart(9)} -> ${String(r.b.rows).padEnd(9)} ${f1(r.rowsH).padStart(9)} ${f1(r.a.bytes / MB).padStart(8)} -> ${f1(r.b.bytes / MB).padEnd(8)} ${f1(r.bytesH / MB).padStart(6)}  ${r.rule.padStart(9)}  ${String(Math.round(rows30)).padStart(11)} ${f1(bytes30 / MB).padStart(9)}`,
    );
  }
  const startTotal = [...a.values()].reduce((x, t) => x + t.bytes, 0);
  const endTotal = [...b.values()].reduce((x, t) => x + t.bytes, 0);
  console.log(`  all tables: ${f1(startTotal / MB)} -> ${f1(endTotal / MB)} MB; after 30 days at this rate under the retention rules: ${f1(total30 / MB)} MB`);
}

/** The server's account of its start: spawn to /healthz and /readyz, and its own phases (main/server.ts, main/context.ts). */
function printStart(label: string, server: ServerProcess): void {
  console.log(`${label}: spawn to /healthz ${server.healthMs} ms, to /readyz ${server.readyMs} ms`);
  for (const l of server.tail(400).split('\n')) if (l.includes('"context ready"') || l.includes('"exchange server listening"')) console.log(`  ${l}`);
}

interface Sample {
  t: number;
  rss: number;
  /** V8's heap in use and the memory outside it that V8 knows of (ArrayBuffers, PGlite's WebAssembly memory ...). */
  heapUsed: number;
  external: number;
  /** The database worker thread's V8 heap in use and PGlite's WebAssembly memory (NaN when the server has none). */
  dbHeapUsed: number;
  pglite: number;
  lagP99Ms: number;
  healthMs: number;
  seq: number;
  journal: number;
  archive: number;
  database: number;
  snapshots: number;
  snapshotFiles: number;
  acks: number;
  /** The server clock's offset from the wall clock (ms; 0 unless --clock-rate moves it). */
  clockOffsetMs: number;
}

const MB = 1024 * 1024;
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');

async function main(): Promise<number> {
  const o = parseArgs(process.argv.slice(2));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-soak-'));
  const port = await freePort();
  console.log(`soak: ${o.minutes} min, ${o.users} users, ${o.workers} workers, ORDER_RATE_PER_10S ${o.orderRate}, data ${dataDir}, port ${port}`);
  // With PostgreSQL, a database of the soak's own on the given server.
  let databaseUrl: string | undefined;
  if (o.databaseUrl) {
    const name = `soak_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: o.databaseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(o.databaseUrl);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    console.log(`PostgreSQL database ${name}`);
  }
  const serverOptions = {
    root: REPO_ROOT,
    dataDir,
    port,
    marketMakers: true,
    orderRatePer10s: o.orderRate,
    startTimeoutMs: 600_000,
    databaseUrl,
    nodeArgs: o.heapSnapshots ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${o.heapSnapshots}`] : [],
  };
  if (o.heapSnapshots) fs.mkdirSync(o.heapSnapshots, { recursive: true });
  const sizes = () => (databaseUrl ? postgresSizes(databaseUrl) : pgliteSizes(path.join(dataDir, 'pglite')));
  let server = await ServerProcess.start(serverOptions);
  printStart('cold start (fresh data directory)', server);
  let code = 0;
  let tablesBefore = new Map<string, TableSize>();
  try {
    const client = new ApiClient(port);
    const model = new Model(`soak${Date.now().toString(36)}`);
    const users: User[] = [];
    for (let i = 0; i < o.users; i++) {
      const mail = `soak-${Date.now().toString(36)}-u${i}@example.com`;
      users.push({ index: i, mail, password: 'Soak-test-1', session: await registerUser(client, mail, 'Soak-test-1') });
    }
    const markets = [...(await loadMarkets(client, DEFAULT_OPTIONS.symbols, users[0]!.session)).values()];
    for (const m of markets) {
      for (let t = Date.now(); ;) {
        await refreshDepth(client, m);
        if (m.bestAsk !== null && m.bestBid !== null) break;
        if (Date.now() - t > 120_000) throw new Error(`no liquidity-bot ladder on ${m.symbol}`);
        await sleep(500);
      }
    }
    const boot = new LoadDriver(client, users, markets, model, 0, 1, { workers: 0, notional: DEFAULT_OPTIONS.notional, maxOpenPerUser: 30 });
    for (const u of users) for (const m of markets) await boot.place(u.index, m, { side: 'BUY', orderType: 'MARKET', total: 1000n * pow10(m.quoteScale) });
    // The start's k-line backfill (spot and contract, in the background) is a one-off: the growth is measured after it.
    for (const t = Date.now(); Date.now() - t < 300_000; await sleep(1000)) {
      if (
        server
          .tail(400)
          .split('\n')
          .filter((l) => l.includes('k-line history backfilled')).length >= 2
      )
        break;
    }
    if (databaseUrl) tablesBefore = await sizes();
    else {
      await server.stop('SIGTERM');
      tablesBefore = await sizes();
      server = await ServerProcess.start(serverOptions);
      printStart('restart before the load', server);
    }
    const load = new LoadDriver(client, users, markets, model, 1, 1, { workers: o.workers, notional: DEFAULT_OPTIONS.notional, maxOpenPerUser: 30 });
    load.start();
    // --clock-rate: the server's clock one minute forward every 60/(R-1) s, while the load runs.
    let clockOffsetMs = 0;
    let clockRunning = o.clockRate > 1;
    const clockLoop = (async () => {
      for (let next = Date.now(); clockRunning;) {
        next += 60_000 / (o.clockRate - 1);
        await sleep(Math.max(0, next - Date.now()));
        if (!clockRunning) break;
        try {
          clockOffsetMs = (await client.write<{ offsetMs: number }>(API_PATHS.demoAdvanceClock, { minutes: 1 })).offsetMs;
        } catch (err) {
          console.error(`clock advance: ${String(err)}`);
        }
      }
    })();

    const samples: Sample[] = [];
    const seen = new Set<string>();
    let snapshots = 0;
    let midSnapshot = false;
    const end = Date.now() + o.minutes * 60_000;
    console.log(
      '   min   rss MB  heap MB  ext MB  db heap MB  pglite MB  lag p99 ms  healthz ms       seq  journal MB  archive MB  database MB  snapshots  acks  clock h',
    );
    for (;;) {
      const health = await get(port, '/healthz');
      const metrics = await get(port, '/metrics');
      for (const f of fs.existsSync(path.join(dataDir, 'snapshots')) ? fs.readdirSync(path.join(dataDir, 'snapshots')) : []) {
        if (!seen.has(f) && !f.endsWith('.tmp')) {
          seen.add(f);
          snapshots++;
        }
      }
      const s: Sample = {
        t: Date.now(),
        rss: rssOf(server.child.pid),
        heapUsed: metric(metrics.body, 'nodejs_heap_size_used_bytes'),
        external: metric(metrics.body, 'nodejs_external_memory_bytes'),
        dbHeapUsed: metric(metrics.body, 'exchange_db_worker_heap_used_bytes'),
        pglite: metric(metrics.body, 'exchange_pglite_memory_bytes'),
        lagP99Ms: metric(metrics.body, 'nodejs_eventloop_lag_p99_seconds') * 1000,
        healthMs: health.ms,
        seq: metric(metrics.body, 'exchange_engine_last_seq'),
        journal: bytesUnder(path.join(dataDir, 'journal')),
        archive: bytesUnder(path.join(dataDir, 'journal-archive')),
        database: bytesUnder(path.join(dataDir, 'pglite')),
        snapshots,
        snapshotFiles: seen.size,
        acks: load.acks,
        clockOffsetMs,
      };
      samples.push(s);
      // Heap snapshots after the first sample, at the middle and at the end (the last one after the loop's end test).
      const atMiddle = samples.length > 1 && s.t - samples[0]!.t >= (end - samples[0]!.t) / 2 && !midSnapshot;
      if (o.heapSnapshots && (samples.length === 1 || atMiddle || Date.now() >= end)) {
        if (atMiddle) midSnapshot = true;
        server.child.kill('SIGUSR2');
      }
      console.log(
        `${f1((s.t - samples[0]!.t) / 60_000).padStart(6)} ${f1(s.rss / MB).padStart(8)} ${f1(s.heapUsed / MB).padStart(8)} ${f1(s.external / MB).padStart(7)} ${f1(s.dbHeapUsed / MB).padStart(11)} ${f1(s.pglite / MB).padStart(10)} ${f1(s.lagP99Ms).padStart(11)} ${f1(s.healthMs).padStart(11)} ${String(s.seq).padStart(9)} ${f1(s.journal / MB).padStart(11)} ${f1(s.archive / MB).padStart(11)} ${f1(s.database / MB).padStart(12)} ${String(s.snapshots).padStart(10)} ${String(s.acks).padStart(5)} ${f1((s.t - samples[0]!.t + s.clockOffsetMs - samples[0]!.clockOffsetMs) / 3_600_000).padStart(8)}`,
      );
      if (server.exited || health.status !== 200) {
        console.error(`the server ${server.exited ? 'died' : `answered /healthz ${health.status}`}:\n${server.tail()}`);
        code = 1;
        break;
      }
      if (Date.now() >= end) break;
      await sleep(Math.min(o.sampleS * 1000, Math.max(0, end - Date.now())));
    }
    clockRunning = false;
    await clockLoop;
    await load.stop().catch((err: unknown) => console.error(`load: ${String(err)}`));
    if (o.heapSnapshots) await heapSnapshotsWritten(o.heapSnapshots, 3);
    // The tables at the end (PGlite: the server stopped), then the restart after the load, timed.
    let tablesAfter: Map<string, TableSize>;
    if (databaseUrl) tablesAfter = await sizes();
    else {
      await server.stop('SIGTERM');
      tablesAfter = await sizes();
    }
    if (!server.exited) await server.stop('SIGTERM');
    server = await ServerProcess.start(serverOptions);
    printStart(`restart after ${o.minutes} min of load`, server);
    const a = samples[0]!;
    const b = samples[samples.length - 1]!;
    const hours = (b.t - a.t) / 3_600_000;
    if (hours > 0) {
      const perHour = (x: number, y: number) => (y - x) / hours;
      const cmds = perHour(a.seq, b.seq);
      console.log(`\nover ${f1(hours * 60)} min: ${f1(cmds / 3600)} commands/s, ${b.acks} acknowledged load commands`);
      for (const [name, x, y] of [
        ['journal', a.journal, b.journal],
        ['archive', a.archive, b.archive],
        ['database', a.database, b.database],
        ['rss', a.rss, b.rss],
        ['heap used', a.heapUsed, b.heapUsed],
        ['external', a.external, b.external],
        ['db heap', a.dbHeapUsed, b.dbHeapUsed],
        ['pglite', a.pglite, b.pglite],
      ] as const)
        console.log(
          `${name.padEnd(9)} ${f1(x / MB)} -> ${f1(y / MB)} MB: ${f1(perHour(x, y) / MB)} MB/h, 30 days at this rate: ${f1((perHour(x, y) * 720) / 1024 / MB)} GB`,
        );
      const lags = samples.map((s) => s.lagP99Ms).filter(Number.isFinite);
      const hz = samples.map((s) => s.healthMs).sort((x, y) => x - y);
      console.log(
        `event-loop lag p99: max ${f1(Math.max(...lags))} ms; /healthz: median ${f1(hz[Math.floor(hz.length / 2)]!)} ms, max ${f1(hz[hz.length - 1]!)} ms`,
      );
      console.log(
        `snapshots: ${b.snapshots} taken (${b.snapshotFiles} files seen), one per ${b.snapshots > 0 ? f1((b.t - a.t) / 60_000 / b.snapshots) : '-'} min`,
      );
      printTableGrowth(tablesBefore, tablesAfter, hours, await retentionDays());
    }
  } catch (err) {
    console.error(`soak failed: ${err instanceof Error ? err.message : String(err)}\n${server.tail()}`);
    code = 1;
  } finally {
    await server.stop('SIGTERM');
    if (!o.keep && code === 0) fs.rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl && o.databaseUrl && !o.keep && code === 0) {
      const admin = new pg.Client({ connectionString: o.databaseUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${new URL(databaseUrl).pathname.slice(1)}`);
      await admin.end();
    }
  }
  return code;
}

main().then(
  (c) => process.exit(c),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
