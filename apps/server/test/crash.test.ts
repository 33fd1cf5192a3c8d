/**
 * Crash test of the durable order path: the server runs as a child process (PGlite and the journal under a
 * temporary DATA_DIR, no market makers, captcha test mode). Two users register over HTTP (the demo faucet
 * credits 10,000 USDT each) and place and cancel orders concurrently on a test market; mid-load the process is
 * killed with SIGKILL. After a restart on the same DATA_DIR every acknowledged order must exist with the state
 * it was acknowledged in (NEW, or CANCELED when its cancel was acknowledged), and balances must be conserved:
 * each user still owns exactly 10,000 USDT (available + frozen; nothing fills, so no fees), the frozen part
 * equals the notional of the open orders, and, recovered in-process after a graceful stop, every asset sums
 * to zero over all accounts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { pow10, type MarketConfig } from '@exchange/core';
import { formatDecimal } from '@exchange/money';
import { loadConfig } from '../src/platform/config/env';
import { openDb } from '../src/platform/db/client';
import { createEngineHost } from '../src/platform/engine-host/engine-host';
import { MACHINES, PROJECTIONS, SCHEMA_MODULE } from '../src/main/domains';
import { ensureMarket } from '../src/platform/engine-host/test-fixtures';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const SERVER = path.join(ROOT, 'apps', 'server', 'src', 'main', 'server.ts');
const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const MARKET: MarketConfig = {
  symbol: 'CRSH/USDT',
  base: 'CRSH',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 2,
  tickSize: 1n,
  stepSize: 1n,
  minQty: 1n,
  minNotional: 1n,
  makerFeePpm: 1000,
  takerFeePpm: 1000,
  status: 'TRADING',
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-crash-'));
let child: ChildProcess | null = null;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function startServer(port: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    MARKET_MAKERS: '0',
    ORDER_RATE_PER_10S: '0',
    RATE_LIMIT_PER_MIN: '0',
    RATE_LIMIT_ROUTES: 'orderEntry=0',
    DEMO_MODE: '1',
    DEV_CHAIN_PORT: '0',
    CAPTCHA_TEST_MODE: '1',
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  // node --import tsx: one process, so SIGKILL really kills the server (no wrapper in between).
  const p = spawn(process.execPath, ['--import', 'tsx', SERVER], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  p.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (p.exitCode !== null) throw new Error(`server exited with ${p.exitCode}: ${stderr}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (r.ok) return p;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function stop(p: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (p.exitCode !== null || p.signalCode !== null) return resolve();
    p.once('exit', () => resolve());
    p.kill(signal);
  });
}

type Session = { token: string; userId: string };
/** The API envelope with a typed result. */
type Env<T> = { status: string; errorCode: string; result: T };

function client(port: number) {
  const base = `http://127.0.0.1:${port}/api/`;
  return {
    async post<T = Record<string, string>>(p: string, body: Record<string, string | number>, s?: Session): Promise<Env<T>> {
      const r = await fetch(base + p, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en', ...(s ? { token: s.token, userId: s.userId } : {}) },
        body: new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString(),
      });
      return (await r.json()) as Env<T>;
    },
    async get<T = Record<string, string>>(p: string, query: Record<string, string>, s?: Session): Promise<Env<T>> {
      const r = await fetch(`${base}${p}?${new URLSearchParams(query).toString()}`, {
        headers: { lang: 'en', ...(s ? { token: s.token, userId: s.userId } : {}) },
      });
      return (await r.json()) as Env<T>;
    },
  };
}

async function register(c: ReturnType<typeof client>, mail: string): Promise<Session> {
  const issued = await c.post('data/sms/geetestCode?randomCode=crash&clientType=h5', {});
  const pass = await c.post('data/sms/geetestVerify', { challenge: issued.result.challenge!, x: 0 });
  const sent = await c.post('data/sms/sendCode', { account: mail, type: 'REGISTER', ...pass.result });
  if (sent.status !== 'SUCCEED') throw new Error(`sendCode: ${JSON.stringify(sent)}`);
  const box = await c.get<Array<{ code: string }>>('demo/outbox', { account: mail });
  const res = await c.post<Session>('member/member/register', {
    registerType: 'EMAIL',
    mail,
    code: box.result[0]!.code,
    password: 'Crash-test-1',
    confirmPassword: 'Crash-test-1',
    agreement: 'true',
  });
  if (res.status !== 'SUCCEED') throw new Error(`register: ${JSON.stringify(res)}`);
  return res.result;
}

