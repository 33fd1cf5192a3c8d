/**
 * The crash-loop harness shared by `npm run crash-loop` (scripts/crash-loop.ts) and crash-loop.test.ts: the server
 * runs as `npm start` runs it but as one process (node --import tsx apps/server/src/main/server.ts, so SIGKILL really
 * kills it), on its own temporary DATA_DIR and free port, in captcha test mode on the embedded PGlite. Users register
 * over HTTP (the demo faucet credits 10,000 USDT each) and, in every cycle, workers drive concurrent order load:
 * resting limit orders, pairs of crossing orders between the users, IOC/FOK takers, market orders, cancels and
 * retries of earlier client order ids. Every answer is recorded: SUCCEED (acknowledged, with the order's state at
 * the acknowledgement), FAILED (an acknowledged rejection: nothing happened) or none (the process died first:
 * unknown). Then the server is killed with SIGKILL at a seeded random instant, restarted on the same data, and
 * checked only through the public HTTP API:
 * - every acknowledged order exists with the submitted fields and a state at least as advanced as the last one
 *   acknowledged or observed after a restart (terminal states exactly; CANCELED only if a cancel was sent; an
 *   acknowledged cancel means CANCELED; a cancel answered order_not_found means the order had ended);
 * - every order found belongs to a submission (by its client order id); rejected submissions left no order;
 *   unacknowledged submissions found are counted as "unacknowledged but applied", those not found may never
 *   appear later;
 * - each order's fills (getEntrustDetail) add up to its filled quantity, quote and fee, at prices within its limit;
 *   a trade between two test users is reported identically on both sides;
 * - each user's total per asset (available + frozen over the four accounts) is 10,000 USDT and 0 of every other
 *   asset plus the net of the user's fills minus fees, and frozen is exactly what the open orders hold.
 * Randomness comes from one seed (printed; `--seed` replays the same decisions and kill delays: the interleaving of
 * concurrent requests and so the exact kill point still vary from run to run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { API_PATHS, type Assets, type Depth, type Entrust, type EntrustDetail, type EntrustPage, type Pair, type Session } from '@exchange/api';
import { formatDecimal, parseDecimal, pow10 } from '@exchange/money';
import { Prng, mixSeed } from '../src/domains/market-jobs/prng';

/** The repository root (where `npm start` runs). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
/** Whole USDT the demo faucet credits on registration. */
export const FAUCET_USDT = 10_000n;

// ---------------------------------------------------------------- numbers

/** A non-negative decimal string ("12.5") as integer units at `scale` decimals (zeros beyond it allowed); throws on more decimals or bad syntax. */
export function toUnits(s: string, scale: number): bigint {
  return parseDecimal(s, scale, { trailingZeros: true });
}

/** Integer units at `scale` decimals as a decimal string with exactly `scale` decimals. */
export const fromUnits: (v: bigint, scale: number) => string = formatDecimal;

/** Number of decimals of a formatted decimal string ("10000.00000000" -> 8). */
function decimalsOf(s: string): number {
  const i = s.indexOf('.');
  return i < 0 ? 0 : s.length - i - 1;
}

// ---------------------------------------------------------------- the server process

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/**
 * A free TCP port in `first` .. `first + count - 1` not in `taken` (added to it), for a test file that runs several
 * processes on a shared machine and needs its own range. Keep ranges below the kernel's ephemeral range (Linux
 * 32768-60999): there an outgoing connection of any process (a database client, a browser) can take the port between
 * this check and the child's bind (EADDRINUSE); below it only an explicit bind can.
 */
export async function portInRange(first: number, count: number, taken: Set<number>): Promise<number> {
  for (;;) {
    const port = first + Math.floor(Math.random() * count);
    if (taken.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) {
      taken.add(port);
      return port;
    }
  }
}

/** How to start the server. */
export interface ServerOptions {
  root: string;
  dataDir: string;
  port: number;
  marketMakers: boolean;
  /** New orders per user per 10 s (ORDER_RATE_PER_10S; 0 = unlimited, the server's own default is 50). */
  orderRatePer10s: number;
  /** Longest wait for /healthz (ms). */
  startTimeoutMs: number;
  /** DATABASE_URL: PostgreSQL instead of PGlite (default: PGlite under dataDir; the environment's DATABASE_URL is never inherited). */
  databaseUrl?: string;
  /** Extra node options for the server process (a diagnostic run's `--heapsnapshot-signal=SIGUSR2`, say). */
  nodeArgs?: string[];
  /**
   * The demo's dev chains (DEV_CHAIN_PORT = port + 10, the other networks on the next ports), so deposits and
   * withdrawals have a chain; off by default (DEV_CHAIN_PORT=0: a chain per spawn costs some seconds, and the wallet's
   * networks are then listed as not available).
   */
  devChain?: boolean;
}

/** What the server logged about its recovery ('engine recovered'), when it did. */
export interface RecoveryLog {
  snapshotSeq: number;
  replayed: number;
  lastSeq: number;
  torn: boolean;
  ms: number;
}

/** The server as a child process: its output is kept (last lines) and its recovery log line parsed. */
export class ServerProcess {
  readonly child: ChildProcess;
  private lines: string[] = [];
  private partial = '';
  recovery: RecoveryLog | null = null;
  /** Milliseconds from the spawn to the first 200 of /healthz (set by `start`). */
  healthMs = 0;
  /** Milliseconds from the spawn to the first 200 of /readyz (set by `start`). */
  readyMs = 0;

  private constructor(child: ChildProcess) {
    this.child = child;
    const take = (d: Buffer) => {
      const text = this.partial + d.toString();
      const parts = text.split('\n');
      this.partial = parts.pop() ?? '';
      for (const line of parts) this.line(line);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
  }

  private line(line: string): void {
    this.lines.push(line);
    if (this.lines.length > 200) this.lines.splice(0, this.lines.length - 200);
    if (line.includes('engine recovered')) {
      try {
        const j = JSON.parse(line) as Partial<RecoveryLog> & { torn?: unknown };
        this.recovery = { snapshotSeq: j.snapshotSeq ?? 0, replayed: j.replayed ?? 0, lastSeq: j.lastSeq ?? 0, torn: j.torn !== undefined, ms: j.ms ?? 0 };
      } catch {
        // not JSON: the log format changed; the recovery figures are optional
      }
    }
  }

  /** The last lines the process printed. */
  tail(n = 40): string {
    return [...this.lines, this.partial].slice(-n).join('\n');
  }

  get exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** Spawns the server without waiting for it. */
  static spawn(o: ServerOptions): ServerProcess {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(o.port),
      HOST: '127.0.0.1',
      DATA_DIR: o.dataDir,
      MARKET_MAKERS: o.marketMakers ? '1' : '0',
      // The bots quote a one-tick spread as on Binance: no price is left between bid and ask for two test users to
      // trade with each other at. A wider quoted spread (300 ticks, 3 USDT on BTC/USDT) leaves room for those
      // crossings, whose two sides are checked against each other.
      BOT_SPREAD_TICKS: '300',
      DEMO_MODE: '1',
      // No dev chain for the wallet unless asked: these runs are about the journal, and a chain per spawn costs ~4 s.
      DEV_CHAIN_PORT: o.devChain ? String(o.port + 10) : '0',
      CAPTCHA_TEST_MODE: '1',
      NODE_ENV: 'test',
      ORDER_RATE_PER_10S: String(o.orderRatePer10s),
      // The load comes from one IP by design: no per-IP request budgets (the per-user one is ORDER_RATE_PER_10S).
      RATE_LIMIT_PER_MIN: '0',
      RATE_LIMIT_ROUTES: 'orderEntry=0',
      AUTH_FAILURES_PER_MIN: '0',
      // info: the 'engine recovered' line (replayed records, torn tail); the server logs little else at info.
      LOG_LEVEL: 'info',
    };
    delete env.DATABASE_URL;
    if (o.databaseUrl) env.DATABASE_URL = o.databaseUrl;
    delete env.INIT_CWD;
    delete env.NODE_OPTIONS;
    const server = path.join(o.root, 'apps', 'server', 'src', 'main', 'server.ts');
    // node --import tsx: one process, so SIGKILL really kills the server (no npm or tsx wrapper in between).
    const child = spawn(process.execPath, [...(o.nodeArgs ?? []), '--import', 'tsx', server], { cwd: o.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    return new ServerProcess(child);
  }

  /**
   * Spawns the server and waits until /healthz answers (the process is up: the server opens its port first) and then
   * until /readyz answers 200 (recovered and serving the API); throws with its output when it exits or times out.
   * `healthMs` and `readyMs` (since the spawn) are kept on the process.
   */
  static async start(o: ServerOptions): Promise<ServerProcess> {
    const spawned = Date.now();
    const p = ServerProcess.spawn(o);
    const deadline = spawned + o.startTimeoutMs;
    for (const probe of ['/healthz', '/readyz'] as const) {
      for (;;) {
        if (p.exited) throw new Error(`server exited (${p.child.exitCode ?? p.child.signalCode}) while starting:\n${p.tail()}`);
        if (await answers200(o.port, probe)) break;
        if (Date.now() > deadline) {
          await p.stop('SIGKILL');
          throw new Error(`server did not answer ${probe} within ${o.startTimeoutMs} ms:\n${p.tail()}`);
        }
        await sleep(150);
      }
      if (probe === '/healthz') p.healthMs = Date.now() - spawned;
      else p.readyMs = Date.now() - spawned;
    }
    return p;
  }

  /** Sends `signal` and waits for the exit. */
  stop(signal: NodeJS.Signals): Promise<void> {
    return new Promise((resolve) => {
      if (this.exited) return resolve();
      this.child.once('exit', () => resolve());
      this.child.kill(signal);
    });
  }
}

/** Whether GET `probe` on the server answers 200 within 2 s. */
function answers200(port: number, probe: '/healthz' | '/readyz'): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: probe, timeout: 2000, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
  });
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

