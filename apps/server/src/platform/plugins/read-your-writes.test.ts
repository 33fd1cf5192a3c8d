/**
 * The read barrier's HTTP hook (read-your-writes.ts) on a Fastify app, over a ReadBarrier driven by a SeqGate the
 * test advances (the scale-out port's own waiting primitive; the stream's last sequence number is the test's
 * `streamLast`): which requests are held, how long, and what a refused read is answered. The whole path on real NATS
 * and gateway processes is test/scale-out/read-your-writes.test.ts.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '@exchange/api';
import { AppError } from '../shared/errors';
import { SeqGate, type ReadBarrier } from '../engine-port/read-barrier';
import { registerReadYourWrites } from './read-your-writes';

/** A replica at `gate` under a stream whose last sequence number is `streamLast()`. */
function barrierOver(gate: SeqGate, streamLast: () => number): ReadBarrier {
  return {
    get appliedSeq() {
      return gate.applied;
    },
    async streamBarrier(timeoutMs) {
      if (!(await gate.wait(streamLast(), timeoutMs))) throw new AppError('replica_behind', 503);
    },
  };
}

let app: FastifyInstance | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

/** An app whose GET and POST /state answer the replica's applied sequence number. */
async function appWith(port: { readBarrier?: ReadBarrier }, gate: SeqGate, waitMs = 300): Promise<FastifyInstance> {
  const a = Fastify({ logger: false });
  registerReadYourWrites(a, port, waitMs);
  a.get('/state', async () => ({ seq: gate.applied }));
  a.post('/state', async () => ({ seq: gate.applied }));
  await a.ready();
  return a;
}

describe('read-your-writes hook', () => {
  it('holds a credentialed GET until the replica reaches the stream, then answers the new state', async () => {
    const gate = new SeqGate(5);
    app = await appWith({ readBarrier: barrierOver(gate, () => 7) }, gate);
    const t0 = performance.now();
    const pending = app.inject({ method: 'GET', url: '/state', headers: { token: 't', userid: '1' } });
    setTimeout(() => gate.advance(6), 40);
    setTimeout(() => gate.advance(7), 80);
    const res = await pending;
    expect([res.statusCode, res.json()]).toEqual([200, { seq: 7 }]);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(75);
  });

  it('answers 503 replica_behind with Retry-After in the request language past the bound; Binance -1001 for an API key', async () => {
    const gate = new SeqGate(5);
    app = await appWith({ readBarrier: barrierOver(gate, () => 9) }, gate, 100);
    const [en, zh, binance] = await Promise.all([
      app.inject({ method: 'GET', url: '/state', headers: { token: 't', lang: 'en' } }),
      app.inject({ method: 'GET', url: '/state', headers: { 'x-admin-token': 'op', lang: 'zh' } }),
      app.inject({ method: 'GET', url: '/state', headers: { 'x-mbx-apikey': 'k' } }),
    ]);
    expect([en.statusCode, en.headers['retry-after'], en.json()]).toEqual([
      503,
      '1',
      { status: 'FAILED', errorCode: 'replica_behind', errorMessage: ERROR_MESSAGES.replica_behind.en, result: null },
    ]);
    expect([zh.statusCode, zh.json().errorMessage]).toEqual([503, ERROR_MESSAGES.replica_behind.zh]);
    expect([binance.statusCode, binance.json()]).toEqual([503, { code: -1001, msg: 'Internal error; unable to process your request. Please try again.' }]);
  });

  it('does not hold a read without credentials or a write; adds nothing for a port without a barrier (the embedded host)', async () => {
    const gate = new SeqGate(5);
    app = await appWith({ readBarrier: barrierOver(gate, () => 1_000) }, gate, 10_000);
    const t0 = performance.now();
    const [anon, post] = await Promise.all([
      app.inject({ method: 'GET', url: '/state' }),
      app.inject({ method: 'POST', url: '/state', headers: { token: 't' }, payload: {} }),
    ]);
    expect([anon.statusCode, anon.json(), post.statusCode, post.json()]).toEqual([200, { seq: 5 }, 200, { seq: 5 }]);
    expect(performance.now() - t0).toBeLessThan(5_000);
    await app.close();
    app = await appWith({}, gate);
    const res = await app.inject({ method: 'GET', url: '/state', headers: { token: 't' } });
    expect([res.statusCode, res.json()]).toEqual([200, { seq: 5 }]);
  });
});
