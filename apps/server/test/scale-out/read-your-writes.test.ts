/**
 * Read-your-writes across gateways in the scale-out mode, on the machine's NATS (JetStream) and PostgreSQL: one
 * engine process and two gateways as child processes. Gateway B reaches NATS through a TCP proxy of this test that can
 * hold back everything NATS sends to B, so B's replica stops applying the stream (as after a NATS restart, when a
 * replica lagged 444 commands for 30-40 s) while B still answers HTTP.
 *
 * A user places and cancels an order through gateway A and at once reads her open orders and balances through B
 * while B's replica is held back. Without the read barrier (platform/plugins/read-your-writes.ts) B answers from its
 * old state: the order missing after the place, still open after the cancel. With it, B's read waits and shows the
 * new state when the replica catches up within the bound, and answers 503 replica_behind (retryable, in the request's
 * language) when it does not: never the old state. Skipped unless NATS_URL and DATABASE_URL are set (.ci/run sets both).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeCommand, type Command } from '@exchange/core';
import { API_PATHS, ERROR_MESSAGES, type Assets, type Entrust, type EntrustPage, type Session } from '@exchange/api';
import { openNatsJournal, type NatsJournal } from '../../src/platform/engine-port/nats-journal';
import { READ_BARRIER_WAIT_MS } from '../../src/platform/plugins/read-your-writes';
import { ApiClient, portInRange, registerUser, REPO_ROOT, sleep } from '../crash-harness';

const NATS_URL = process.env.NATS_URL;
const DATABASE_URL = process.env.DATABASE_URL;
const enabled = Boolean(NATS_URL && DATABASE_URL);

/**
 * A TCP proxy to NATS whose server-to-client direction can be held: while held, what NATS sends (stream messages,
 * request replies) is kept and delivered on release, in order; what the client sends goes through at once.
 */
class HoldingProxy {
  private held = false;
  private readonly buffered: Array<{ to: net.Socket; data: Buffer }> = [];
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;
  constructor(upstream: URL) {
    this.server = net.createServer((client) => {
      const up = net.connect(Number(upstream.port || 4222), upstream.hostname);
      this.sockets.add(client).add(up);
      client.on('data', (d: Buffer) => up.write(d));
      up.on('data', (d: Buffer) => {
        if (this.held) this.buffered.push({ to: client, data: d });
        else client.write(d);
      });
      const end = () => {
        client.destroy();
        up.destroy();
      };
      client.on('error', end).on('close', end);
      up.on('error', end).on('close', end);
    });
  }
  listen(port: number): Promise<void> {
    return new Promise((resolve) => this.server.listen(port, '127.0.0.1', () => resolve()));
  }
  hold(): void {
    this.held = true;
  }
  release(): void {
    this.held = false;
    for (const b of this.buffered.splice(0, this.buffered.length)) if (!b.to.destroyed) b.to.write(b.data);
  }
  close(): void {
    for (const s of this.sockets) s.destroy();
    this.server.close();
  }
}

/** GET through `port` with the session and `lang`; the raw status and envelope (no retry). */
function rawGet<T>(
  port: number,
  p: string,
  s: Session,
  lang: 'en' | 'zh',
): Promise<{ http: number; retryAfter: string | undefined; body: { status: string; errorCode: string; errorMessage: string; result: T } }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: `/api/${p}`, headers: { token: s.token, userId: s.userId, lang }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          const retryAfter = res.headers['retry-after'];
          resolve({
            http: res.statusCode ?? 0,
            retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
            body: JSON.parse(Buffer.concat(chunks).toString()),
          });
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
    });
    req.on('error', reject);
  });
}