// ---------------------------------------------------------------- HTTP client

/** The API envelope. */
export interface Env<T> {
  status: string;
  errorCode: string;
  errorMessage: string;
  result: T;
}

/** The request never got an answer (connection refused or reset: the process died). */
export class TransportError extends Error {
  override name = 'TransportError';
}

/** An answer of the API with its HTTP status. */
export interface Answer<T> {
  http: number;
  body: Env<T>;
}

type Params = Record<string, string | number | undefined>;

/** A JSON client of one server incarnation (its own keep-alive agent, destroyed with `close`). */
export class ApiClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  constructor(readonly port: number) {}

  close(): void {
    this.agent.destroy();
  }

  /** One request; throws TransportError when no answer arrives. */
  request<T>(method: 'GET' | 'POST', p: string, params: Params, s?: Pick<Session, 'token' | 'userId'>): Promise<Answer<T>> {
    const entries = Object.entries(params).filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== '');
    const qs = new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString();
    const body = method === 'POST' ? qs : undefined;
    const headers: http.OutgoingHttpHeaders = { lang: 'en', ...(s ? { token: s.token, userId: s.userId } : {}) };
    if (body !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = Buffer.byteLength(body);
    }
    const urlPath = `/api/${p}${method === 'GET' && qs ? `?${qs}` : ''}`;
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: this.port, method, path: urlPath, headers, agent: this.agent, timeout: 60_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => reject(new TransportError(String(e))));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ http: res.statusCode ?? 0, body: JSON.parse(text) as Env<T> });
          } catch {
            reject(new TransportError(`not JSON (HTTP ${res.statusCode}): ${text.slice(0, 200)}`));
          }
        });
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (e) => reject(new TransportError(String(e))));
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  /**
   * A read that must succeed: retried on transport errors (a stale keep-alive socket) and, as its Retry-After asks, on
   * 503 replica_behind (a scale-out gateway whose replica is still catching up); throws on FAILED.
   */
  async read<T>(p: string, params: Params, s?: Pick<Session, 'token' | 'userId'>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const a = await this.request<T>('GET', p, params, s);
        if (a.body.status !== 'SUCCEED') {
          const message = `GET ${p} ${JSON.stringify(params)}: HTTP ${a.http} ${a.body.errorCode} ${a.body.errorMessage}`;
          throw a.http === 503 && a.body.errorCode === 'replica_behind' ? new TransportError(message) : new Error(message);
        }
        return a.body.result;
      } catch (err) {
        if (!(err instanceof TransportError) || attempt >= 5) throw err;
        await sleep(200 * attempt);
      }
    }
  }

  /** A write that must succeed (setup steps), retried on transport errors. */
  async write<T>(p: string, params: Params, s?: Pick<Session, 'token' | 'userId'>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const a = await this.request<T>('POST', p, params, s);
        if (a.body.status !== 'SUCCEED') throw new Error(`POST ${p}: HTTP ${a.http} ${a.body.errorCode} ${a.body.errorMessage}`);
        return a.body.result;
      } catch (err) {
        if (!(err instanceof TransportError) || attempt >= 5) throw err;
        await sleep(200 * attempt);
      }
    }
  }
}

// ---------------------------------------------------------------- users

/** A test user: credentials and the current session. */
export interface User {
  index: number;
  mail: string;
  password: string;
  session: Session;
}

/** Registers by e-mail: slide puzzle in captcha test mode, the code from the demo outbox. */
export async function registerUser(c: ApiClient, mail: string, password: string): Promise<Session> {
  const issued = await c.write<{ challenge: string }>(`${API_PATHS.geetestCode}?randomCode=crashloop&clientType=h5`, {});
  const pass = await c.write<Record<string, string>>(API_PATHS.geetestVerify, { challenge: issued.challenge, x: 0 });
  await c.write(API_PATHS.sendCode, { account: mail, type: 'REGISTER', ...pass });
  const box = await c.read<Array<{ code: string }>>(API_PATHS.demoOutbox, { account: mail });
  const code = box[box.length - 1]?.code;
  if (!code) throw new Error(`no code in the demo outbox for ${mail}`);
  return c.write<Session>(API_PATHS.register, { registerType: 'EMAIL', mail, code, password, confirmPassword: password, agreement: 'true' });
}

/** Logs in with the password (a session lost with the process is replaced this way). */
export async function loginUser(c: ApiClient, u: User): Promise<Session> {
  return c.write<Session>(API_PATHS.login, { account: u.mail, password: u.password });
}

// ---------------------------------------------------------------- markets

/** A spot market as the load needs it. */
export interface MarketInfo {
  symbol: string;
  base: string;
  quote: string;
  priceDecimals: number;
  qtyDecimals: number;
  tickUnits: bigint;
  stepUnits: bigint;
  minQtyUnits: bigint;
  /** Minimum notional in quote asset units. */
  minNotional: bigint;
  baseScale: number;
  quoteScale: number;
  /** price units x qty units -> quote asset units. */
  notionalMult: bigint;
  /** qty units -> base asset units. */
  baseMult: bigint;
  /** Last known mid price (price units). */
  mid: bigint;
  bestBid: bigint | null;
  bestAsk: bigint | null;
}

/** Reads the listings of `symbols` (USDT-quoted spot pairs) and the asset scales from a user's getAssets. */
export async function loadMarkets(c: ApiClient, symbols: string[], s: Session): Promise<Map<string, MarketInfo>> {
  const assets = await c.read<Assets>(API_PATHS.getAssets, {}, s);
  const scale = new Map<string, number>();
  for (const a of assets.accounts) for (const i of a.items) scale.set(i.coin, decimalsOf(i.available));
  const out = new Map<string, MarketInfo>();
  const byQuote = new Map<string, Pair[]>();
  for (const sym of symbols) {
    const quote = sym.split('/')[1] ?? '';
    if (!byQuote.has(quote)) byQuote.set(quote, await c.read<Pair[]>(API_PATHS.getPairsByMainCur, { mainCur: quote, type: 'SPOT' }));
    const p = byQuote.get(quote)!.find((x) => x.pairsName === sym);
    if (!p) throw new Error(`market ${sym} is not listed`);
    const baseScale = scale.get(p.tokenCur) ?? 8;
    const quoteScale = scale.get(p.mainCur) ?? 8;
    const m: MarketInfo = {
      symbol: sym,
      base: p.tokenCur,
      quote: p.mainCur,
      priceDecimals: p.priceDecimals,
      qtyDecimals: p.qtyDecimals,
      tickUnits: toUnits(p.tickSize, p.priceDecimals),
      stepUnits: toUnits(p.stepSize, p.qtyDecimals),
      minQtyUnits: toUnits(p.minQty, p.qtyDecimals),
      minNotional: toUnits(p.minNotional, quoteScale),
      baseScale,
      quoteScale,
      notionalMult: pow10(quoteScale - p.priceDecimals - p.qtyDecimals),
      baseMult: pow10(baseScale - p.qtyDecimals),
      mid: p.price ? toUnits(p.price, p.priceDecimals) : 0n,
      bestBid: null,
      bestAsk: null,
    };
    out.set(sym, m);
  }
  return out;
}

