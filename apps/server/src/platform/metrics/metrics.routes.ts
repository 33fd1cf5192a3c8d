/**
 * GET /metrics: the process's metrics (metrics.ts) in the Prometheus text format, for operators.
 *
 * Access: with `token` (config METRICS_TOKEN) set, only requests carrying `Authorization: Bearer <token>` get
 * them (else 401 unauthorized). Without a token, only a client on this machine does: the TCP peer is a loopback
 * address and the request carries no forwarding header (X-Forwarded-For, Forwarded, X-Real-IP), so a reverse
 * proxy on the same machine does not hand them to the internet (else 403 forbidden); behind a proxy, set
 * METRICS_TOKEN. The answer holds counts and timings by command type, result code, route pattern and channel:
 * no user id, token, address or amount. The route is not spent from the per-IP user budgets (route config
 * `rateLimit: false`, honoured by platform/rate-limit/rate-limits.ts): a scraper on loopback is not a user.
 *
 * `registerMetrics` also times every HTTP request (onResponse) into http_request_duration_seconds; call it on the
 * root instance before the routes are registered.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../shared/errors';
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

/**
 * Whether a request for the metrics may have them (see the file comment): 'ok', 'unauthorized' (a token is set
 * and the request lacks it) or 'forbidden' (no token set and the client is not on this machine, or forwarded).
 */
export function metricsAccess(headers: IncomingHttpHeaders, peer: string | undefined, token: string | undefined): 'ok' | 'unauthorized' | 'forbidden' {
  if (token !== undefined) return bearerMatches(headers.authorization, token) ? 'ok' : 'unauthorized';
  const direct = LOOPBACK.has(peer ?? '') && headers['x-forwarded-for'] === undefined && headers.forwarded === undefined && headers['x-real-ip'] === undefined;
  return direct ? 'ok' : 'forbidden';
}

/**
 * Answers GET /metrics on a plain node:http server (a process without Fastify, e.g. the scale-out engine process),
 * with the same access rule: 200 with the text, or 401 / 403 with an empty body.
 */
export async function answerMetrics(req: IncomingMessage, res: ServerResponse, metrics: ProcessMetrics, token: string | undefined): Promise<void> {
  const access = metricsAccess(req.headers, req.socket.remoteAddress, token);
  if (access !== 'ok') {
    res.writeHead(access === 'unauthorized' ? 401 : 403).end();
    return;
  }
  const body = await metrics.text();
  res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(body);
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
    const access = metricsAccess(req.headers, req.raw.socket.remoteAddress, token);
    if (access === 'unauthorized') throw new AppError('unauthorized', 401);
    if (access === 'forbidden') throw new AppError('forbidden', 403);
    const body = await metrics.text();
    return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(body);
  });
}
