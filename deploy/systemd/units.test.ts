/**
 * Proves the systemd units of deploy/systemd (docs/deploy.md "Supervisors"): each passes `systemd-analyze verify`
 * (the systemd of this machine: an unknown key, a bad value or a missing executable fails it); each ExecStart runs a
 * real entry of the repository (the scale-out mains through tsx, the embedded server's bundle that
 * apps/server/scripts/build.mjs writes); every Environment key of the units and of the example environment files
 * is one that apps/server/src/platform/config/env.ts reads; each restarts always with a delay and a start limit,
 * stops with SIGTERM with time for the graceful stop, runs as its own user with a read-only system except its
 * state directory (where DATA_DIR is); and the start order is what the processes need (NATS and PostgreSQL, then
 * the engine process, then the gateways, which must not be stopped with the engine process).
 *
 * Then it supervises: systemd cannot run units on this machine (it is not PID 1, `systemd-run --user` has no bus,
 * `systemd --user` exits at once), so the test does what Restart=always does, with the unit's own command line,
 * working directory and environment (the example files, with this machine's NATS, a fresh PostgreSQL database, a
 * stream of its own, free ports and a temporary DATA_DIR): it starts the engine process and a gateway, SIGKILLs each,
 * starts it again after the unit's RestartSec, and checks that it is healthy again (the gateway ready: its replica
 * rebuilt from the stream) and that an order placed before the kill is still there. Needs NATS_URL and DATABASE_URL
 * (skipped without them).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNatsJournal } from '../../apps/server/src/platform/engine-port/nats-journal';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
const UNITS_DIR = import.meta.dirname;
/** Where the units expect the repository (WorkingDirectory); mapped to this checkout to run them. */
const INSTALL_DIR = '/opt/exchange';

/** A unit file's settings: section -> key -> values in order (a key may repeat, e.g. Environment). */
type Unit = Record<string, Record<string, string[]>>;