/** Refreshes best bid, best ask and mid from the public depth (keeps the last mid when a side is empty). */
export async function refreshDepth(c: ApiClient, m: MarketInfo): Promise<void> {
  const d = await c.read<Depth>(API_PATHS.getDepth, { pairsName: m.symbol, limit: 5 });
  m.bestBid = d.bids[0] ? toUnits(d.bids[0][0], m.priceDecimals) : null;
  m.bestAsk = d.asks[0] ? toUnits(d.asks[0][0], m.priceDecimals) : null;
  if (m.bestBid !== null && m.bestAsk !== null) m.mid = (m.bestBid + m.bestAsk) / 2n;
  else if (m.mid === 0n) m.mid = m.bestBid ?? m.bestAsk ?? 0n;
}

// ---------------------------------------------------------------- the model of what was submitted

/** An order's state in integer units. */
export interface OrderState {
  status: string;
  dealAmount: bigint;
  dealTotal: bigint;
  fee: bigint;
  feeCur: string;
}

/** What the client knows of a submission's answer. */
export type Outcome = 'pending' | 'acked' | 'rejected' | 'unknown';

/** One placeOrder as submitted, with everything learnt about it since. */
export interface OrderRec {
  cid: string;
  user: number;
  symbol: string;
  side: 'BUY' | 'SELL';
  orderType: 'LIMIT' | 'MARKET';
  timeInForce: string;
  /** As sent ('' when absent). */
  price: string;
  amount: string;
  total: string;
  cycle: number;
  outcome: Outcome;
  rejectCode?: string;
  /** Order id (from the acknowledgement, or found after a restart). */
  id?: string;
  /** The state at the acknowledgement. */
  acked?: OrderState;
  /** The most advanced durable state known: acknowledged, or observed after a restart. */
  known?: OrderState;
  /** For an unknown outcome, resolved after the next restart: found (true) or not (false). */
  applied?: boolean;
  /** Cancels sent for it and what came back. */
  cancelSent: number;
  cancelAcked?: OrderState;
  cancelEndedAck: boolean;
  /** A cancel got no answer (the kill) and the next check has not yet said whether it was applied. */
  cancelUnresolved: boolean;
}

const OPEN = new Set(['NEW', 'PARTIALLY_FILLED']);
const TERMINAL = new Set(['FILLED', 'CANCELED', 'EXPIRED']);

/** An Entrust's state in integer units (amounts at the market's scales). */
function stateOf(e: Pick<Entrust, 'status' | 'dealAmount' | 'dealTotal' | 'fee' | 'feeCur'>, m: MarketInfo): OrderState {
  const feeScale = e.feeCur === m.base ? m.baseScale : m.quoteScale;
  return {
    status: e.status,
    dealAmount: toUnits(e.dealAmount, m.qtyDecimals),
    dealTotal: toUnits(e.dealTotal, m.quoteScale),
    fee: toUnits(e.fee, feeScale),
    feeCur: e.feeCur,
  };
}

function showState(s: OrderState | undefined): string {
  return s ? `${s.status} filled=${s.dealAmount} quote=${s.dealTotal} fee=${s.fee}` : 'none';
}

/** Counters of a run. */
export interface Counters {
  placesSent: number;
  placesAcked: number;
  placesRejected: number;
  placesUnknown: number;
  cancelsSent: number;
  cancelsAcked: number;
  cancelsRejected: number;
  cancelsUnknown: number;
  retriesSent: number;
  retriesAcked: number;
  serverErrors: number;
  /** Rejections (FAILED answers) by command and error code, e.g. "cancel order_not_found". */
  rejections: Record<string, number>;
}

function zeroCounters(): Counters {
  return {
    placesSent: 0,
    placesAcked: 0,
    placesRejected: 0,
    placesUnknown: 0,
    cancelsSent: 0,
    cancelsAcked: 0,
    cancelsRejected: 0,
    cancelsUnknown: 0,
    retriesSent: 0,
    retriesAcked: 0,
    serverErrors: 0,
    rejections: {},
  };
}

/** Everything submitted in the run, by client order id. */
export class Model {
  readonly orders = new Map<string, OrderRec>();
  readonly counters = zeroCounters();
  /** Violations found while the load runs (e.g. a retry answered with another order). */
  readonly violations: string[] = [];
  /** Fills verified per order id, with the aggregates they were verified against. */
  readonly fills = new Map<string, { agg: string; fills: EntrustDetail['fills']; side: 'BUY' | 'SELL'; symbol: string; user: number }>();
  private seq = 0;
  constructor(readonly runTag: string) {}

  /** A fresh client order id (<= 36 characters of [A-Za-z0-9_-]). */
  nextCid(cycle: number): string {
    return `${this.runTag}-${cycle}-${(this.seq++).toString(36)}`;
  }

  /** Orders of `user` that are open as far as the client knows and have no cancel sent. */
  openOf(user: number): OrderRec[] {
    const out: OrderRec[] = [];
    for (const r of this.orders.values()) if (r.user === user && r.id !== undefined && r.cancelSent === 0 && r.known && OPEN.has(r.known.status)) out.push(r);
    return out;
  }

  /** Acknowledged places of `user` (for retries). */
  ackedOf(user: number): OrderRec[] {
    const out: OrderRec[] = [];
    for (const r of this.orders.values()) if (r.user === user && r.outcome === 'acked') out.push(r);
    return out;
  }
}

// ---------------------------------------------------------------- load

/** The load's shape. */
export interface LoadOptions {
  workers: number;
  /** Notional of one order in whole quote units, [lo, hi]. */
  notional: [number, number];
  /** Most open orders a user keeps before cancels take precedence. */
  maxOpenPerUser: number;
}

/** Commands of the load, driven by workers until `stop()`; every answer goes into the model. */
export class LoadDriver {
  private stopping = false;
  private running: Promise<void>[] = [];
  /** Acknowledged commands (SUCCEED) in this cycle. */
  acks = 0;
  sent = 0;

  constructor(
    private readonly c: ApiClient,
    private readonly users: User[],
    private readonly markets: MarketInfo[],
    private readonly model: Model,
    private readonly cycle: number,
    private readonly seed: number,
    private readonly o: LoadOptions,
  ) {}

  private failure: unknown = null;

  start(): void {
    const guard = (p: Promise<void>) =>
      p.catch((err: unknown) => {
        this.failure ??= err;
        this.stopping = true;
      });
    for (let w = 0; w < this.o.workers; w++) this.running.push(guard(this.worker(w)));
    this.running.push(guard(this.depthRefresher()));
  }

  /** No new command from now on (requests already sent stay in flight). */
  halt(): void {
    this.stopping = true;
  }

  /** Halts and waits for every worker (in-flight requests end with the process); rethrows a worker's bug. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.running);
    if (this.failure !== null) throw this.failure;
  }

  private async depthRefresher(): Promise<void> {
    while (!this.stopping) {
      for (const m of this.markets) {
        try {
          await refreshDepth(this.c, m);
        } catch {
          // the process died: the workers notice too
        }
      }
      await sleep(500);
    }
  }

  private async worker(w: number): Promise<void> {
    const rng = new Prng(mixSeed(this.seed, this.cycle, w));
    while (!this.stopping) {
      try {
        await this.step(rng);
      } catch (err) {
        if (this.stopping) return;
        throw err;
      }
    }
  }

  private pick<T>(rng: Prng, xs: readonly T[]): T {
    return xs[rng.nextInt(0, xs.length - 1)]!;
  }

  /** Price `bps` basis points above (+) or below (-) the mid, on the tick. */
  private priceAt(m: MarketInfo, bps: number): bigint {
    const p = (m.mid * BigInt(10_000 + bps)) / 10_000n;
    const t = p - (p % m.tickUnits);
    return t > 0n ? t : m.tickUnits;
  }

  /** Quantity worth about `notional` whole quote units at `price`, on the step, above the minimums. */
  private qtyFor(m: MarketInfo, price: bigint, notional: number): bigint {
    const want = BigInt(notional) * pow10(m.quoteScale);
    const unit = price * m.notionalMult;
    let q = unit > 0n ? (want + unit - 1n) / unit : m.minQtyUnits;
    q = ((q + m.stepUnits - 1n) / m.stepUnits) * m.stepUnits;
    if (q < m.minQtyUnits) q = m.minQtyUnits;
    while (price * q * m.notionalMult < m.minNotional) q += m.stepUnits;
    return q;
  }

