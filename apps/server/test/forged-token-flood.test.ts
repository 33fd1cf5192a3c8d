/**
 * A flood of forged session tokens does not starve other users. The app listens on a real
 * port behind a "proxy" (TRUST_PROXY = loopback, clients told apart by X-Forwarded-For): one attacker sends 300
 * requests a second for 10 s to a private route with random well-formed tokens, while another user places an
 * order every 250 ms and a monitor polls /healthz every 50 ms (the attacker runs in a worker thread, so that its
 * client work does not sit on the server's event loop). We print each latency's p50/p99/max, quiet and under
 * the flood, and require every order answered (SUCCEED), at most the IP's failed-lookup budget of token lookups,
 * and, on a machine quiet enough to measure it (/healthz p99 under 50 ms before and after the flood), at least 30 of the 40
 * orders and /healthz p99 under 100 ms during the flood (else the test says why and is skipped); a bound missed
 * once is measured again with a second flood from another address (a busy spell of CI's shared cores passes, a cost of
 * the flood repeats).
 * With the per-IP budget the attacker's requests past it are refused (429) before any token lookup.
 */
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '@exchange/api';
import type { MarketConfig } from '@exchange/core';
import { makeTestApp, type TestApp } from './helpers';
import { ensureMarket } from '../src/platform/engine-host/test-fixtures';

const MARKET: MarketConfig = {
  symbol: 'TFLD/USDT',
  base: 'TFLD',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 2,
  tickSize: 1n,
  stepSize: 1n,
  minQty: 1n,
  minNotional: 0n,
  makerFeePpm: 1000,
  takerFeePpm: 1000,
  status: 'TRADING',
};
const ATTACKER = '198.51.100.66';
/** The second flood's address, when the first missed the latency bound (a fresh address, not yet refused). */
const ATTACKER_2 = '198.51.100.67';
const VICTIM = '198.51.100.7';
const MONITOR = '198.51.100.9';

let t: TestApp;
let base = '';
let victim: { token: string; userId: string };

beforeAll(async () => {
  t = await makeTestApp({ trustProxy: ['127.0.0.1'], orderRatePer10s: 50 });
  await ensureMarket(t.ctx.host, MARKET);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  await t.ctx.members.ensureEmailUser('victim@flood.test', 'VictimPass1', '');
  const res = await fetch(`${base}/api/${API_PATHS.login}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': VICTIM },
    body: JSON.stringify({ account: 'victim@flood.test', password: 'VictimPass1' }),
  });
  victim = ((await res.json()) as { result: { token: string; userId: string } }).result;
  expect(victim.token).toBeTruthy();
});
afterAll(async () => {
  await t?.close();
});

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(ms: number[]): { n: number; p50: number; p99: number; max: number; text: string } {
  const s = [...ms].sort((a, b) => a - b);
  const r = { n: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] ?? Number.NaN };
  return { ...r, text: `n ${r.n}, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms` };
}

async function timed(f: () => Promise<Response>): Promise<{ ms: number; status: number; body: { status?: string; errorCode?: string } }> {
  const started = performance.now();
  const res = await f();
  const body = (await res.json()) as { status?: string; errorCode?: string };
  return { ms: performance.now() - started, status: res.status, body };
}

let orderSeq = 0;
/** The victim's order loop (one every 250 ms) and the monitor's /healthz loop (every 50 ms), for `ms`. */
async function others(ms: number): Promise<{ orders: number[]; orderFailures: string[]; health: number[] }> {
  const until = performance.now() + ms;
  const orders: number[] = [];
  const orderFailures: string[] = [];
  const health: number[] = [];
  const orderLoop = (async () => {
    while (performance.now() < until) {
      const next = performance.now() + 250;
      const r = await timed(() =>
        fetch(`${base}/api/${API_PATHS.setEntrust}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': VICTIM, token: victim.token, userId: victim.userId },
          body: JSON.stringify({ pairsName: MARKET.symbol, side: 'BUY', orderType: 'LIMIT', price: '0.01', amount: '1', clientOrderId: `flood-${orderSeq++}` }),
        }),
      );
      orders.push(r.ms);
      if (r.body.status !== 'SUCCEED') orderFailures.push(`${r.status} ${r.body.errorCode}`);
      await new Promise((res) => setTimeout(res, Math.max(0, next - performance.now())));
    }
  })();
  const healthLoop = (async () => {
    while (performance.now() < until) {
      const next = performance.now() + 50;
      const r = await timed(() => fetch(`${base}/healthz`, { headers: { 'x-forwarded-for': MONITOR } }));
      health.push(r.ms);
      await new Promise((res) => setTimeout(res, Math.max(0, next - performance.now())));
    }
  })();
  await Promise.all([orderLoop, healthLoop]);
  return { orders, orderFailures, health };
}