describe.skipIf(!enabled)('scale-out mode: read-your-writes across gateways', () => {
  const prefix = `R${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const dbName = `ryw_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ryw-'));
  const children: Array<ReturnType<typeof spawn>> = [];
  const output: string[] = [];
  let dbUrl = '';
  let enginePort = 0;
  let portA = 0;
  let portB = 0;
  let proxy: HoldingProxy;
  let journal: NatsJournal;
  let a: ApiClient;
  let alice: Session;

  function spawnMain(name: string, file: string, extra: Record<string, string>): void {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'test',
      NATS_URL,
      NATS_PREFIX: prefix,
      DATABASE_URL: dbUrl,
      ENGINE_TRANSPORT: 'nats',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DEMO_MODE: '1',
      CHAIN_JOBS: '0',
      CAPTCHA_TEST_MODE: '1',
      MARKET_MAKERS: '0',
      ORDER_RATE_PER_10S: '0',
      RATE_LIMIT_PER_MIN: '0',
      RATE_LIMIT_ROUTES: 'orderEntry=0,register=0,sendCode=0,login=0,captcha=0',
      AUTH_FAILURES_PER_MIN: '0',
      CAPTCHA_PER_IP_PER_MIN: '0',
      ...extra,
    };
    delete env.INIT_CWD;
    delete env.NODE_OPTIONS;
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'apps', 'server', 'src', 'main', 'scale-out', file)], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const take = (d: Buffer) => {
      for (const l of d.toString().split('\n')) if (l) output.push(`${name}: ${l}`);
      if (output.length > 200) output.splice(0, output.length - 200);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    children.push(child);
  }

  async function waitHealthy(port: number, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ok = await new Promise<boolean>((resolve) => {
        const req = http.get({ host: '127.0.0.1', port, path: '/healthz', agent: false, timeout: 3000 }, (res) => {
          res.resume();
          resolve(res.statusCode === 200);
        });
        req.on('error', () => resolve(false));
        req.on('timeout', () => req.destroy());
      });
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`port ${port} not healthy in ${timeoutMs} ms\n${output.slice(-40).join('\n')}`);
      await sleep(200);
    }
  }

  const OPEN_ORDERS = `${API_PATHS.getEntrustList}?type=current&page=1&pageSize=100`;
  /**
   * A read through B as a client makes it: a 503 replica_behind is retried at once (the only refusal allowed), any
   * other answer must be a success. `onAnswer` hears each answer's HTTP status.
   */
  async function readB<T>(p: string, onAnswer?: (status: number) => void): Promise<T> {
    for (;;) {
      const r = await rawGet<T>(portB, p, alice, 'en');
      onAnswer?.(r.http);
      if (r.http === 200 && r.body.status === 'SUCCEED') return r.body.result;
      expect([r.http, r.body.errorCode]).toEqual([503, 'replica_behind']);
    }
  }
  /** Her available spot USDT in units of 10^-8 (the wire's decimal string, read without floating point). */
  const usdt = (x: Assets): bigint => {
    const text = x.accounts.find((acc) => acc.type === 'SPOT')!.items.find((i) => i.coin === 'USDT')!.available;
    const [int, frac = ''] = text.split('.');
    return BigInt(int! + frac.padEnd(8, '0').slice(0, 8));
  };
  const USDT_500 = 500n * 100_000_000n;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(DATABASE_URL!);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
    const taken = new Set<number>();
    const proxyPort = await portInRange(24150, 50, taken);
    [enginePort, portA, portB] = [await portInRange(24150, 50, taken), await portInRange(24150, 50, taken), await portInRange(24150, 50, taken)];
    proxy = new HoldingProxy(new URL(NATS_URL!.split(',')[0]!));
    await proxy.listen(proxyPort);
    journal = await openNatsJournal(NATS_URL!, prefix, { name: 'ryw-test' });
    spawnMain('engine', 'engine-main.ts', { ENGINE_HTTP_PORT: String(enginePort) });
    await waitHealthy(enginePort);
    spawnMain('gateway A', 'gateway-main.ts', { PORT: String(portA) });
    spawnMain('gateway B', 'gateway-main.ts', { PORT: String(portB), NATS_URL: `nats://127.0.0.1:${proxyPort}` });
    await Promise.all([waitHealthy(portA), waitHealthy(portB)]);
    a = new ApiClient(portA);
    alice = await registerUser(a, `alice-${prefix}@example.com`.toLowerCase(), 'Passw0rd!a');
    // 1,000 USDT for her orders, the way an operator's deposit tool sends it: a command on the stream.
    const deposit = {
      type: 'deposit',
      userId: alice.userId,
      asset: 'USDT',
      account: 'SPOT',
      amount: 1_000n * 100_000_000n,
      from: '@faucet',
      ref: `ryw-usdt:${alice.userId}`,
      ts: Date.now(),
    } as unknown as Command;
    await journal.publish(Buffer.from(serializeCommand(deposit), 'utf8'), randomUUID());
  }, 300_000);

  afterAll(async () => {
    a?.close();
    proxy?.close();
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await journal?.destroy();
    await journal?.close();
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("an order placed via A is in B's answer even while B's replica is held back: B waits for it, then shows the new state", async () => {
    const before = usdt(await readB<Assets>(API_PATHS.getAssets));
    expect((await readB<EntrustPage>(OPEN_ORDERS)).records).toEqual([]);

    proxy.hold();
    let released = false;
    try {
      const placed = await a.request<Entrust>(
        'POST',
        API_PATHS.setEntrust,
        { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: '50000', amount: '0.01', clientOrderId: `ryw-1-${prefix}` },
        alice,
      );
      expect(`${placed.body.status} ${placed.body.result?.status}`).toBe('SUCCEED NEW');
      // B's replica cannot have it yet: everything NATS sends B is held. The reads go to B now; B is let go 1 s later.
      // Each answer is either the new state or 503 replica_behind (retried at once, as a client does after Retry-After):
      // on this shared machine B may need longer than the bound to catch up once let go.
      const t0 = performance.now();
      const firstAnswerMs: number[] = [];
      let refusals = 0;
      const onAnswer = (status: number) => {
        if (firstAnswerMs.length < 2) firstAnswerMs.push(performance.now() - t0);
        if (status === 503) refusals++;
      };
      const reads = Promise.all([readB<EntrustPage>(OPEN_ORDERS, onAnswer), readB<Assets>(API_PATHS.getAssets, onAnswer)]);
      let releasedMs = 0;
      setTimeout(() => {
        released = true;
        releasedMs = performance.now() - t0;
        proxy.release();
      }, 1_000);
      const [orders, assets] = await reads.catch((err: unknown) => {
        throw new Error(`${String(err)}\n${output.slice(-30).join('\n')}`);
      });
      console.log(
        `reads through B held back until ${Math.round(releasedMs)} ms: first answers after ${firstAnswerMs.map((x) => Math.round(x)).join(', ')} ms, ${refusals} refused`,
      );
      expect(orders.records.map((o) => [o.id, o.status])).toEqual([[placed.body.result.id, 'NEW']]);
      // 0.01 BTC at 50,000 = 500 USDT held for the bid.
      expect(before - usdt(assets)).toBe(USDT_500);
      // Neither read was answered before B was let go (no old state, not even a quick 503).
      expect(Math.min(...firstAnswerMs)).toBeGreaterThanOrEqual(950);
    } finally {
      if (!released) proxy.release();
    }
  }, 60_000);

  it('a cancel via A while B stays held back longer than the bound: B answers 503 replica_behind (en and zh), never the open order; then the new state', async () => {
    const [open] = (await a.read<EntrustPage>(API_PATHS.getEntrustList, { type: 'current', page: 1, pageSize: 100 }, alice)).records;
    expect(open?.status).toBe('NEW');
    const before = usdt(await readB<Assets>(API_PATHS.getAssets));

    proxy.hold();
    try {
      const cancelled = await a.request<Entrust>('POST', API_PATHS.cancelEntrust, { id: open!.id }, alice);
      expect(`${cancelled.body.status} ${cancelled.body.result?.status}`).toBe('SUCCEED CANCELED');
      const t0 = performance.now();
      const [en, zh] = await Promise.all([rawGet<EntrustPage>(portB, OPEN_ORDERS, alice, 'en'), rawGet<Assets>(portB, API_PATHS.getAssets, alice, 'zh')]);
      const waitedMs = performance.now() - t0;
      expect([en.http, en.retryAfter, en.body.status, en.body.errorCode, en.body.errorMessage, en.body.result]).toEqual([
        503,
        '1',
        'FAILED',
        'replica_behind',
        ERROR_MESSAGES.replica_behind.en,
        null,
      ]);
      expect([zh.http, zh.body.errorCode, zh.body.errorMessage]).toEqual([503, 'replica_behind', ERROR_MESSAGES.replica_behind.zh]);
      expect(waitedMs).toBeGreaterThanOrEqual(READ_BARRIER_WAIT_MS - 100);
      expect(waitedMs).toBeLessThan(READ_BARRIER_WAIT_MS + 5_000);
    } finally {
      proxy.release();
    }
    // Caught up: the retried reads show the cancel, and the 500 USDT back.
    expect((await readB<EntrustPage>(OPEN_ORDERS)).records).toEqual([]);
    expect(usdt(await readB<Assets>(API_PATHS.getAssets)) - before).toBe(USDT_500);
  }, 60_000);

  it('without a hold a read through B costs about one stream round trip: latency figures printed', async () => {
    const reads: number[] = [];
    const streamInfo: number[] = [];
    for (let i = 0; i < 200; i++) {
      let t0 = performance.now();
      await readB<EntrustPage>(OPEN_ORDERS);
      reads.push(performance.now() - t0);
      t0 = performance.now();
      await journal.bounds();
      streamInfo.push(performance.now() - t0);
    }
    const pct = (ms: number[], q: number) => Math.round([...ms].sort((x, y) => x - y)[Math.min(ms.length - 1, Math.floor(q * ms.length))]! * 100) / 100;
    console.log(
      `open-orders read through B (barrier included): p50 ${pct(reads, 0.5)} ms, p99 ${pct(reads, 0.99)} ms; ` +
        `one stream info round trip from this process: p50 ${pct(streamInfo, 0.5)} ms, p99 ${pct(streamInfo, 0.99)} ms`,
    );
    expect(reads.length).toBe(200);
  }, 60_000);
});