  private notional(rng: Prng): number {
    return rng.nextInt(this.o.notional[0], this.o.notional[1]);
  }

  private async step(rng: Prng): Promise<void> {
    const m = this.pick(rng, this.markets);
    if (m.mid === 0n) {
      await sleep(50);
      return;
    }
    const u = rng.nextInt(0, this.users.length - 1);
    const open = this.model.openOf(u);
    const r = rng.next();
    if (open.length > 0 && (r < 0.15 || open.length >= this.o.maxOpenPerUser)) {
      await this.cancel(this.pick(rng, open));
      return;
    }
    if (r < 0.45) {
      // A resting order 2-4 % away from the mid (outside the liquidity bots' ladder).
      const side = rng.next() < 0.5 ? 'BUY' : 'SELL';
      const price = this.priceAt(m, (side === 'BUY' ? -1 : 1) * rng.nextInt(200, 400));
      await this.place(u, m, { side, orderType: 'LIMIT', timeInForce: 'GTC', price, qty: this.qtyFor(m, price, this.notional(rng)) });
    } else if (r < 0.65 && this.users.length > 1) {
      // Two users cross at a price inside the spread: the second order fills against the first.
      let v = rng.nextInt(0, this.users.length - 2);
      if (v >= u) v++;
      const spreadTicks = m.bestBid !== null && m.bestAsk !== null ? (m.bestAsk - m.bestBid) / m.tickUnits : 0n;
      const offset =
        spreadTicks > 4n
          ? BigInt(rng.nextInt(-Number(spreadTicks / 4n > 50n ? 50n : spreadTicks / 4n), Number(spreadTicks / 4n > 50n ? 50n : spreadTicks / 4n)))
          : 0n;
      const price = m.mid + offset * m.tickUnits;
      const qty = this.qtyFor(m, price, this.notional(rng));
      const makerSide = rng.next() < 0.5 ? 'BUY' : 'SELL';
      const takerSide = makerSide === 'BUY' ? 'SELL' : 'BUY';
      const made = await this.place(u, m, { side: makerSide, orderType: 'LIMIT', timeInForce: 'GTC', price, qty });
      if (made && !this.stopping)
        await this.place(v, m, {
          side: takerSide,
          orderType: 'LIMIT',
          timeInForce: this.pick(rng, ['GTC', 'IOC', 'FOK']),
          price,
          qty: rng.next() < 0.5 ? qty : qty * 2n,
        });
    } else if (r < 0.75) {
      // A limit taker through the best level (IOC or FOK).
      const side = rng.next() < 0.5 ? 'BUY' : 'SELL';
      const price = this.priceAt(m, (side === 'BUY' ? 1 : -1) * rng.nextInt(5, 60));
      await this.place(u, m, { side, orderType: 'LIMIT', timeInForce: this.pick(rng, ['IOC', 'FOK']), price, qty: this.qtyFor(m, price, this.notional(rng)) });
    } else if (r < 0.92) {
      // Market orders: BUY by total, BUY by quantity, SELL by quantity.
      const k = rng.nextInt(0, 2);
      const n = this.notional(rng);
      if (k === 0) await this.place(u, m, { side: 'BUY', orderType: 'MARKET', total: BigInt(n) * pow10(m.quoteScale) });
      else await this.place(u, m, { side: k === 1 ? 'BUY' : 'SELL', orderType: 'MARKET', qty: this.qtyFor(m, m.mid, n) });
    } else {
      const acked = this.model.ackedOf(u);
      if (acked.length > 0) await this.retry(this.pick(rng, acked));
    }
  }

  /** Submits an order (a new client order id), records the answer; true when acknowledged. */
  async place(
    user: number,
    m: MarketInfo,
    o: { side: 'BUY' | 'SELL'; orderType: 'LIMIT' | 'MARKET'; timeInForce?: string; price?: bigint; qty?: bigint; total?: bigint },
  ): Promise<boolean> {
    const rec: OrderRec = {
      cid: this.model.nextCid(this.cycle),
      user,
      symbol: m.symbol,
      side: o.side,
      orderType: o.orderType,
      timeInForce: o.timeInForce ?? (o.orderType === 'LIMIT' ? 'GTC' : 'IOC'),
      price: o.price === undefined ? '' : fromUnits(o.price, m.priceDecimals),
      amount: o.qty === undefined ? '' : fromUnits(o.qty, m.qtyDecimals),
      total: o.total === undefined ? '' : fromUnits(o.total, m.quoteScale),
      cycle: this.cycle,
      outcome: 'pending',
      cancelSent: 0,
      cancelEndedAck: false,
      cancelUnresolved: false,
    };
    this.model.orders.set(rec.cid, rec);
    this.model.counters.placesSent++;
    this.sent++;
    const a = await this.send<Entrust>(API_PATHS.setEntrust, this.body(rec), user, 'places');
    if (a === null) {
      rec.outcome = 'unknown';
      return false;
    }
    if (a.body.status !== 'SUCCEED') {
      rec.outcome = 'rejected';
      rec.rejectCode = a.body.errorCode;
      return false;
    }
    rec.outcome = 'acked';
    rec.id = a.body.result.id;
    rec.acked = stateOf(a.body.result, m);
    rec.known = rec.acked;
    this.acks++;
    this.checkEcho(rec, a.body.result, 'acknowledgement');
    return true;
  }

  private body(rec: OrderRec): Params {
    return {
      pairsName: rec.symbol,
      side: rec.side,
      orderType: rec.orderType,
      timeInForce: rec.timeInForce,
      price: rec.price,
      amount: rec.amount,
      total: rec.total,
      clientOrderId: rec.cid,
    };
  }

  /** The answer names the order that was sent (fields as submitted). */
  private checkEcho(rec: OrderRec, e: Entrust, what: string): void {
    const bad = echoMismatch(rec, e);
    if (bad) this.model.violations.push(`${what} of ${rec.cid} (user ${rec.user}) names another order: ${bad}`);
  }

  /** Cancels by id; records the answer on the order. */
  async cancel(rec: OrderRec): Promise<void> {
    rec.cancelSent++;
    this.model.counters.cancelsSent++;
    this.sent++;
    const m = this.markets.find((x) => x.symbol === rec.symbol)!;
    const a = await this.send<Entrust>(API_PATHS.cancelEntrust, { id: rec.id }, rec.user, 'cancels');
    if (a === null) {
      rec.cancelUnresolved = true;
      return;
    }
    if (a.body.status === 'SUCCEED') {
      this.acks++;
      const s = stateOf(a.body.result, m);
      if (a.body.result.id !== rec.id || s.status !== 'CANCELED')
        this.model.violations.push(`cancel of ${rec.id} (${rec.cid}) acknowledged as ${a.body.result.id} ${s.status}`);
      rec.cancelAcked = s;
      if (rec.known && !TERMINAL.has(rec.known.status)) rec.known = s;
    } else if (a.body.errorCode === 'order_not_found') {
      // Acknowledged: the order was no longer open (filled meanwhile).
      rec.cancelEndedAck = true;
    }
  }

  /** Sends an acknowledged order again with the same client order id: the answer must be the same order. */
  async retry(rec: OrderRec): Promise<void> {
    this.model.counters.retriesSent++;
    this.sent++;
    const a = await this.send<Entrust>(API_PATHS.setEntrust, this.body(rec), rec.user, 'retries');
    if (a === null || a.body.status !== 'SUCCEED') {
      // A retry counts against the order rate limit like any placement; any other refusal breaks idempotency.
      if (a !== null && a.http !== 429) this.model.violations.push(`retry of ${rec.cid} (order ${rec.id}) was refused: ${a.body.errorCode}`);
      return;
    }
    this.acks++;
    this.model.counters.retriesAcked++;
    if (a.body.result.id !== rec.id)
      this.model.violations.push(`retry of ${rec.cid} answered with order ${a.body.result.id}, the first answer was order ${rec.id}`);
    this.checkEcho(rec, a.body.result, 'retry answer');
  }