/** Parses a systemd unit file (comments, sections, key=value; no line continuations are used in ours). */
function parseUnit(file: string): Unit {
  const unit: Unit = {};
  let section = '';
  for (const raw of fs.readFileSync(file, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[(.+)\]$/.exec(line);
    if (head) {
      section = head[1]!;
      unit[section] ??= {};
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0) throw new Error(`${file}: not key=value: ${line}`);
    const key = line.slice(0, eq).trim();
    (unit[section]![key] ??= []).push(line.slice(eq + 1).trim());
  }
  return unit;
}

/** The one value of `key` in `section` (throws when absent or repeated). */
function one(unit: Unit, section: string, key: string): string {
  const v = unit[section]?.[key];
  if (v?.length !== 1) throw new Error(`[${section}] ${key}: expected one value, got ${JSON.stringify(v)}`);
  return v[0]!;
}

/** A list setting (After=, Wants=): every value split on spaces. */
function list(unit: Unit, section: string, key: string): string[] {
  return (unit[section]?.[key] ?? []).flatMap((v) => v.split(/\s+/)).filter((s) => s !== '');
}

/** Seconds of a systemd time span as our units write them (plain seconds, or with s / min). */
function seconds(span: string): number {
  const m = /^(\d+)\s*(s|sec|min)?$/.exec(span);
  if (!m) throw new Error(`time span not understood: ${span}`);
  return Number(m[1]) * (m[2] === 'min' ? 60 : 1);
}

/** KEY=value lines of an environment file (comments and blank lines skipped). */
function envFile(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of fs.readFileSync(file, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

/** Environment= assignments of `unit` with the instance name `instance` put in for %i. */
function unitEnv(unit: Unit, instance = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of unit.Service?.Environment ?? []) {
    const eq = v.indexOf('=');
    out[v.slice(0, eq)] = v.slice(eq + 1).replaceAll('%i', instance);
  }
  return out;
}

/** The example environment file of an EnvironmentFile= path (/etc/exchange/x.env -> deploy/systemd/x.env.example). */
function exampleOf(envFilePath: string, instance: string): string {
  return path.join(UNITS_DIR, `${path.basename(envFilePath.replace(/^-/, '').replaceAll('%i', instance))}.example`);
}

/** The environment variable names apps/server/src/platform/config/env.ts reads (`env.NAME`). */
function configKeys(): Set<string> {
  const src = fs.readFileSync(path.join(REPO_ROOT, 'apps/server/src/platform/config/env.ts'), 'utf8');
  return new Set([...src.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)].map((m) => m[1]!));
}

const UNITS = {
  engine: 'exchange-engine.service',
  gateway: 'exchange-gateway@.service',
  embedded: 'exchange-embedded.service',
} as const;
const units = Object.fromEntries(Object.entries(UNITS).map(([k, f]) => [k, parseUnit(path.join(UNITS_DIR, f))])) as Record<keyof typeof UNITS, Unit>;

describe('the systemd units', () => {
  it('pass systemd-analyze verify with no warning', () => {
    const found = spawnSync('systemd-analyze', ['--version']);
    expect(found.status, 'systemd-analyze is needed to verify the units').toBe(0);
    // a template is verified through an instance name next to it
    for (const name of ['exchange-engine.service', 'exchange-embedded.service', 'exchange-gateway@1.service']) {
      const r = spawnSync('systemd-analyze', ['verify', path.join(UNITS_DIR, name)], { encoding: 'utf8' });
      expect([name, r.status, r.stderr.trim(), r.stdout.trim()]).toEqual([name, 0, '', '']);
    }
  });

  it('start a real entry of the repository, in the install directory', () => {
    const bundleEntries = fs.readFileSync(path.join(REPO_ROOT, 'apps/server/scripts/build.mjs'), 'utf8');
    for (const [name, unit] of Object.entries(units)) {
      expect(one(unit, 'Service', 'WorkingDirectory'), name).toBe(INSTALL_DIR);
      const argv = one(unit, 'Service', 'ExecStart').split(/\s+/);
      expect(argv.slice(0, 2), name).toEqual(['/usr/bin/env', 'node']);
      const script = argv[argv.length - 1]!;
      if (name === 'embedded') {
        // the bundle build.mjs writes: entry `server` of src/main/server.ts into dist/bin
        expect(script).toBe('apps/server/dist/bin/server.js');
        expect(bundleEntries).toMatch(/server: 'src\/main\/server\.ts'/);
        expect(bundleEntries).toMatch(/outdir: 'dist\/bin'/);
        expect(argv).not.toContain('tsx');
      } else {
        expect(fs.existsSync(path.join(REPO_ROOT, script)), `${name}: ${script}`).toBe(true);
        expect(script).toBe(`apps/server/src/main/scale-out/${name}-main.ts`);
        expect(argv.slice(-3, -1)).toEqual(['--import', 'tsx']);
        expect(fs.existsSync(path.join(REPO_ROOT, 'node_modules/tsx/package.json'))).toBe(true);
      }
    }
  });

  it('set only environment keys the server reads, and every example file exists', () => {
    const known = configKeys();
    expect(known.has('DATABASE_URL') && known.has('NATS_URL') && known.has('PORT')).toBe(true);
    for (const [name, unit] of Object.entries(units)) {
      const keys = Object.keys(unitEnv(unit, '1'));
      for (const f of unit.Service?.EnvironmentFile ?? []) {
        const example = exampleOf(f, '1');
        expect(fs.existsSync(example), `${name}: ${example}`).toBe(true);
        keys.push(...Object.keys(envFile(example)));
        // commented keys in the examples too (the settings one may turn on)
        const commented = [...fs.readFileSync(example, 'utf8').matchAll(/^#\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
        keys.push(...commented);
      }
      expect(
        keys.filter((k) => !known.has(k)),
        name,
      ).toEqual([]);
    }
  });

  it('restart always, with a delay and a start limit, and stop gracefully on SIGTERM', () => {
    for (const [name, unit] of Object.entries(units)) {
      expect([name, one(unit, 'Service', 'Restart')]).toEqual([name, 'always']);
      expect(seconds(one(unit, 'Service', 'RestartSec')), name).toBeGreaterThanOrEqual(1);
      const interval = seconds(one(unit, 'Unit', 'StartLimitIntervalSec'));
      const burst = Number(one(unit, 'Unit', 'StartLimitBurst'));
      // the limit must let a crash loop retry for a while (burst x delay inside the interval) before it gives up
      expect(burst * seconds(one(unit, 'Service', 'RestartSec')), name).toBeLessThanOrEqual(interval);
      expect(burst, name).toBeGreaterThanOrEqual(5);
      expect(one(unit, 'Service', 'KillSignal'), name).toBe('SIGTERM');
      expect(seconds(one(unit, 'Service', 'TimeoutStopSec')), name).toBeGreaterThanOrEqual(60);
      expect(Number(one(unit, 'Service', 'LimitNOFILE')), name).toBeGreaterThanOrEqual(65536);
    }
  });

  it('run as their own user, the system read-only but for the state directory that holds DATA_DIR', () => {
    for (const [name, unit] of Object.entries(units)) {
      expect([one(unit, 'Service', 'User'), one(unit, 'Service', 'Group')], name).toEqual(['exchange', 'exchange']);
      expect(one(unit, 'Service', 'ProtectSystem'), name).toBe('strict');
      expect(one(unit, 'Service', 'NoNewPrivileges'), name).toBe('yes');
      const writable = one(unit, 'Service', 'ReadWritePaths');
      expect(writable, name).toBe(`/var/lib/${one(unit, 'Service', 'StateDirectory')}`);
      const dataDir = unitEnv(unit, '1').DATA_DIR!;
      expect(dataDir.startsWith(`${writable}/`), `${name}: DATA_DIR ${dataDir}`).toBe(true);
    }
  });

  it('start in the order the processes need', () => {
    const deps = (u: Unit) => ({ after: list(u, 'Unit', 'After'), wants: list(u, 'Unit', 'Wants') });
    // the engine process: after NATS and PostgreSQL (it runs the migrations and creates the stream)
    const engine = deps(units.engine);
    for (const need of ['nats-server.service', 'postgresql.service', 'network-online.target']) {
      expect(engine.after).toContain(need);
      expect(engine.wants).toContain(need);
    }
    // a gateway: after the engine process too (the genesis record), wanting it but never bound to it
    const gw = deps(units.gateway);
    for (const need of ['nats-server.service', 'postgresql.service', 'exchange-engine.service']) {
      expect(gw.after).toContain(need);
      expect(gw.wants).toContain(need);
    }
    for (const binding of ['Requires', 'BindsTo', 'PartOf', 'Requisite']) expect(list(units.gateway, 'Unit', binding)).toEqual([]);
    // the embedded server needs neither NATS nor the engine process
    expect(list(units.embedded, 'Unit', 'After')).not.toContain('exchange-engine.service');
    expect(list(units.embedded, 'Unit', 'Wants')).not.toContain('nats-server.service');
    // each is enabled for the boot
    for (const u of Object.values(units)) expect(one(u, 'Install', 'WantedBy')).toBe('multi-user.target');
  });
});

const NATS_URL = process.env.NATS_URL;
const DATABASE_URL = process.env.DATABASE_URL;

/** A free TCP port chosen by the kernel. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** GET `url`: its status (0 when it does not answer). */
async function status(url: string): Promise<number> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).status;
  } catch {
    return 0;
  }
}

