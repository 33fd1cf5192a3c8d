/**
 * Proves GET /metrics on the real app over PGlite (PostgreSQL when DATABASE_URL is set):
 * after orders placed over HTTP, the scraped counters moved by exactly the number of orders (commands by type and
 * code, the command and setEntrust latency histograms' counts), a rejected order is counted under its code, the
 * journal's group-commit histograms counted the batches, the engine and WebSocket gauges are there; the answer
 * names no user; the access rule holds (loopback without a token; a bearer token when METRICS_TOKEN is set;
 * forwarded or remote clients refused) and scrapes spend no per-IP budget. How: the Prometheus text is parsed and
 * values compared before and after. The projector lag probe is checked alone with a pinned clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { ensureMarket } from '../engine-host/test-fixtures';
import { apiCaller, loginUser, testMarket, type TestUser } from '../../domains/spot/spot-test-support';
import http from 'node:http';
import { answerMetrics, bearerMatches } from './metrics.routes';
import { createMetrics, projectorLagProbe } from './metrics';

const MARKET = testMarket('MTRA');

/** The sum of the samples of `name` whose labels include `labels` (0 when none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line === '') continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[3] ?? '').matchAll(/([a-zA-Z_]+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) sum += Number(m[4]);
  }
  return sum;
}

/** Whether the text has a sample line of `name` at all. */
const has = (text: string, name: string) => text.split('\n').some((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));

let t: TestApp;
const users: Record<string, TestUser> = {};
const call = apiCaller(() => t, users);

async function scrape(headers: Record<string, string> = {}): Promise<string> {
  const r = await t.app.inject({ method: 'GET', url: '/metrics', headers });
  expect(r.statusCode).toBe(200);
  expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return r.body;
}

beforeAll(async () => {
  // A small global per-IP budget: scrapes must not spend it (checked below), the test's other calls fit in it.
  t = await makeTestApp({ ...NO_RATE_LIMITS, rateLimitPerMin: 60 });
  await ensureMarket(t.ctx.host, MARKET);
  users.alice = await loginUser(t, 'metrics-alice@example.com');
});
afterAll(async () => {
  await t?.close();
});