  /** POSTs and counts; null when the answer never came (the kill) or a 5xx came (outcome unknown). */
  private async send<T>(p: string, params: Params, user: number, kind: 'places' | 'cancels' | 'retries'): Promise<Answer<T> | null> {
    const c = this.model.counters;
    let a: Answer<T>;
    try {
      a = await this.c.request<T>('POST', p, params, this.users[user]!.session);
    } catch (err) {
      if (!(err instanceof TransportError)) throw err;
      if (kind === 'places') c.placesUnknown++;
      else if (kind === 'cancels') c.cancelsUnknown++;
      if (!this.stopping) await sleep(20);
      return null;
    }
    if (a.http >= 500) {
      c.serverErrors++;
      if (kind === 'places') c.placesUnknown++;
      else if (kind === 'cancels') c.cancelsUnknown++;
      return null;
    }
    if (a.body.status === 'SUCCEED') {
      if (kind === 'places') c.placesAcked++;
      else if (kind === 'cancels') c.cancelsAcked++;
    } else {
      if (kind === 'places') c.placesRejected++;
      else if (kind === 'cancels') c.cancelsRejected++;
      const key = `${{ places: 'place', cancels: 'cancel', retries: 'retry' }[kind]} ${a.body.errorCode}`;
      c.rejections[key] = (c.rejections[key] ?? 0) + 1;
      // Rate limited (ORDER_RATE_PER_10S): back off instead of spinning on refusals.
      if (a.http === 429 && !this.stopping) await sleep(250);
    }
    return a;
  }
}

/** '' when `e` carries the submitted fields of `rec`, else what differs. */
function echoMismatch(rec: OrderRec, e: Entrust): string {
  const diffs: string[] = [];
  if (e.clientOrderId !== rec.cid) diffs.push(`clientOrderId ${e.clientOrderId}`);
  if (e.pairsName !== rec.symbol) diffs.push(`pair ${e.pairsName}`);
  if (e.side !== rec.side) diffs.push(`side ${e.side}`);
  if (e.orderType !== rec.orderType) diffs.push(`type ${e.orderType}`);
  if (e.timeInForce !== rec.timeInForce) diffs.push(`timeInForce ${e.timeInForce}`);
  if (rec.price !== '' && e.price !== rec.price) diffs.push(`price ${e.price} (sent ${rec.price})`);
  if (rec.amount !== '' && e.amount !== rec.amount) diffs.push(`amount ${e.amount} (sent ${rec.amount})`);
  if (rec.total !== '' && (e.total === '' || toUnits(e.total, 18) !== toUnits(rec.total, 18))) diffs.push(`total ${e.total} (sent ${rec.total})`);
  return diffs.join(', ');
}

// ---------------------------------------------------------------- checks after a restart

/** Figures of one check. */
export interface CheckReport {
  violations: string[];
  /** Acknowledged commands whose effect was verified (places, cancels, rejections). */
  ackedChecked: number;
  ordersChecked: number;
  /** Fills accounted for (each order's fills add up to its totals, and the balances to the fills). */
  fillsChecked: number;
  /** Fills fetched and verified one by one in this check. */
  fillsFetched: number;
  /** Trades between two test users, verified on both sides. */
  internalTrades: number;
  unackedApplied: number;
  unackedNotApplied: number;
  /** Unanswered cancels whose order was found CANCELED (applied) or still open or ended otherwise (not applied). */
  unackedCancelsApplied: number;
  unackedCancelsNotApplied: number;
  lost: number;
  invented: number;
  attempts: number;
}

type Found = Map<string, Entrust>;

/** Reads every order of a user (open and ended, all pages). */
async function listAll(c: ApiClient, s: Session, type: 'current' | 'history'): Promise<Entrust[]> {
  const out: Entrust[] = [];
  for (let page = 1; ; page++) {
    const p = await c.read<EntrustPage>(API_PATHS.getEntrustList, { type, page, pageSize: 100 }, s);
    out.push(...p.records);
    if (p.records.length === 0 || page * 100 >= p.total) {
      if (out.length !== p.total) throw new Error(`getEntrustList ${type}: ${out.length} records read, total ${p.total}`);
      return out;
    }
  }
}

/** Balances per coin: total over the four accounts, and frozen. */
function balancesOf(a: Assets, scaleOf: (coin: string) => number): Map<string, { total: bigint; frozen: bigint }> {
  const out = new Map<string, { total: bigint; frozen: bigint }>();
  for (const acc of a.accounts) {
    for (const i of acc.items) {
      const s = scaleOf(i.coin);
      const b = out.get(i.coin) ?? { total: 0n, frozen: 0n };
      b.total += toUnits(i.current, s);
      b.frozen += toUnits(i.frozen, s);
      if (toUnits(i.available, s) + toUnits(i.frozen, s) !== toUnits(i.current, s)) throw new Error(`${acc.type} ${i.coin}: available + frozen != current`);
      out.set(i.coin, b);
    }
  }
  return out;
}

/** Runs `f` over `xs` with at most `n` at a time. */
async function pool<T>(xs: T[], n: number, f: (x: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, xs.length) }, async () => {
      while (i < xs.length) await f(xs[i++]!);
    }),
  );
}

/** State advance order: a later state may only move forward. */
function rank(status: string): number {
  return status === 'NEW' ? 0 : status === 'PARTIALLY_FILLED' ? 1 : TERMINAL.has(status) ? 2 : -1;
}

interface UserCheck {
  violations: string[];
  found: Found;
  fetched: Map<string, EntrustDetail>;
  ackedChecked: number;
  lost: number;
  invented: number;
}

/**
 * Checks one user's orders, fills and balances against the model, without changing the model. A result read
 * while something still moved (the liquidity bots trade against the user) is detected by balances that differ
 * before and after the reads; the caller retries then.
 */
