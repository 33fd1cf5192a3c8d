/**
 * GET /metrics: the process's metrics (metrics.ts) in the Prometheus text format, for operators.
 *
 * Access: with `token` (config METRICS_TOKEN) set, only requests carrying `Authorization: Bearer <token>` get
 * them (else 401 unauthorized). Without a token, only a client on this machine does: the TCP peer is a loopback
 * address and the request carries no forwarding header (X-Forwarded-For, Forwarded, X-Real-IP), so a reverse
 * proxy on the same machine does not hand them to the internet (else 403 forbidden); behind a proxy, set
 * METRICS_TOKEN. The answer holds counts and timings by command type, result code, route pattern and channel:
 * no user id, token, address or amount. The route is not spent from the per-IP user budgets (route config
 * `rateLimit: false`, honoured by plugins/rate-limits.ts): a scraper on loopback is not a user.
 *
 * `registerMetrics` also times every HTTP request (onResponse) into http_request_duration_seconds; call it on the
 * root instance before the routes are registered.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import type { ProcessMetrics } from './metrics';

/** Route of the metrics. */
export const METRICS_PATH = '/metrics';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** True when `header` is `Bearer <token>` (compared in constant time over sha256 digests). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1]!.trim()), digest(token));
}

/** True for a request made on this machine directly (loopback peer, no proxy forwarding header). */
function isLocalDirect(req: FastifyRequest): boolean {
  const peer = req.raw.socket.remoteAddress ?? '';
  const h = req.headers;
  return LOOPBACK.has(peer) && h['x-forwarded-for'] === undefined && h.forwarded === undefined && h['x-real-ip'] === undefined;
}

/** Mounts GET /metrics and the per-request timing on `app` (see the file comment for access). */
export function registerMetrics(app: FastifyInstance, metrics: ProcessMetrics, opts: { token?: string | undefined } = {}): void {
  const token = opts.token;
  // A callback hook (no promise per request): the order-entry path is measured in microseconds.
  app.addHook('onResponse', (req, reply, done) => {
    metrics.observeHttp(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get(METRICS_PATH, { schema: { hide: true }, config: { rateLimit: false } }, async (req, reply) => {
    if (token !== undefined) {
      if (!bearerMatches(req.headers.authorization, token)) throw new AppError('unauthorized', 401);
    } else if (!isLocalDirect(req)) {
      throw new AppError('forbidden', 403);
    }
    const body = await metrics.text();
    return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(body);
  });
}