describe('GET /metrics', () => {
  it('counts and times the orders placed, and a rejection under its code', async () => {
    const before = await scrape();
    const N = 5;
    for (let i = 0; i < N; i++) {
      const r = await call('alice', 'POST', 'entrust/entrust/setEntrust', {
        pairsName: 'MTRA/USDT',
        side: 'BUY',
        orderType: 'LIMIT',
        price: `${10 + i}`,
        amount: '1',
      });
      expect(r.body.status).toBe('SUCCEED');
    }
    // Over the balance: the engine refuses it (insufficient_balance), counted under that code.
    const bad = await call('alice', 'POST', 'entrust/entrust/setEntrust', {
      pairsName: 'MTRA/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      price: '1000000',
      amount: '1000',
    });
    expect(bad.body.errorCode).toBe('insufficient_balance');
    const after = await scrape();

    const placeOk = { type: 'placeOrder', code: 'ok' };
    expect(sample(after, 'exchange_commands_total', placeOk) - sample(before, 'exchange_commands_total', placeOk)).toBe(N);
    const rejected = { type: 'placeOrder', code: 'insufficient_balance' };
    expect(sample(after, 'exchange_commands_total', rejected) - sample(before, 'exchange_commands_total', rejected)).toBe(1);
    const place = { type: 'placeOrder' };
    expect(sample(after, 'exchange_command_duration_seconds_count', place) - sample(before, 'exchange_command_duration_seconds_count', place)).toBe(N + 1);
    expect(sample(after, 'exchange_command_duration_seconds_sum', place)).toBeGreaterThan(sample(before, 'exchange_command_duration_seconds_sum', place));
    // +Inf bucket = count.
    expect(sample(after, 'exchange_command_duration_seconds_bucket', { type: 'placeOrder', le: '+Inf' })).toBe(
      sample(after, 'exchange_command_duration_seconds_count', place),
    );

    const route = { route: '/api/entrust/entrust/setEntrust', method: 'POST' };
    const ok2xx = { ...route, status: '2xx' };
    expect(sample(after, 'http_request_duration_seconds_count', ok2xx) - sample(before, 'http_request_duration_seconds_count', ok2xx)).toBe(N);
    const refused4xx = { ...route, status: '4xx' };
    expect(sample(after, 'http_request_duration_seconds_count', refused4xx) - sample(before, 'http_request_duration_seconds_count', refused4xx)).toBe(1);

    // Every accepted command went through one journal batch (one fdatasync each, several commands per batch).
    const batches = sample(after, 'exchange_journal_batch_records_count') - sample(before, 'exchange_journal_batch_records_count');
    const records = sample(after, 'exchange_journal_batch_records_sum') - sample(before, 'exchange_journal_batch_records_sum');
    expect(batches).toBeGreaterThanOrEqual(1);
    expect(records).toBeGreaterThanOrEqual(N + 1);
    expect(sample(after, 'exchange_journal_fsync_seconds_count') - sample(before, 'exchange_journal_fsync_seconds_count')).toBe(batches);
    expect(sample(after, 'exchange_journal_write_seconds_count') - sample(before, 'exchange_journal_write_seconds_count')).toBe(batches);

    expect(sample(after, 'exchange_engine_last_seq')).toBe(t.ctx.host.stats.lastSeq);
    for (const name of [
      'exchange_engine_queue_depth',
      'exchange_engine_commands_in_flight',
      'exchange_projector_lag_events',
      'exchange_projector_lag_seconds',
      'exchange_ws_sockets',
      'exchange_ws_send_backlog_bytes',
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect(has(after, name), name).toBe(true);
    }
    // No user data: neither the user's id, account nor token appears.
    expect(after).not.toMatch(/user_?id=/i);
    expect(after).not.toContain('metrics-alice');
    expect(after).not.toContain(users.alice!.token);
  });

  it('is not spent from the per-IP budget, which still holds for the other routes', async () => {
    for (let i = 0; i < 80; i++) await scrape();
    const codes: number[] = [];
    for (let i = 0; i < 70; i++) codes.push((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode);
    expect(codes).toContain(429);
  });

  it('answers only loopback clients without a token, and refuses forwarded requests', async () => {
    const remote = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7' });
    expect([remote.statusCode, remote.json().errorCode]).toEqual([403, 'forbidden']);
    const proxied = await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(proxied.statusCode).toBe(403);
    const v6 = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' });
    expect(v6.statusCode).toBe(200);
  });

  it('wants the bearer token when METRICS_TOKEN is set, from anywhere', async () => {
    t.ctx.config.metricsToken = 'scrape-secret-1';
    // The route reads the token when it is registered: a second app over the same context gets the new one.
    const { buildApp } = await import('../../main/app');
    const app = await buildApp(t.ctx);
    try {
      const none = await app.inject({ method: 'GET', url: '/metrics' });
      expect([none.statusCode, none.json().errorCode]).toEqual([401, 'unauthorized']);
      const wrong = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer scrape-secret-2' } });
      expect(wrong.statusCode).toBe(401);
      const right = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7', headers: { authorization: 'Bearer scrape-secret-1' } });
      expect(right.statusCode).toBe(200);
      expect(sample(right.body, 'exchange_commands_total', { type: 'placeOrder', code: 'ok' })).toBeGreaterThanOrEqual(5);
    } finally {
      await app.close();
      t.ctx.config.metricsToken = undefined;
    }
  });
});

describe('bearerMatches', () => {
  it('accepts only the exact token after Bearer', () => {
    expect(bearerMatches('Bearer abc', 'abc')).toBe(true);
    expect(bearerMatches('bearer  abc ', 'abc')).toBe(true);
    expect(bearerMatches('Bearer abcd', 'abc')).toBe(false);
    expect(bearerMatches('abc', 'abc')).toBe(false);
    expect(bearerMatches(undefined, 'abc')).toBe(false);
  });
});

describe('projectorLagProbe', () => {
  it('reports how long the projector has been waited for, then how long the last wait took', async () => {
    let clock = 1_000;
    let release: () => void = () => {};
    const lag = projectorLagProbe(
      () => new Promise<void>((r) => (release = r)),
      () => clock,
    );
    expect(lag()).toBe(0); // first read: no probe done yet; starts one at t = 1000
    clock = 3_500;
    expect(lag()).toBe(2.5); // still waiting: 2.5 s
    clock = 4_000;
    release();
    await Promise.resolve();
    await Promise.resolve();
    expect(lag()).toBe(3); // the probe took 3 s; a new one starts at t = 4000
    clock = 4_200;
    release();
    await Promise.resolve();
    await Promise.resolve();
    expect(lag()).toBe(0.2);
  });
});

describe('answerMetrics (a process without Fastify, e.g. the scale-out engine process)', () => {
  it('serves the text on node:http with the same access rule', async () => {
    const metrics = createMetrics();
    metrics.watchHost({ stats: { lastSeq: 4242, projectionBacklog: 7 }, projected: () => Promise.resolve() });
    let token: string | undefined;
    const server = http.createServer((req, res) => void answerMetrics(req, res, metrics, token));
    await new Promise<void>((r) => server.listen(41001, '127.0.0.1', () => r()));
    try {
      const open = await fetch('http://127.0.0.1:41001/metrics');
      expect(open.status).toBe(200);
      const text = await open.text();
      expect(sample(text, 'exchange_engine_last_seq')).toBe(4242);
      expect(sample(text, 'exchange_projector_lag_events')).toBe(7);
      const forwarded = await fetch('http://127.0.0.1:41001/metrics', { headers: { 'x-forwarded-for': '198.51.100.1' } });
      expect(forwarded.status).toBe(403);
      token = 'engine-secret';
      expect((await fetch('http://127.0.0.1:41001/metrics')).status).toBe(401);
      expect((await fetch('http://127.0.0.1:41001/metrics', { headers: { authorization: 'Bearer engine-secret' } })).status).toBe(200);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