async function checkUser(c: ApiClient, u: User, model: Model, markets: Map<string, MarketInfo>): Promise<UserCheck & { stable: boolean }> {
  const v: string[] = [];
  const s = u.session;
  const before = await c.read<Assets>(API_PATHS.getAssets, {}, s);
  const scales = new Map<string, number>();
  for (const acc of before.accounts) for (const i of acc.items) scales.set(i.coin, decimalsOf(i.current));
  const scaleOf = (coin: string) => scales.get(coin) ?? 8;
  const current = await listAll(c, s, 'current');
  const history = await listAll(c, s, 'history');
  const found: Found = new Map();
  for (const e of [...current, ...history]) {
    if (found.has(e.id)) v.push(`user ${u.index}: order ${e.id} listed twice`);
    found.set(e.id, e);
  }
  for (const e of current) if (!OPEN.has(e.status)) v.push(`user ${u.index}: order ${e.id} listed as open with status ${e.status}`);
  for (const e of history) if (!TERMINAL.has(e.status)) v.push(`user ${u.index}: order ${e.id} listed as ended with status ${e.status}`);

  // Orders found -> submissions.
  let invented = 0;
  const byCid = new Map<string, Entrust>();
  for (const e of found.values()) {
    const rec = e.clientOrderId ? model.orders.get(e.clientOrderId) : undefined;
    if (!rec || rec.user !== u.index) {
      invented++;
      v.push(
        `INVENTED: user ${u.index} has order ${e.id} (clientOrderId "${e.clientOrderId}", ${e.side} ${e.amount} ${e.pairsName} @ ${e.price}) that was never submitted`,
      );
      continue;
    }
    if (byCid.has(rec.cid)) v.push(`user ${u.index}: two orders (${byCid.get(rec.cid)!.id}, ${e.id}) for clientOrderId ${rec.cid}`);
    byCid.set(rec.cid, e);
  }

  let ackedChecked = 0;
  let lost = 0;
  const fetchIds: string[] = [];
  for (const rec of model.orders.values()) {
    if (rec.user !== u.index) continue;
    const e = byCid.get(rec.cid);
    const m = markets.get(rec.symbol)!;
    if (rec.outcome === 'rejected') {
      ackedChecked++;
      if (e) {
        invented++;
        v.push(`INVENTED: ${rec.cid} was rejected (${rec.rejectCode}) but order ${e.id} exists (${e.status})`);
      }
      continue;
    }
    const mustExist = rec.outcome === 'acked' || rec.applied === true;
    if (rec.outcome === 'unknown' && rec.applied === false && e) {
      invented++;
      v.push(`INVENTED: ${rec.cid} was in flight at a kill and absent after the restart, but order ${e.id} exists now (${e.status})`);
      continue;
    }
    if (!e) {
      if (mustExist) {
        lost++;
        v.push(
          `LOST: ${rec.outcome === 'acked' ? 'acknowledged' : 'recovered'} order ${rec.id} (${rec.cid}, user ${u.index}, ${rec.side} ${rec.orderType} ${rec.amount || rec.total} ${rec.symbol} @ ${rec.price || 'market'}, cycle ${rec.cycle}) is missing; last known ${showState(rec.known)}`,
        );
      }
      continue;
    }
    if (rec.outcome === 'acked') ackedChecked++;
    if (rec.id !== undefined && e.id !== rec.id) v.push(`${rec.cid}: acknowledged as order ${rec.id}, found as ${e.id}`);
    const echo = echoMismatch(rec, e);
    if (echo) v.push(`order ${e.id} (${rec.cid}) differs from what was sent: ${echo}`);
    const now = stateOf(e, m);
    const known = rec.known;
    if (known) {
      if (TERMINAL.has(known.status)) {
        if (now.status !== known.status || now.dealAmount !== known.dealAmount || now.dealTotal !== known.dealTotal || now.fee !== known.fee) {
          v.push(`order ${e.id} (${rec.cid}) was ${showState(known)} (durable) and is now ${showState(now)}`);
        }
      } else if (rank(now.status) < rank(known.status) || now.dealAmount < known.dealAmount || now.dealTotal < known.dealTotal || now.fee < known.fee) {
        v.push(`order ${e.id} (${rec.cid}) went back from ${showState(known)} to ${showState(now)}`);
      }
    }
    if (now.status === 'CANCELED' && rec.cancelSent === 0) v.push(`order ${e.id} (${rec.cid}) is CANCELED but no cancel was ever sent`);
    if (now.status === 'EXPIRED' && rec.acked && OPEN.has(rec.acked.status))
      v.push(`order ${e.id} (${rec.cid}) rested (${rec.acked.status}) and is now EXPIRED`);
    if (rec.cancelAcked) {
      ackedChecked++;
      if (now.status !== 'CANCELED' || now.dealAmount !== rec.cancelAcked.dealAmount)
        v.push(`order ${e.id} (${rec.cid}): cancel acknowledged at ${showState(rec.cancelAcked)}, now ${showState(now)}`);
    }
    if (rec.cancelEndedAck) {
      ackedChecked++;
      if (!TERMINAL.has(now.status)) v.push(`order ${e.id} (${rec.cid}): a cancel was answered order_not_found (ended) but the order is ${now.status}`);
    }
    if (OPEN.has(now.status) && !current.some((x) => x.id === e.id)) v.push(`order ${e.id} is ${now.status} but not listed as open`);
    const agg = `${e.status}/${e.dealAmount}/${e.dealTotal}/${e.fee}`;
    if (now.dealAmount > 0n && model.fills.get(e.id)?.agg !== agg) fetchIds.push(e.id);
  }

  // Fills of orders that changed since they were last verified.
  const fetched = new Map<string, EntrustDetail>();
  await pool(fetchIds, 8, async (id) => {
    fetched.set(id, await c.read<EntrustDetail>(API_PATHS.getEntrustDetail, { id }, s));
  });
  for (const [id, d] of fetched) {
    const e = found.get(id)!;
    const m = markets.get(e.pairsName)!;
    let qty = 0n;
    let quote = 0n;
    let fee = 0n;
    const seen = new Set<string>();
    for (const f of d.fills) {
      if (seen.has(f.tradeId)) v.push(`order ${id}: trade ${f.tradeId} listed twice`);
      seen.add(f.tradeId);
      qty += toUnits(f.amount, m.qtyDecimals);
      quote += toUnits(f.total, m.quoteScale);
      fee += toUnits(f.fee, f.feeCur === m.base ? m.baseScale : m.quoteScale);
      if (f.feeCur !== e.feeCur) v.push(`order ${id}: fill ${f.tradeId} fee in ${f.feeCur}, order fee in ${e.feeCur}`);
      const p = toUnits(f.price, m.priceDecimals);
      if (toUnits(f.amount, m.qtyDecimals) * p * m.notionalMult !== toUnits(f.total, m.quoteScale))
        v.push(`order ${id}: fill ${f.tradeId} total ${f.total} != ${f.amount} x ${f.price}`);
      if (e.price !== '') {
        const limit = toUnits(e.price, m.priceDecimals);
        if (e.side === 'BUY' ? p > limit : p < limit) v.push(`order ${id}: fill ${f.tradeId} at ${f.price} beyond the limit ${e.price} (${e.side})`);
      }
    }
    const st = stateOf(d, m);
    if (st.dealAmount !== qty || st.dealTotal !== quote || st.fee !== fee) {
      v.push(`order ${id}: fills add up to qty ${qty} quote ${quote} fee ${fee}, the order says ${showState(st)} (list: ${showState(stateOf(e, m))})`);
    }
    if (d.status !== e.status || d.dealAmount !== e.dealAmount) v.push(`order ${id}: detail ${d.status} ${d.dealAmount}, list ${e.status} ${e.dealAmount}`);
  }

  // Balances: faucet + net of fills - fees; frozen = what the open orders hold.
  const expected = new Map<string, { total: bigint; frozen: bigint }>();
  const add = (coin: string, total: bigint, frozen: bigint) => {
    const b = expected.get(coin) ?? { total: 0n, frozen: 0n };
    b.total += total;
    b.frozen += frozen;
    expected.set(coin, b);
  };
  add('USDT', FAUCET_USDT * pow10(scaleOf('USDT')), 0n);
  for (const e of found.values()) {
    const m = markets.get(e.pairsName);
    if (!m) continue;
    const st = stateOf(e, m);
    const base = st.dealAmount * m.baseMult;
    add(m.base, e.side === 'BUY' ? base : -base, 0n);
    add(m.quote, e.side === 'BUY' ? -st.dealTotal : st.dealTotal, 0n);
    add(st.feeCur, -st.fee, 0n);
    if (OPEN.has(e.status)) {
      const remaining = toUnits(e.amount, m.qtyDecimals) - st.dealAmount;
      if (e.side === 'BUY') add(m.quote, 0n, toUnits(e.price, m.priceDecimals) * remaining * m.notionalMult);
      else add(m.base, 0n, remaining * m.baseMult);
    }
  }
  const after = await c.read<Assets>(API_PATHS.getAssets, {}, s);
  const stable = JSON.stringify(before.accounts) === JSON.stringify(after.accounts);
  const have = balancesOf(after, scaleOf);
  for (const coin of new Set([...have.keys(), ...expected.keys()])) {
    const h = have.get(coin) ?? { total: 0n, frozen: 0n };
    const x = expected.get(coin) ?? { total: 0n, frozen: 0n };
    const sc = scaleOf(coin);
    if (h.total !== x.total)
      v.push(
        `BALANCE: user ${u.index} ${coin} total ${fromUnits(h.total, sc)}, expected ${fromUnits(x.total, sc)} from the faucet and the fills (off by ${fromUnits(h.total - x.total, sc)})`,
      );
    if (h.frozen !== x.frozen) v.push(`BALANCE: user ${u.index} ${coin} frozen ${fromUnits(h.frozen, sc)}, the open orders hold ${fromUnits(x.frozen, sc)}`);
  }
  return { violations: v, found, fetched, ackedChecked, lost, invented, stable };
}

/**
 * Checks every user after a restart (see the file comment); retries a user whose reads were not stable or not
 * clean (up to `attempts`), then commits what was observed into the model (durable states, resolved unknowns).
 */
