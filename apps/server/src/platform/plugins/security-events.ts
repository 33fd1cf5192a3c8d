/**
 * Security events (OWASP ASVS 4.0, V7.2 "Log processing": authentication decisions, failed access-control decisions
 * and rate-limit refusals are logged, without secrets): every request answered with one is logged at `warn` with a
 * `security` field and counted in `exchange_security_events_total{kind,code}`.
 *
 * Kinds, from the error the request ended with (its code, else its HTTP status):
 * - `authentication_failure`: a wrong password, transaction password, verification, Google Authenticator or console
 *   login code; a Binance API key or signature refused (-2014, -2015, -1022);
 * - `session_invalid`: a missing, malformed, forged or expired session token (401: `unauthorized`, `SYS.0015`);
 * - `lockout`: an account or a second factor locked after repeated failures;
 * - `authorization_failure`: an authenticated caller refused (403: an operator without the permission, a key
 *   without the right);
 * - `rate_limited` (429) and `banned` (418, the Binance-compatible API's IP ban).
 * The log line holds the kind, the error code, the HTTP status, the method, the route pattern (never the URL: a
 * Binance query string carries the API key's signature), the client IP and the user id when known; never a header,
 * a query or a body. A flood must not become a log flood (the log is a resource an attacker could exhaust, OWASP
 * Logging Cheat Sheet): at most LOG_LINES_PER_WINDOW lines of one kind per LOG_WINDOW_MS are written, the next one
 * after a pause says how many were left out (`suppressed`); the counter counts every event.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Lines of one kind written per window; more are counted, not written (the next line says how many). */
export const LOG_LINES_PER_WINDOW = 20;
/** The window of LOG_LINES_PER_WINDOW (ms). */
export const LOG_WINDOW_MS = 10_000;

/** The kinds of security event. */
export type SecurityEventKind = 'authentication_failure' | 'session_invalid' | 'lockout' | 'authorization_failure' | 'rate_limited' | 'banned';

const AUTHENTICATION = new Set([
  'login_failed',
  'admin_login_failed',
  'password_wrong',
  'trans_password_wrong',
  'google_code_invalid',
  'code_invalid',
  // the Binance-compatible API: bad API key format, invalid key / IP / permissions, bad signature
  '-2014',
  '-2015',
  '-1022',
]);
const LOCKOUT = new Set(['login_locked', 'admin_login_locked', 'google_code_locked', 'trans_password_locked']);
const SESSION = new Set(['unauthorized', 'SYS.0015']);

/** The kind of a request's error (its `code` and HTTP status), or null when it is no security event. */
export function securityEventKind(code: string, status: number): SecurityEventKind | null {
  if (LOCKOUT.has(code)) return 'lockout';
  if (AUTHENTICATION.has(code)) return 'authentication_failure';
  if (SESSION.has(code)) return 'session_invalid';
  if (status === 418) return 'banned';
  if (status === 429) return 'rate_limited';
  if (status === 403) return 'authorization_failure';
  if (status === 401) return 'session_invalid';
  return null;
}

/** Where the events go: the counter (ProcessMetrics.securityEvent). */
export interface SecurityEventSink {
  securityEvent(kind: string, code: string): void;
}

function statusOf(err: { status?: unknown; statusCode?: unknown }): number {
  const s = typeof err.status === 'number' ? err.status : typeof err.statusCode === 'number' ? err.statusCode : 500;
  return s;
}

/**
 * Registers the `onError` hook that logs and counts the security events of every route of `app` (register it on the
 * root instance before the routes: hooks are inherited by the scopes registered after).
 */
export function registerSecurityEvents(app: FastifyInstance, sink: SecurityEventSink, now: () => number = Date.now): void {
  const windows = new Map<SecurityEventKind, { start: number; lines: number; suppressed: number }>();
  app.addHook('onError', async (req: FastifyRequest, _reply, err) => {
    const e = err as unknown as { code?: unknown; status?: unknown; statusCode?: unknown };
    const status = statusOf(e);
    const code = typeof e.code === 'string' || typeof e.code === 'number' ? String(e.code) : String(status);
    const kind = securityEventKind(code, status);
    if (kind === null) return;
    sink.securityEvent(kind, code);
    const t = now();
    let w = windows.get(kind);
    if (w === undefined || t - w.start >= LOG_WINDOW_MS) {
      w = { start: t, lines: 0, suppressed: w?.suppressed ?? 0 };
      windows.set(kind, w);
    }
    if (w.lines >= LOG_LINES_PER_WINDOW) {
      w.suppressed++;
      return;
    }
    w.lines++;
    const suppressed = w.suppressed;
    w.suppressed = 0;
    const userId = (req as FastifyRequest & { userId?: string }).userId;
    req.log.warn(
      {
        security: kind,
        code,
        status,
        method: req.method,
        route: req.routeOptions.url ?? 'unmatched',
        ip: req.ip,
        ...(userId ? { userId } : {}),
        ...(suppressed > 0 ? { suppressed } : {}),
      },
      'security event',
    );
  });
}
