/**
 * Proves that a start serves as soon as it can and says where it is meanwhile (boot.ts):
 * - with a deliberately slow context (the recovery held back on a gate), /healthz answers 200 at once, /readyz 503
 *   names the phase, and an API route answers 503 service_unavailable with Retry-After; when the gate opens the real
 *   context and app (PGlite in a temporary directory) take over the same port: /readyz 200, the route
 *   answers SUCCEED, the context phase's time includes the wait, and the context runs on the database opened while
 *   the modules loaded (openContextDb, as server.ts does);
 * - a kept-alive connection left idle for 6 s (past Node's own 5 s keep-alive timeout) still takes a second request:
 *   the server does not close it under a client that reuses it (KEEP_ALIVE_TIMEOUT_MS);
 * - the real process (server.ts, spawned as the crash loop spawns it) answers /healthz before it has logged
 *   'context ready' (its database and engine are not open yet), then /readyz 200, and logs its start by phase.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config/env';
import { ServerProcess, REPO_ROOT } from '../../test/crash-harness';
import { buildApp } from './app';
import { KEEP_ALIVE_TIMEOUT_MS, openStartupServer, startServer } from './boot';
import type { FastifyBaseLogger } from 'fastify';
import type { DbHandle } from '../platform/db/client';
import { createLogger } from '../platform/shared/log';
import { createContext } from './context';
import { openContextDb } from './context-db';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-boot-'));
  dirs.push(d);
  return d;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** GET `url`'s status, headers and JSON body; null while nothing listens. */
async function get(url: string): Promise<{ status: number; retryAfter: string | null; body: Record<string, unknown> } | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> };
  } catch {
    return null;
  }
}

async function until<T>(f: () => Promise<T | null>, ok: (x: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const x = await f();
    if (x !== null && ok(x)) return x;
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms (last: ${JSON.stringify(x)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('startServer', () => {
  it('answers /healthz and /readyz (503, phase) while the context is held back, then serves the app on the same port', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const config = loadConfig(
      { NODE_ENV: 'test', LOG_LEVEL: 'silent', PGLITE_TEMPLATE_DIR: process.env.PGLITE_TEMPLATE_DIR },
      { dataDir: tempDir(), demoMode: true, captchaTestMode: true, marketMakers: false, port, host: '127.0.0.1' },
    );
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const log = createLogger('silent') as unknown as FastifyBaseLogger;
    let opening: Promise<DbHandle> | undefined;
    const starting = startServer(port, '127.0.0.1', {
      // as server.ts does: the database opens while the modules load, and the context takes it over
      loadModules: async () => {
        opening = openContextDb(config, log);
      },
      createContext: async () => {
        await gate;
        return createContext(config, log, { db: opening! });
      },
      buildApp: async (ctx, serverFactory) => {
        const app = await buildApp(ctx, { serverFactory });
        await app.ready();
        return app;
      },
    });
    const health = await until(
      () => get(`${base}/healthz`),
      (r) => r.status === 200,
      10_000,
    );
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await get(`${base}/readyz`);
    expect(ready?.status).toBe(503);
    expect(ready?.body).toEqual({ status: 'starting', phase: 'context' });
    const api = await get(`${base}/api/data/data/getBanners`);
    expect(api?.status).toBe(503);
    expect(api?.retryAfter).toBe('2');
    expect(api?.body.status).toBe('FAILED');
    expect(api?.body.errorCode).toBe('service_unavailable');
    await new Promise((r) => setTimeout(r, 300));
    open();
    const { app, ctx, startup, startMs } = await starting;
    try {
      expect(startup.phase).toBe('serving');
      expect(ctx.db).toBe((await opening!).db);
      // the context phase includes the 300 ms held at the gate
      expect(startMs.context).toBeGreaterThanOrEqual(300);
      const readyNow = await get(`${base}/readyz`);
      expect(readyNow?.status).toBe(200);
      expect(readyNow?.body).toEqual({ status: 'ready' });
      const banners = await get(`${base}/api/data/data/getBanners`);
      expect(banners?.status).toBe(200);
      expect(banners?.body.status).toBe('SUCCEED');
    } finally {
      await app.close();
      await startup.close();
      await ctx.close();
    }
    expect(await get(`${base}/healthz`)).toBeNull();
  }, 180_000);
});

describe('keep-alive', () => {
  it('keeps an idle kept-alive connection open past 5 s, so a reused socket is answered, not reset', async () => {
    const port = await freePort();
    const startup = await openStartupServer(port, '127.0.0.1');
    expect(startup.server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let closedAt: number | null = null;
    socket.on('data', (d: Buffer) => (received += d.toString()));
    socket.on('close', () => (closedAt = Date.now()));
    const request = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n';
    const answers = () => received.split('HTTP/1.1 200 OK').length - 1;
    try {
      await new Promise<void>((r) => socket.once('connect', () => r()));
      socket.write(request);
      await until(
        async () => answers(),
        (n) => n === 1,
        5000,
      );
      await new Promise((r) => setTimeout(r, 6000));
      expect(closedAt).toBeNull();
      socket.write(request);
      await until(
        async () => answers(),
        (n) => n === 2,
        5000,
      );
      expect(received).toContain('{"status":"ok"}');
    } finally {
      socket.destroy();
      await startup.close();
    }
  }, 30_000);
});

describe('server.ts', () => {
  it('answers /healthz before its context is ready, then /readyz 200, and logs its start by phase', async () => {
    const port = await freePort();
    const p = ServerProcess.spawn({ root: REPO_ROOT, dataDir: tempDir(), port, marketMakers: false, orderRatePer10s: 0, startTimeoutMs: 300_000 });
    try {
      await until(
        async () => {
          if (p.exited) throw new Error(`server exited:\n${p.tail()}`);
          return get(`http://127.0.0.1:${port}/healthz`);
        },
        (r) => r.status === 200,
        300_000,
      );
      // the port answered before the database was open and the engine recovered
      expect(p.tail(200)).not.toContain('context ready');
      const starting = await get(`http://127.0.0.1:${port}/readyz`);
      expect(starting?.status).toBe(503);
      expect(starting?.body.status).toBe('starting');
      await until(
        () => get(`http://127.0.0.1:${port}/readyz`),
        (r) => r.status === 200,
        300_000,
      );
      await until(
        async () => (p.tail(200).includes('exchange server listening') ? true : null),
        () => true,
        30_000,
      );
      const line = p
        .tail(200)
        .split('\n')
        .find((l) => l.includes('exchange server listening'))!;
      const startMs = (JSON.parse(line) as { startMs: Record<'listen' | 'modules' | 'context' | 'app' | 'chain' | 'database' | 'total', number> }).startMs;
      expect(Object.keys(startMs).sort()).toEqual(['app', 'chain', 'context', 'database', 'listen', 'modules', 'total']);
      for (const v of Object.values(startMs)) expect(v).toBeGreaterThanOrEqual(0);
      // the database was opened while the modules loaded: it took time, and was done before the context phase ended
      expect(startMs.database).toBeGreaterThan(0);
      expect(startMs.database).toBeLessThanOrEqual(startMs.modules + startMs.chain + startMs.context);
      expect(startMs.total).toBeGreaterThanOrEqual(startMs.listen + startMs.modules + startMs.context + startMs.app);
    } finally {
      await p.stop('SIGTERM');
    }
  }, 400_000);
});