/** One run of a unit's ExecStart: the child and its last output lines. */
interface Run {
  child: ChildProcess;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: string[];
}

describe.skipIf(!NATS_URL || !DATABASE_URL)('supervision by the units', () => {
  const prefix = `U${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const dbName = `deploy_units_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-units-'));
  const runs: Run[] = [];
  let dbUrl = '';

  /** The environment systemd gives `unit` (Environment=, then each EnvironmentFile= in order), with this machine's addresses. */
  function environmentOf(unit: Unit, instance: string, local: Record<string, string>): NodeJS.ProcessEnv {
    const env: Record<string, string> = { ...unitEnv(unit, instance) };
    for (const f of unit.Service?.EnvironmentFile ?? []) Object.assign(env, envFile(exampleOf(f, instance)));
    // the unit's DATA_DIR under its state directory, moved into this test's temporary directory
    env.DATA_DIR = env.DATA_DIR!.replace('/var/lib/exchange', stateDir);
    return { PATH: process.env.PATH, HOME: stateDir, ...env, ...local };
  }

  /** Starts `unit`'s ExecStart as systemd would (argv as written, WorkingDirectory mapped to this checkout). */
  function execStart(unit: Unit, env: NodeJS.ProcessEnv): Run {
    const [cmd, ...args] = one(unit, 'Service', 'ExecStart').split(/\s+/);
    const cwd = one(unit, 'Service', 'WorkingDirectory').replace(INSTALL_DIR, REPO_ROOT);
    const child = spawn(cmd!, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    const keep = (b: Buffer) => {
      output.push(
        ...b
          .toString()
          .split('\n')
          .filter((l) => l !== ''),
      );
      output.splice(0, Math.max(0, output.length - 40));
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const run = { child, exit, output };
    runs.push(run);
    return run;
  }

  /** Waits until `url` answers 200 (throws with the process's output when it exits or the time is up). */
  async function until200(run: Run, url: string, withinMs = 120_000): Promise<number> {
    const started = performance.now();
    let exited = false;
    void run.exit.then(() => (exited = true));
    for (;;) {
      if ((await status(url)) === 200) return performance.now() - started;
      if (exited) throw new Error(`exited before ${url} answered 200:\n${run.output.join('\n')}`);
      if (performance.now() - started > withinMs) throw new Error(`${url} not 200 in ${withinMs} ms:\n${run.output.join('\n')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /**
   * What Restart=always does when the unit's main process dies: it records the exit, waits RestartSec and runs
   * ExecStart again (the start limit is not reached by one restart). Answers the new run.
   */
  async function killAndRestart(
    unit: Unit,
    run: Run,
    env: NodeJS.ProcessEnv,
  ): Promise<{ exit: { code: number | null; signal: NodeJS.Signals | null }; next: Run }> {
    expect(one(unit, 'Service', 'Restart')).toBe('always');
    run.child.kill('SIGKILL');
    const exit = await run.exit;
    await new Promise((r) => setTimeout(r, seconds(one(unit, 'Service', 'RestartSec')) * 1000));
    return { exit, next: execStart(unit, env) };
  }

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(DATABASE_URL!);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
  });

  afterAll(async () => {
    for (const r of runs) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
    await Promise.all(runs.map((r) => r.exit));
    const journal = await openNatsJournal(NATS_URL!, prefix, { name: 'deploy-units-test' }).catch(() => null);
    await journal?.destroy();
    await journal?.close();
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it('the engine process and a gateway, each killed with SIGKILL, come back healthy from their unit command', async () => {
    const [enginePort, gwPort] = [await freePort(), await freePort()];
    const shared = { NATS_URL: NATS_URL!, NATS_PREFIX: prefix, NATS_REPLICAS: '1', DATABASE_URL: dbUrl, HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    const engineEnv = environmentOf(units.engine, '', { ...shared, ENGINE_HTTP_PORT: String(enginePort) });
    const gwEnv = environmentOf(units.gateway, '1', { ...shared, PORT: String(gwPort) });
    expect([engineEnv.NODE_ENV, gwEnv.NODE_ENV, gwEnv.CHAIN_JOBS, gwEnv.MARKET_MAKERS]).toEqual(['production', 'production', '1', '1']);
    const engineUrl = `http://127.0.0.1:${enginePort}`;
    const gwUrl = `http://127.0.0.1:${gwPort}`;

    let engine = execStart(units.engine, engineEnv);
    const engineFirstMs = await until200(engine, `${engineUrl}/healthz`);
    let gw = execStart(units.gateway, gwEnv);
    const gwFirstMs = await until200(gw, `${gwUrl}/readyz`);
    const seqBefore = ((await (await fetch(`${engineUrl}/state`)).json()) as { lastSeq: number }).lastSeq;

    // the gateway dies: the unit starts it again; it rebuilds its replica and is ready
    const g = await killAndRestart(units.gateway, gw, gwEnv);
    expect(g.exit).toEqual({ code: null, signal: 'SIGKILL' });
    gw = g.next;
    const gwAgainMs = await until200(gw, `${gwUrl}/readyz`);

    // the engine process dies: the gateway stays ready meanwhile; the unit starts the engine again
    const e = await killAndRestart(units.engine, engine, engineEnv);
    expect(e.exit).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await status(`${gwUrl}/healthz`)).toBe(200);
    engine = e.next;
    const engineAgainMs = await until200(engine, `${engineUrl}/healthz`);
    const seqAfter = ((await (await fetch(`${engineUrl}/state`)).json()) as { lastSeq: number }).lastSeq;
    // the restarted engine resumed the same stream (the market makers of gateway 1 may have added commands since)
    expect(seqAfter).toBeGreaterThanOrEqual(seqBefore);
    expect(seqBefore).toBeGreaterThan(0);

    // a graceful stop (the unit's KillSignal) ends each within its TimeoutStopSec, exit code 0
    for (const [unit, run] of [
      [units.gateway, gw],
      [units.engine, engine],
    ] as const) {
      const started = performance.now();
      run.child.kill(one(unit, 'Service', 'KillSignal') as NodeJS.Signals);
      expect((await run.exit).code).toBe(0);
      expect(performance.now() - started).toBeLessThan(seconds(one(unit, 'Service', 'TimeoutStopSec')) * 1000);
    }
    console.log(
      `units supervision: engine healthy in ${Math.round(engineFirstMs)} ms, again ${Math.round(engineAgainMs)} ms after its restart; ` +
        `gateway ready in ${Math.round(gwFirstMs)} ms, again ${Math.round(gwAgainMs)} ms after its restart (RestartSec not included); stream at ${seqBefore} -> ${seqAfter}`,
    );
  });

  it('the embedded server, killed with SIGKILL, comes back ready from its unit command on the same data directory', async () => {
    // the install step of the unit: the server's bundle (apps/server/scripts/build.mjs)
    const build = spawnSync(process.execPath, ['apps/server/scripts/build.mjs'], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
    const port = await freePort();
    const env = environmentOf(units.embedded, '', { HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' });
    expect([env.NODE_ENV, env.DATA_DIR]).toEqual(['production', path.join(stateDir, 'data')]);
    const url = `http://127.0.0.1:${port}`;
    let server = execStart(units.embedded, env);
    const firstMs = await until200(server, `${url}/readyz`);
    // killed: its data directory's lock and the journal's tail are left as a crash leaves them
    const k = await killAndRestart(units.embedded, server, env);
    expect(k.exit).toEqual({ code: null, signal: 'SIGKILL' });
    server = k.next;
    const againMs = await until200(server, `${url}/readyz`);
    const started = performance.now();
    server.child.kill(one(units.embedded, 'Service', 'KillSignal') as NodeJS.Signals);
    expect((await server.exit).code).toBe(0);
    expect(performance.now() - started).toBeLessThan(seconds(one(units.embedded, 'Service', 'TimeoutStopSec')) * 1000);
    console.log(
      `units supervision: embedded server ready in ${Math.round(firstMs)} ms, again ${Math.round(againMs)} ms after its restart (RestartSec not included)`,
    );
  });
});