export async function checkAll(c: ApiClient, users: User[], model: Model, markets: Map<string, MarketInfo>, attempts = 4): Promise<CheckReport> {
  const report: CheckReport = {
    violations: [...model.violations],
    ackedChecked: 0,
    ordersChecked: 0,
    fillsChecked: 0,
    fillsFetched: 0,
    internalTrades: 0,
    unackedApplied: 0,
    unackedNotApplied: 0,
    unackedCancelsApplied: 0,
    unackedCancelsNotApplied: 0,
    lost: 0,
    invented: 0,
    attempts: 0,
  };
  model.violations.length = 0;
  const results: UserCheck[] = [];
  for (const u of users) {
    let r: UserCheck & { stable: boolean };
    for (let attempt = 1; ; attempt++) {
      report.attempts++;
      r = await checkUser(c, u, model, markets);
      if ((r.stable && r.violations.length === 0) || attempt >= attempts) break;
      await sleep(500 * attempt);
    }
    if (!r.stable) r.violations.push(`user ${u.index}: balances kept changing during ${attempts} attempts to check`);
    results.push(r);
  }

  // Commit: states observed after a restart are durable; unknown outcomes are resolved.
  for (const [i, r] of results.entries()) {
    report.violations.push(...r.violations);
    report.ackedChecked += r.ackedChecked;
    report.lost += r.lost;
    report.invented += r.invented;
    report.ordersChecked += r.found.size;
    const byCid = new Map<string, Entrust>();
    for (const e of r.found.values()) byCid.set(e.clientOrderId, e);
    for (const rec of model.orders.values()) {
      if (rec.user !== i) continue;
      const e = byCid.get(rec.cid);
      const m = markets.get(rec.symbol)!;
      if (rec.outcome === 'unknown' && rec.applied === undefined) {
        rec.applied = e !== undefined;
        if (rec.applied) report.unackedApplied++;
        else report.unackedNotApplied++;
      }
      if (rec.cancelUnresolved) {
        rec.cancelUnresolved = false;
        // Applied when the order ended CANCELED and no other cancel of it was acknowledged.
        if (e?.status === 'CANCELED' && !rec.cancelAcked) report.unackedCancelsApplied++;
        else report.unackedCancelsNotApplied++;
      }
      if (e) {
        rec.id = e.id;
        const now = stateOf(e, m);
        if (!rec.known || !TERMINAL.has(rec.known.status)) rec.known = now;
      }
    }
    for (const [id, d] of r.fetched) {
      const e = r.found.get(id)!;
      model.fills.set(id, { agg: `${e.status}/${e.dealAmount}/${e.dealTotal}/${e.fee}`, fills: d.fills, side: e.side, symbol: e.pairsName, user: i });
      report.fillsFetched += d.fills.length;
    }
    for (const e of r.found.values()) report.fillsChecked += model.fills.get(e.id)?.fills.length ?? 0;
  }

  // Trades between two test users: both sides report the same trade.
  const byTrade = new Map<string, Array<{ orderId: string; f: EntrustDetail['fills'][number]; side: string; symbol: string; user: number }>>();
  for (const [orderId, x] of model.fills) {
    for (const f of x.fills) {
      const list = byTrade.get(f.tradeId) ?? [];
      list.push({ orderId, f, side: x.side, symbol: x.symbol, user: x.user });
      byTrade.set(f.tradeId, list);
    }
  }
  for (const [tradeId, sides] of byTrade) {
    if (sides.length === 1) continue;
    const [a, b] = sides as [(typeof sides)[number], (typeof sides)[number]];
    if (sides.length > 2) report.violations.push(`trade ${tradeId} is reported by ${sides.length} orders`);
    else if (
      a.symbol !== b.symbol ||
      a.side === b.side ||
      a.f.role === b.f.role ||
      a.f.price !== b.f.price ||
      a.f.amount !== b.f.amount ||
      a.f.total !== b.f.total
    ) {
      report.violations.push(
        `trade ${tradeId} differs between order ${a.orderId} (${a.side} ${a.f.role} ${a.f.amount} @ ${a.f.price}) and order ${b.orderId} (${b.side} ${b.f.role} ${b.f.amount} @ ${b.f.price})`,
      );
    } else report.internalTrades++;
  }
  return report;
}

// ---------------------------------------------------------------- the loop

/** When the liquidity bots run: every start, never, or only the first start (to sell the users some base). */
export type MarketMakersMode = 'on' | 'off' | 'first';

/** Options of a crash loop. */
export interface CrashLoopOptions {
  seed: number;
  cycles: number;
  users: number;
  workers: number;
  symbols: string[];
  marketMakers: MarketMakersMode;
  /** The kill comes this long after the load starts, uniformly in [lo, hi] ms ... */
  killAfterMs: [number, number];
  /** ... and not before this many commands of the cycle were acknowledged. */
  minAcksPerCycle: number;
  /** Probability that a restart is itself killed with SIGKILL after [0, 3000] ms (a crash during recovery). */
  killDuringStart: number;
  /** ORDER_RATE_PER_10S of the server: 0 (unlimited) by default, so that a few users make a heavy load. */
  orderRatePer10s: number;
  /** Quote spent per market per user on base from the bots at the first start. */
  bootstrapQuote: number;
  notional: [number, number];
  maxOpenPerUser: number;
  startTimeoutMs: number;
  root: string;
  /** Keep the data directory (it is kept anyway when a violation was found). */
  keepDataDir: boolean;
  log: (line: string) => void;
}

/** Defaults of the script (`npm run crash-loop`). */
export const DEFAULT_OPTIONS: Omit<CrashLoopOptions, 'seed' | 'log'> = {
  cycles: 20,
  users: 4,
  workers: 6,
  symbols: ['BTC/USDT', 'ETH/USDT'],
  marketMakers: 'first',
  killAfterMs: [300, 4000],
  minAcksPerCycle: 5,
  killDuringStart: 0.2,
  orderRatePer10s: 0,
  bootstrapQuote: 1000,
  notional: [6, 30],
  maxOpenPerUser: 30,
  startTimeoutMs: 180_000,
  root: REPO_ROOT,
  keepDataDir: false,
};

/** One cycle's figures. */
export interface CycleReport {
  cycle: number;
  sent: number;
  acks: number;
  killAfterMs: number;
  /** From the kill to the restarted server's /readyz 200 (including a restart killed during recovery). */
  restartMs: number;
  /** From the last spawn to its /healthz 200 and to its /readyz 200 (ServerProcess.start). */
  spawnToHealthMs: number;
  spawnToReadyMs: number;
  killedDuringStart: boolean;
  recovery: RecoveryLog | null;
  check: CheckReport;
}

/** The run's figures. */
export interface CrashLoopReport {
  seed: number;
  ms: number;
  dataDir: string;
  cycles: CycleReport[];
  counters: Counters;
  totals: {
    ackedCommands: number;
    ackedChecked: number;
    ordersChecked: number;
    fillsDistinct: number;
    fillsChecked: number;
    internalTrades: number;
    unackedApplied: number;
    unackedNotApplied: number;
    unackedCancelsApplied: number;
    unackedCancelsNotApplied: number;
    lost: number;
    invented: number;
    violations: number;
  };
  violations: string[];
  /** Set when the run stopped on an error that is not a checked violation (e.g. the server did not start). */
  error?: string;
}

