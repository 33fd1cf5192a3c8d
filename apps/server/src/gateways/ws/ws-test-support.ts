/**
 * Test support for the WebSocket gateway: a recording `ws` client, a /healthz latency probe, a counter of the
 * database's session lookups, and a flood of auth messages run in a child process at a lower CPU priority (as an
 * attacker on another machine: its own work neither runs on the server's event loop nor takes the server's CPU, so
 * the probe measures what the flood costs the server).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import WebSocket from 'ws';
import type { Db } from '../../platform/db/client';
import type { TestApp } from '../../../test/helpers';

/** A server message as the tests see it. */
export type Msg = Record<string, unknown> & { channel: string };

/** A test client that records every message; `next` takes the oldest not yet taken message matching a predicate. */
export class Client {
  readonly messages: Msg[] = [];
  /** The close code and reason, once closed. */
  closed: { code: number; reason: string } | null = null;
  private readonly taken = new Set<number>();
  private waiters: Array<{ pred: (m: Msg) => boolean; resolve: (m: Msg) => void }> = [];
  private readonly closedP: Promise<{ code: number; reason: string }>;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as Msg;
      this.messages.push(m);
      const i = this.messages.length - 1;
      const w = this.waiters.find((x) => x.pred(m));
      if (w) {
        this.taken.add(i);
        this.waiters = this.waiters.filter((x) => x !== w);
        w.resolve(m);
      }
    });
    this.closedP = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closed = { code, reason: reason.toString() };
        resolve(this.closed);
      });
    });
  }
  /** Opens a socket to `url`, from `localAddress` when given (any 127.x.y.z address on loopback). */
  static async open(url: string, localAddress?: string): Promise<Client> {
    const ws = new WebSocket(url, localAddress ? { localAddress } : {});
    const c = new Client(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return c;
  }
  /** Sends a JSON message (or a raw string). */
  send(m: unknown): void {
    this.ws.send(typeof m === 'string' ? m : JSON.stringify(m));
  }
  /** The oldest untaken message matching `pred`, waiting up to `ms` for it. */
  next(pred: (m: Msg) => boolean, ms = 5000): Promise<Msg> {
    for (let i = 0; i < this.messages.length; i++) {
      const m = this.messages[i]!;
      if (!this.taken.has(i) && pred(m)) {
        this.taken.add(i);
        return Promise.resolve(m);
      }
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching message')), ms);
      this.waiters.push({
        pred,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }
  /** Sends a ping and waits for its pong: every message sent before it has been handled by the server. */
  async roundTrip(): Promise<void> {
    this.send({ op: 'ping' });
    await this.next((m) => m.channel === 'pong');
  }
  /** Resolves with the close code and reason once the socket is closed (by either side). */
  whenClosed(): Promise<{ code: number; reason: string }> {
    return this.closedP;
  }
  /** Closes the socket. */
  close(): void {
    this.ws.close();
  }
}

/** Creates an e-mail user (no code, no puzzle) and logs them in through the member service; returns the session. */
export async function loginNewUser(t: TestApp, mail: string, password = 'Secret123'): Promise<{ token: string; userId: string }> {
  await t.ctx.members.ensureEmailUser(mail, password, '');
  const s = await t.ctx.members.login({ account: mail, password }, { ip: '127.0.0.1', lang: 'en' });
  return { token: s.token, userId: s.userId };
}

/** Requests sent by the probes of this process so far (their source addresses are taken in turn). */
let probedRequests = 0;

/**
 * A /healthz prober: one request at a time over a keep-alive connection, every `gapMs`, until `stop`. The source
 * address moves on (127.0.9.x) every 300 requests, so the probe stays within the app's per-IP request budget
 * (RATE_LIMIT_PER_MIN, loopback not exempt) however long it runs.
 */
export function probeHealthz(baseUrl: string, gapMs = 5): { stop(): Promise<number[]> } {
  const latenciesMs: number[] = [];
  let running = true;
  let agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const done = (async () => {
    // The count goes on across probes of one test file, so a later probe does not reuse an address whose budget an
    // earlier one spent within the same minute (two probes back to back under load answered 429).
    for (let i = Math.ceil(probedRequests / 300) * 300; running; i++, probedRequests = i) {
      if (i % 300 === 0) {
        agent.destroy();
        agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      }
      const localAddress = `127.0.9.${1 + (Math.floor(i / 300) % 250)}`;
      const t0 = performance.now();
      const status = await new Promise<number>((resolve) => {
        http
          .get(`${baseUrl}/healthz`, { agent, localAddress }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          })
          .on('error', () => resolve(0));
      });
      if (status === 0) break; // the server is gone (a failed test closed it): stop probing
      if (status !== 200) throw new Error(`/healthz answered ${status}`);
      latenciesMs.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, gapMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      agent.destroy();
      return latenciesMs;
    },
  };
}

/** The q-quantile (0..1) of `xs` (nearest rank). */
export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/**
 * Counts the SELECTs on the sessions table that reach the database client (PGlite's or the pg pool's `query`),
 * i.e. the real round trips of session lookups, whatever layer above issues them.
 */
export function countSessionLookups(db: Db): { count(): number; restore(): void } {
  const client = (db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const original = client.query;
  let n = 0;
  client.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0];
    const text = typeof q === 'string' ? q : ((q as { text?: string } | null)?.text ?? '');
    if (/^\s*select/i.test(text) && /from "sessions"/i.test(text)) n++;
    return original.apply(this, args);
  };
  return {
    count: () => n,
    restore() {
      client.query = original;
    },
  };
}

/** One flood of auth messages, run by `runFlood` in a child process. */
export interface FloodPlan {
  url: string;
  /** Source addresses (127.x.y.z); lanes are spread over them round-robin. */
  ips: string[];
  /** Sockets open at the same time. */
  lanes: number;
  /** Sockets opened in all (each sends `authsPerSocket` auth messages at once, awaits the answers, closes). */
  sockets: number;
  authsPerSocket: number;
  /** The forged tokens, used in turn. */
  tokens: string[];
  userId: string;
}

/** What the flood saw. */
export interface FloodResult {
  authSent: number;
  authAnswered: number;
  /** Answers by errorCode ('ok' for a success). */
  answers: Record<string, number>;
  /** Server closes by "code reason". */
  closes: Record<string, number>;
  /** Upgrades refused (HTTP status) or failed. */
  refused: Record<string, number>;
  elapsedMs: number;
}

const FLOOD_SCRIPT = `
const WebSocket = require(process.env.FLOOD_WS_PATH);
let plan;
const r = { authSent: 0, authAnswered: 0, answers: {}, closes: {}, refused: {}, elapsedMs: 0 };
const bump = (o, k) => { o[k] = (o[k] || 0) + 1; };
let next = 0;
let tokenAt = 0;
function one(ip) {
  return new Promise((resolve) => {
    const ws = new WebSocket(plan.url, { localAddress: ip });
    let answered = 0;
    let byUs = false;
    ws.on('unexpected-response', (_req, res) => { bump(r.refused, String(res.statusCode)); res.resume(); ws.terminate(); resolve(); });
    ws.on('error', (e) => { bump(r.refused, e.code || e.message); resolve(); });
    ws.on('open', () => {
      for (let i = 0; i < plan.authsPerSocket; i++) {
        const token = plan.tokens[tokenAt++ % plan.tokens.length];
        ws.send(JSON.stringify({ op: 'auth', token, userId: plan.userId }));
        r.authSent++;
      }
    });
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.channel !== 'auth') return;
      r.authAnswered++;
      bump(r.answers, m.ok ? 'ok' : m.errorCode);
      if (++answered === plan.authsPerSocket) { byUs = true; ws.close(); }
    });
    ws.on('close', (code, reason) => {
      if (!byUs) bump(r.closes, code + ' ' + reason.toString());
      resolve();
    });
  });
}
async function lane(i) {
  const ip = plan.ips[i % plan.ips.length];
  while (next < plan.sockets) { next++; await one(ip); }
}
let input = '';
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  plan = JSON.parse(input);
  const t0 = performance.now();
  Promise.all(Array.from({ length: plan.lanes }, (_, i) => lane(i))).then(() => {
    r.elapsedMs = performance.now() - t0;
    process.stdout.write(JSON.stringify(r));
  });
});
`;

/** Runs `plan` in a child process at a lower CPU priority and resolves with what it saw. */
export function runFlood(plan: FloodPlan): Promise<FloodResult> {
  const wsPath = createRequire(import.meta.url).resolve('ws');
  const child = spawn(process.execPath, ['-e', FLOOD_SCRIPT], {
    env: { ...process.env, FLOOD_WS_PATH: wsPath },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin.end(JSON.stringify(plan));
  try {
    if (child.pid !== undefined) os.setPriority(child.pid, 10);
  } catch {
    // Not permitted here: the flood then competes with the server for the CPU, which only makes the test harder.
  }
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(out) as FloodResult);
      else reject(new Error(`flood process exited with ${code}`));
    });
  });
}