/**
 * The attacker, in a worker thread (its own event loop, as an outside client would be): `rate` POSTs a second to
 * `path` for `ms`, open loop (whatever the answers; at most 1,000 in flight over 64 keep-alive sockets), each with a
 * random well-formed token and user id. Posts back the counts of answers by HTTP status.
 */
const ATTACKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const crypto = require('node:crypto');
const { port, path, rate, ms, ip, body } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const answers = {};
let sent = 0, skipped = 0, inFlight = 0, due = 0;
const count = (k) => { answers[k] = (answers[k] || 0) + 1; inFlight--; };
function fire() {
  if (inFlight >= 1000) { skipped++; return; }
  inFlight++; sent++;
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': ip, token: crypto.randomBytes(32).toString('base64url'), userId: String(1 + crypto.randomInt(1000000)) };
  const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers }, (res) => { res.resume(); res.on('end', () => count(res.statusCode)); });
  req.on('error', () => count('error'));
  req.end(body);
}
const start = performance.now();
const timer = setInterval(() => {
  const elapsed = performance.now() - start;
  const target = Math.floor((Math.min(elapsed, ms) * rate) / 1000);
  for (; due < target; due++) fire();
  if (elapsed < ms) return;
  clearInterval(timer);
  const wait = setInterval(() => {
    if (inFlight > 0) return;
    clearInterval(wait);
    agent.destroy();
    parentPort.postMessage({ sent, skipped, answers, ms: Math.round(performance.now() - start) });
  }, 20);
}, 5);
`;

describe('forged-token flood', () => {
  it("keeps another user's order entry and /healthz answered under 300 req/s of forged tokens for 10 s", async (ctx) => {
    const quiet = await others(3_000);
    console.log(`[quiet] victim setEntrust ${summary(quiet.orders).text}; /healthz ${summary(quiet.health).text}`);

    const port = Number(new URL(base).port);
    const body = JSON.stringify({ pairsName: MARKET.symbol, side: 'BUY', orderType: 'LIMIT', price: '0.01', amount: '1' });
    /** One 10 s flood from `ip` while the victim and the monitor run; the attacker's counts and theirs. */
    async function flood(ip: string) {
      const attacker = new Worker(ATTACKER_SOURCE, {
        eval: true,
        workerData: { port, path: `/api/${API_PATHS.setEntrust}`, rate: 300, ms: 10_000, ip, body },
      });
      const attack = new Promise<{ sent: number; skipped: number; answers: Record<string, number>; ms: number }>((resolve, reject) => {
        attacker.once('message', resolve);
        attacker.once('error', reject);
      });
      const seen = await others(10_000);
      const a = await attack;
      await attacker.terminate();
      const orders = summary(seen.orders);
      const health = summary(seen.health);
      console.log(`[flood ${ip}] attacker sent ${a.sent} in ${a.ms} ms (not sent, 1,000 in flight: ${a.skipped}), answers ${JSON.stringify(a.answers)}`);
      console.log(`[flood ${ip}] victim setEntrust ${orders.text}, failures ${JSON.stringify(seen.orderFailures.slice(0, 5))}; /healthz ${health.text}`);
      expect(seen.orderFailures).toEqual([]);
      // The forged tokens cost at most the IP's failed-lookup budget of session lookups; the rest were refused before.
      expect(a.answers['401'] ?? 0).toBeLessThanOrEqual(t.ctx.config.authFailuresPerMin);
      return { orders, health };
    }
    let seen = await flood(ATTACKER);
    // A latency bound means something only on a machine that is quiet enough to meet it without the flood, before and
    // after it (other test files share CI's 2 cores: a busy spell that starts during the flood is not the flood's doing).
    // A bound missed once is measured again with a second flood from another address: a busy spell of the machine
    // passes, a cost of the flood itself repeats.
    const quietHealth = summary(quiet.health);
    if (seen.health.p99 >= 100 || seen.orders.n < 30) {
      console.log(`[flood] /healthz p99 ${seen.health.p99.toFixed(1)} ms, ${seen.orders.n} orders: measured again with a second attacker`);
      seen = await flood(ATTACKER_2);
    }
    const after = summary((await others(3_000)).health);
    console.log(`[after] /healthz ${after.text}`);
    if (quietHealth.p99 >= 50 || after.p99 >= 50) {
      console.log(
        `[flood] /healthz p99 is ${quietHealth.p99.toFixed(1)} ms before the flood and ${after.p99.toFixed(1)} ms after: the machine is too busy to hold it to 100 ms`,
      );
      ctx.skip();
    }
    expect(seen.orders.n).toBeGreaterThanOrEqual(30);
    expect(seen.health.p99).toBeLessThan(100);
  });
});
