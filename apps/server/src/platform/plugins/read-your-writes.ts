/**
 * Read-your-writes across gateways (scale-out mode, ARCHITECTURE.md section 4): a private read answered by any
 * gateway reflects every command acknowledged before it was sent, by whichever gateway, or is refused (503,
 * retryable), never answered from an older state.
 *
 * How: before the handler of a GET or HEAD that carries credentials (the app's `token` header, the Binance API's
 * `X-MBX-APIKEY`, the console's `X-Admin-Token`), the gateway asks the stream for its last sequence number and
 * waits until its replica has applied it (the engine port's readBarrier: one request to NATS in flight however many
 * reads, the wait woken by the replica's applies, no polling). A command acknowledged before the read was sent was
 * already in the stream, so at or below that number. Past `waitMs` (or with NATS unreachable) the answer is HTTP 503
 * with `Retry-After: 1`: the app's envelope `replica_behind` in the request's language, or on the Binance API its
 * own retryable -1001.
 *
 * Writes (POST, ...) are not held: a command is applied after every message before it in the stream, and its answer
 * is its own result. Requests without credentials (market data, static files) are not held either: they show no
 * user's own state. The embedded default has no readBarrier (one process, one engine, every command applied before
 * it is answered): no hook is added, so it pays nothing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EnginePort } from '../engine-port/engine-port';
import type { ReadBarrier } from '../engine-port/read-barrier';
import { fail } from '../shared/envelope';
import { requestLang } from '../shared/lang';

/** Longest wait of a read for the replica (ms), the stream's answer included, before 503 replica_behind. */
export const READ_BARRIER_WAIT_MS = 2_500;

/** Binance's retryable "try again" error (its documented -1001 DISCONNECTED), for reads signed with an API key. */
const BINANCE_RETRY = { code: -1001, msg: 'Internal error; unable to process your request. Please try again.' };

/** Whether the request carries a user's or operator's credentials (then its answer may show that user's own state). */
export function carriesCredentials(req: Pick<FastifyRequest, 'headers'>): boolean {
  const h = req.headers;
  return h.token !== undefined || h['x-mbx-apikey'] !== undefined || h['x-admin-token'] !== undefined;
}

/**
 * Adds the read barrier to every route of `app` registered afterwards and before (a root hook), when `port` has one
 * (the scale-out port); does nothing for the embedded host. `waitMs` bounds each read's wait (READ_BARRIER_WAIT_MS).
 */
export function registerReadYourWrites(app: FastifyInstance, port: Pick<EnginePort, 'readBarrier'>, waitMs: number = READ_BARRIER_WAIT_MS): void {
  const barrier: ReadBarrier | undefined = port.readBarrier;
  if (barrier === undefined) return;
  // One warning per 10 s at most, with how many reads were refused since the last one (a lagging replica refuses many).
  let refused = 0;
  let warnedAt = -Infinity;
  app.addHook('preHandler', (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !carriesCredentials(req)) return done();
    barrier.streamBarrier(waitMs).then(
      () => done(),
      (err: unknown) => {
        refused++;
        const now = performance.now();
        if (now - warnedAt >= 10_000) {
          req.log.warn({ err, appliedSeq: barrier.appliedSeq, refused }, 'reads refused (503 replica_behind): the replica did not reach the stream in time');
          warnedAt = now;
          refused = 0;
        }
        reply.code(503).header('retry-after', '1');
        void reply.send(req.headers['x-mbx-apikey'] !== undefined ? BINANCE_RETRY : fail('replica_behind', requestLang(req)));
      },
    );
  });
}