afterAll(async () => {
  if (child) await stop(child, 'SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('crash recovery', () => {
  // Two server starts on a shared 2-core machine dominate the time; hence the longer limit.
  it('keeps every acknowledged order and conserves balances across SIGKILL', { timeout: 150_000 }, async () => {
    // The test market is added before the first start, through the same journal the server recovers.
    {
      // (Its projection goes to a throwaway database: the server's own catches up from the journal.)
      const db = await openDb({ schemaModule: SCHEMA_MODULE, dataDir: 'memory://' });
      const host = await createEngineHost({
        projections: PROJECTIONS,
        machines: MACHINES,
        config: loadConfig({ NODE_ENV: 'test' }, { dataDir }),
        db: db.db,
        log,
      });
      await ensureMarket(host, MARKET);
      await host.close();
      await db.close();
    }
    const port = await freePort();
    child = await startServer(port);
    const c = client(port);
    const users = [await register(c, 'crash-a@example.com'), await register(c, 'crash-b@example.com')];

    // Load: each worker places BUY orders (they rest: nobody sells) and cancels every third one.
    const acked = new Map<string, { user: number; price: bigint; qty: bigint; canceled: boolean; cancelSent: boolean }>();
    let stopLoad = false;
    let n = 0;
    const worker = async (w: number) => {
      const user = w % 2;
      while (!stopLoad) {
        const i = n++;
        const price = 100n + BigInt(i % 50); // 1.00 .. 1.49 USDT
        const qty = 100n + BigInt(i % 7); // 1.00 .. 1.06 CRSH
        try {
          const r = await c.post(
            'entrust/entrust/setEntrust',
            {
              pairsName: 'CRSH/USDT',
              side: 'BUY',
              orderType: 'LIMIT',
              price: formatDecimal(price, 2),
              amount: formatDecimal(qty, 2),
            },
            users[user],
          );
          if (r.status !== 'SUCCEED') throw new Error(`place failed: ${JSON.stringify(r)}`);
          const id = r.result.id!;
          acked.set(id, { user, price, qty, canceled: false, cancelSent: false });
          if (i % 3 === 0) {
            acked.get(id)!.cancelSent = true;
            const cr = await c.post('entrust/entrust/cancelEntrust', { id }, users[user]);
            if (cr.status === 'SUCCEED') acked.get(id)!.canceled = true;
          }
        } catch (err) {
          if (stopLoad) return;
          const msg = String(err);
          if (/fetch failed|ECONNRESET|ECONNREFUSED|socket/i.test(msg)) return; // the kill
          throw err;
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    while (acked.size < 100) await new Promise((r) => setTimeout(r, 20));
    await stop(child, 'SIGKILL');
    stopLoad = true;
    await Promise.all(workers);
    expect(acked.size).toBeGreaterThanOrEqual(100);
    // Requests were in flight when the process died (sent but never answered).
    expect(n).toBeGreaterThan(acked.size);

    // Restart on the same data and check every acknowledged order.
    child = await startServer(port);
    for (const [id, o] of acked) {
      const d = await c.get('entrust/entrust/getEntrustDetail', { id }, users[o.user]);
      expect(d.status, `order ${id}`).toBe('SUCCEED');
      if (o.canceled) expect(d.result.status, `order ${id}`).toBe('CANCELED');
      else if (o.cancelSent) expect(['NEW', 'CANCELED']).toContain(d.result.status);
      else expect(d.result.status, `order ${id}`).toBe('NEW');
      expect(d.result.dealAmount).toBe('0.00');
    }
    // Balances over HTTP: 10,000 USDT each, frozen = notional of the open orders (price x qty, 4 decimals -> USDT 8).
    for (const [u, s] of users.entries()) {
      const assets = await c.get<{ accounts: Array<{ type: string; items: Array<{ coin: string; current: string; frozen: string }> }> }>(
        'asset/asset/getAssets',
        {},
        s,
      );
      const spot = assets.result.accounts.find((a) => a.type === 'SPOT')!.items.find((i) => i.coin === 'USDT')!;
      expect(spot.current).toBe('10000.00000000');
      type Page = { total: number; records: Array<{ price: string; amount: string }> };
      const open = await c.get<Page>('entrust/entrust/getEntrustList', { type: 'current', pageSize: '100', page: '1' }, s);
      let openNotional = 0n;
      let openCount = 0;
      for (let page = 1; (page - 1) * 100 < open.result.total; page++) {
        const p = await c.get<Page>('entrust/entrust/getEntrustList', { type: 'current', pageSize: '100', page: String(page) }, s);
        for (const r of p.result.records) {
          openNotional += BigInt(r.price.replace('.', '')) * BigInt(r.amount.replace('.', '')) * pow10(4);
          openCount++;
        }
      }
      expect(openCount).toBe(open.result.total);
      expect(BigInt(spot.frozen.replace('.', ''))).toBe(openNotional);
      expect(openCount).toBeGreaterThanOrEqual([...acked.values()].filter((o) => o.user === u && !o.cancelSent).length);
    }
    await stop(child, 'SIGTERM');
    child = null;

    // Recovered in-process after the graceful stop: every asset sums to zero over all accounts.
    const db = await openDb({ schemaModule: SCHEMA_MODULE, dataDir });
    const host = await createEngineHost({
      projections: PROJECTIONS,
      machines: MACHINES,
      config: loadConfig({ NODE_ENV: 'test' }, { dataDir }),
      db: db.db,
      log,
    });
    expect(host.recovery.replayed).toBe(0);
    for (const [asset, total] of host.engine.assetTotals()) expect(total, asset).toBe(0n);
    for (const s of users) {
      const b = host.engine.balance(s.userId, 'SPOT', 'USDT');
      expect(b.available + b.frozen).toBe(10_000n * pow10(8));
    }
    await host.close();
    await db.close();
  });
});