/** Registers the users, then runs `cycles` of load, SIGKILL, restart and check. Never throws: errors are reported. */
export async function runCrashLoop(o: CrashLoopOptions): Promise<CrashLoopReport> {
  const started = Date.now();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-crash-loop-'));
  const port = await freePort();
  const runTag = `cl${(o.seed >>> 0).toString(36)}`;
  const model = new Model(runTag);
  const cycles: CycleReport[] = [];
  const violations: string[] = [];
  let server: ServerProcess | null = null;
  let client: ApiClient | null = null;
  let error: string | undefined;
  const serverOpts = (marketMakers: boolean): ServerOptions => ({
    root: o.root,
    dataDir,
    port,
    marketMakers,
    orderRatePer10s: o.orderRatePer10s,
    startTimeoutMs: o.startTimeoutMs,
  });
  o.log(
    `crash loop: seed ${o.seed}, ${o.cycles} cycles, ${o.users} users, ${o.workers} workers, ${o.symbols.join(' ')}, market makers ${o.marketMakers}, data ${dataDir}, port ${port}`,
  );
  try {
    let t = Date.now();
    server = await ServerProcess.start(serverOpts(o.marketMakers !== 'off'));
    client = new ApiClient(port);
    o.log(`first start ${Date.now() - t} ms`);
    const users: User[] = [];
    for (let i = 0; i < o.users; i++) {
      const mail = `${runTag}-u${i}@example.com`;
      const password = 'Crash-loop-1';
      users.push({ index: i, mail, password, session: await registerUser(client, mail, password) });
    }
    const markets = await loadMarkets(client, o.symbols, users[0]!.session);
    const marketList = [...markets.values()];
    // Every user starts with the faucet's USDT and nothing else.
    {
      const r = await checkAll(client, users, model, markets);
      if (r.violations.length > 0) throw new Error(`after registration: ${r.violations.join('; ')}`);
    }
    if (o.marketMakers !== 'off') {
      // Base from the bots: wait for their ladders, then every user buys with a market order (recorded like any other).
      t = Date.now();
      for (const m of marketList) {
        for (;;) {
          await refreshDepth(client, m);
          if (m.bestAsk !== null && m.bestBid !== null) break;
          if (Date.now() - t > 60_000) throw new Error(`no liquidity-bot ladder on ${m.symbol} after 60 s`);
          await sleep(250);
        }
      }
      const boot = new LoadDriver(client, users, marketList, model, 0, o.seed, { workers: 0, notional: o.notional, maxOpenPerUser: o.maxOpenPerUser });
      for (const u of users) {
        for (const m of marketList) {
          const ok = await boot.place(u.index, m, { side: 'BUY', orderType: 'MARKET', total: BigInt(o.bootstrapQuote) * pow10(m.quoteScale) });
          if (!ok) throw new Error(`bootstrap market buy on ${m.symbol} for user ${u.index} failed: ${[...model.orders.values()].pop()?.rejectCode}`);
        }
      }
      o.log(`bootstrap: ${users.length * marketList.length} market buys in ${Date.now() - t} ms`);
    }

    for (let cycle = 1; cycle <= o.cycles; cycle++) {
      const rng = new Prng(mixSeed(o.seed, cycle, 0x6b696c6c));
      const killAfterMs = rng.nextInt(o.killAfterMs[0], o.killAfterMs[1]);
      const killStart = rng.next() < o.killDuringStart;
      const killStartAfterMs = rng.nextInt(0, 3000);
      for (const m of marketList) await refreshDepth(client, m);
      const load = new LoadDriver(client, users, marketList, model, cycle, o.seed, {
        workers: o.workers,
        notional: o.notional,
        maxOpenPerUser: o.maxOpenPerUser,
      });
      const loadStart = Date.now();
      load.start();
      let stuck = false;
      while (Date.now() - loadStart < killAfterMs || load.acks < o.minAcksPerCycle) {
        if (Date.now() - loadStart > killAfterMs + 60_000) {
          stuck = true;
          break;
        }
        await sleep(5);
      }
      // No new command after this instant; the ones in flight meet the kill.
      load.halt();
      await server.stop('SIGKILL');
      client.close();
      await load.stop();
      if (stuck) violations.push(`cycle ${cycle}: fewer than ${o.minAcksPerCycle} commands acknowledged in ${killAfterMs + 60_000} ms`);

      t = Date.now();
      const mm = o.marketMakers === 'on';
      if (killStart) {
        // A crash while recovering: the restart itself is killed after a random delay, then started again.
        const p = ServerProcess.spawn(serverOpts(mm));
        await sleep(killStartAfterMs);
        await p.stop('SIGKILL');
      }
      server = await ServerProcess.start(serverOpts(mm));
      const restartMs = Date.now() - t;
      client = new ApiClient(port);
      await renewSessions(client, users);
      const check = await checkAll(client, users, model, markets);
      cycles.push({
        cycle,
        sent: load.sent,
        acks: load.acks,
        killAfterMs,
        restartMs,
        spawnToHealthMs: server.healthMs,
        spawnToReadyMs: server.readyMs,
        killedDuringStart: killStart,
        recovery: server.recovery,
        check,
      });
      o.log(cycleLine(cycles[cycles.length - 1]!));
      if (load.acks === 0) violations.push(`cycle ${cycle}: no command was acknowledged`);
      violations.push(...check.violations.map((x) => `cycle ${cycle}: ${x}`));
      if (violations.length > 0) break;
    }
  } catch (err) {
    error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    if (server) error += `\n--- server output ---\n${server.tail()}`;
  } finally {
    client?.close();
    if (server) await server.stop('SIGTERM');
  }
  const sum = (f: (c: CheckReport) => number) => cycles.reduce((a, c) => a + f(c.check), 0);
  const c = model.counters;
  const report: CrashLoopReport = {
    seed: o.seed,
    ms: Date.now() - started,
    dataDir,
    cycles,
    counters: c,
    totals: {
      ackedCommands: c.placesAcked + c.placesRejected + c.cancelsAcked + c.cancelsRejected,
      ackedChecked: sum((x) => x.ackedChecked),
      ordersChecked: sum((x) => x.ordersChecked),
      fillsDistinct: [...model.fills.values()].reduce((a, x) => a + x.fills.length, 0),
      fillsChecked: sum((x) => x.fillsChecked),
      internalTrades: cycles.length > 0 ? cycles[cycles.length - 1]!.check.internalTrades : 0,
      unackedApplied: sum((x) => x.unackedApplied),
      unackedNotApplied: sum((x) => x.unackedNotApplied),
      unackedCancelsApplied: sum((x) => x.unackedCancelsApplied),
      unackedCancelsNotApplied: sum((x) => x.unackedCancelsNotApplied),
      lost: sum((x) => x.lost),
      invented: sum((x) => x.invented),
      violations: violations.length,
    },
    violations,
    ...(error !== undefined ? { error } : {}),
  };
  if (violations.length === 0 && error === undefined && !o.keepDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  return report;
}

/** Sessions survive a restart (they are in the database); a lost one is replaced by a login. */
async function renewSessions(c: ApiClient, users: User[]): Promise<void> {
  for (const u of users) {
    const a = await retryTransport(() => c.request<Assets>('GET', API_PATHS.getAssets, {}, u.session));
    if (a.body.status !== 'SUCCEED') u.session = await loginUser(c, u);
  }
}

async function retryTransport<T>(f: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await f();
    } catch (err) {
      if (!(err instanceof TransportError) || attempt >= 5) throw err;
      await sleep(200 * attempt);
    }
  }
}

/** One line per cycle. */
export function cycleLine(c: CycleReport): string {
  const r = c.recovery ? `, recovery replayed ${c.recovery.replayed}${c.recovery.torn ? ' (torn tail dropped)' : ''} in ${c.recovery.ms} ms` : '';
  return (
    `cycle ${String(c.cycle).padStart(2)}: kill after ${c.killAfterMs} ms${c.killedDuringStart ? ' (+ kill during restart)' : ''}, ${c.sent} sent, ${c.acks} acked; ` +
    `restart ${c.restartMs} ms (spawn to /healthz ${c.spawnToHealthMs} ms, to /readyz ${c.spawnToReadyMs} ms)${r}; checked ${c.check.ackedChecked} acked commands, ${c.check.ordersChecked} orders, ${c.check.fillsChecked} fills ` +
    `(${c.check.fillsFetched} fetched); unacked orders applied ${c.check.unackedApplied}, not ${c.check.unackedNotApplied}; unacked cancels applied ${c.check.unackedCancelsApplied}, ` +
    `not ${c.check.unackedCancelsNotApplied}; lost ${c.check.lost}; violations ${c.check.violations.length}`
  );
}

/** The final summary lines. */
export function summaryLines(r: CrashLoopReport): string[] {
  const c = r.counters;
  const t = r.totals;
  const restarts = r.cycles.map((x) => x.restartMs).sort((a, b) => a - b);
  const median = restarts.length === 0 ? 0 : restarts[Math.floor((restarts.length - 1) / 2)]!;
  return [
    `seed ${r.seed}: ${r.cycles.length} cycles in ${(r.ms / 1000).toFixed(1)} s`,
    `restarts (kill to /readyz): median ${median} ms, max ${restarts[restarts.length - 1] ?? 0} ms`,
    `commands: ${c.placesSent} orders sent (${c.placesAcked} acknowledged, ${c.placesRejected} rejected, ${c.placesUnknown} unanswered), ` +
      `${c.cancelsSent} cancels (${c.cancelsAcked} acknowledged, ${c.cancelsRejected} rejected, ${c.cancelsUnknown} unanswered), ${c.retriesSent} retries (${c.retriesAcked} answered), ${c.serverErrors} 5xx`,
    `rejections: ${
      Object.entries(c.rejections)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'none'
    }`,
    `acknowledged commands: ${t.ackedCommands}; acknowledged-command checks over all restarts: ${t.ackedChecked}`,
    `orders checked: ${t.ordersChecked}; fills checked: ${t.fillsChecked} (${t.fillsDistinct} distinct; ${t.internalTrades} trades between test users verified on both sides)`,
    `commands lost: ${t.lost}; orders invented: ${t.invented}; unacknowledged but applied: ${t.unackedApplied} orders, ${t.unackedCancelsApplied} cancels; ` +
      `unacknowledged and not applied: ${t.unackedNotApplied} orders, ${t.unackedCancelsNotApplied} cancels`,
    `violations: ${t.violations}${r.error ? '; ERROR (see above)' : ''}`,
  ];
}
