/**
 * A gateway's engine port over NATS (nats-engine-port.ts) when NATS goes away, on a nats-server of its own (a child
 * process on a free port with its own JetStream store, killed and restarted here; skipped when the machine has no
 * `nats-server`): while the server is down the port is not ready and a command is refused at once (503
 * service_unavailable, not after the publish attempts); once the server is back it is ready and takes commands again.
 * A journal opened before the server is up waits for it (and gives up after its connect timeout).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProjectionStore } from '../db/projection-types';
import type { EngineHost } from '../engine-host/engine-host';
import { createNatsEnginePort, ensureGenesis } from './nats-engine-port';
import { openNatsJournal } from './nats-journal';

const HAS_NATS = spawnSync('nats-server', ['--version']).status === 0;
const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const store: ProjectionStore = { load: async () => ({ journalId: null, cursor: 0 }), write: async () => {} };

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const p = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
}

async function until(what: string, f: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nats-ready-'));
let server: ChildProcess | null = null;
let port: EngineHost | null = null;
afterAll(async () => {
  await port?.close().catch(() => {});
  server?.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

function startServer(p: number): ChildProcess {
  return spawn('nats-server', ['-js', '-sd', dir, '-a', '127.0.0.1', '-p', String(p)], { stdio: 'ignore' });
}

async function listening(p: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(p, '127.0.0.1', () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

describe.skipIf(!HAS_NATS)('engine port over NATS when the server goes away', () => {
  it('is not ready and refuses commands at once while NATS is down; ready and taking commands once it is back', async () => {
    const p = await freePort();
    const url = `nats://127.0.0.1:${p}`;
    server = startServer(p);
    await until('nats-server', () => listening(p));
    const journal = await openNatsJournal(url, 'ready-test');
    await ensureGenesis(journal);
    await journal.close();
    port = await createNatsEnginePort({ natsUrl: url, prefix: 'ready-test', log, store, lagCheckMs: 100, lagGraceMs: 200 });
    expect(port.ready).toBe(true);
    expect((await port.submit({ type: 'registerUser', account: 'em:a@ready.test', uniqueKeys: [], profile: {} })).code).toBe('ok');

    server.kill('SIGKILL');
    await new Promise((r) => server!.once('exit', r));
    await until('not ready', () => !port!.ready);
    const t0 = performance.now();
    await expect(port.submit({ type: 'registerUser', account: 'em:b@ready.test', uniqueKeys: [], profile: {} })).rejects.toMatchObject({
      code: 'service_unavailable',
      status: 503,
    });
    expect(performance.now() - t0).toBeLessThan(100);

    server = startServer(p);
    await until('ready again', () => port!.ready, 30_000);
    expect((await port.submit({ type: 'registerUser', account: 'em:c@ready.test', uniqueKeys: [], profile: {} })).code).toBe('ok');
    expect(port.engine.userRows().map((u) => u[1])).toEqual(['em:a@ready.test', 'em:c@ready.test']);
  }, 90_000);

  it('a journal opened while NATS is not up yet waits for it', async () => {
    const p = await freePort();
    const url = `nats://127.0.0.1:${p}`;
    const opening = openNatsJournal(url, 'late-test', { connectTimeoutMs: 30_000 });
    await new Promise((r) => setTimeout(r, 1_000));
    const late = startServer(p);
    try {
      const journal = await opening;
      expect((await journal.bounds()).last).toBe(0);
      await journal.close();
    } finally {
      late.kill('SIGKILL');
    }
    await expect(openNatsJournal(`nats://127.0.0.1:${await freePort()}`, 'never', { connectTimeoutMs: 800 })).rejects.toThrow();
  }, 60_000);
});
