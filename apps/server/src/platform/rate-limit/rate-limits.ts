/**
 * Per-IP request budgets on @fastify/rate-limit's in-memory store: a global budget of every
 * route (RATE_LIMIT_PER_MIN), and tighter budgets of the routes an attacker would hammer (RATE_LIMIT_ROUTES: the
 * puzzle, codes, login, register, password reset, order entry), each route counted on its own and on top of the
 * global one. Both run in onRequest, before the body is parsed and before authentication, so a refused request
 * costs no database round trip. Answers carry x-ratelimit-limit/-remaining/-reset (of the route's budget where it
 * has one, else the global one); a refusal is HTTP 429 with retry-after and the API envelope (errorCode
 * rate_limited in the request's language, by app.ts's error handler). A third budget (AUTH_FAILURES_PER_MIN) is
 * spent only by failed session lookups: once an IP has sent that many unknown tokens, its requests with a token are
 * refused before the lookup (platform/shared/auth.ts), so forged tokens cannot keep the database busy.
 * Loopback is not exempt. The key is `req.ip`
 * (IPv6 by /64), which is the real client only when TRUST_PROXY names the proxies in front. The counts live in
 * each process: with several gateways, a client may get one budget per gateway.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rateLimit, { normalizeIP, type FastifyRateLimitStore } from '@fastify/rate-limit';
import { API_PATHS } from '@exchange/api';
import type { Config, RouteRateLimits } from '../config/env';
import { AppError } from '../shared/errors';
import { FixedWindowCounter } from './fixed-window';

/** Which budget of RouteRateLimits each limited route spends (each route has a counter of its own). */
export const ROUTE_BUDGETS: Readonly<Record<string, keyof RouteRateLimits>> = {
  [`/api/${API_PATHS.geetestCode}`]: 'captcha',
  [`/api/${API_PATHS.geetestVerify}`]: 'captcha',
  [`/api/${API_PATHS.sendCode}`]: 'sendCode',
  [`/api/${API_PATHS.login}`]: 'login',
  [`/api/${API_PATHS.register}`]: 'register',
  [`/api/${API_PATHS.forgetPassword}`]: 'forgetPassword',
  [`/api/${API_PATHS.setEntrust}`]: 'orderEntry',
  [`/api/${API_PATHS.cancelEntrust}`]: 'orderEntry',
  [`/api/${API_PATHS.setOcoEntrust}`]: 'orderEntry',
  [`/api/${API_PATHS.cancelOcoEntrust}`]: 'orderEntry',
};

/** Budgets are per minute. */
const WINDOW_MS = 60_000;
/** Clients remembered per budget (least recently seen forgotten first). */
const CLIENTS_PER_BUDGET = 50_000;

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * A fixed-window in-memory store for @fastify/rate-limit that answers each request with a count of its own (on the
 * module's FixedWindowCounter, windows starting at a client's first request). The plugin's LocalStore hands every
 * request its live entry, which the later requests of a burst change before the earlier ones read it: a burst past
 * the budget was refused as a whole, its first requests included. At most CLIENTS_PER_BUDGET keys are kept; the one
 * whose window started first goes first.
 */
class WindowStore implements FastifyRateLimitStore {
  private counter: FixedWindowCounter | null = null;

  incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
    const nowMs = Date.now();
    if (this.counter === null || this.counter.windowMs !== timeWindow) this.counter = new FixedWindowCounter(timeWindow, 'first-event', CLIENTS_PER_BUDGET);
    const current = this.counter.add(key, 1, nowMs);
    callback(null, { current, ttl: this.counter.msToReset(key, nowMs) });
  }

  child(): FastifyRateLimitStore {
    return new WindowStore();
  }
}

/** The per-IP budget of failed session lookups (app.authFailures). */
export interface AuthFailureBudget {
  /**
   * Reserves a session lookup for the caller's IP, or throws 429 rate_limited (with the headers) when its failed
   * lookups and its lookups in flight fill the budget. Call the returned function once the lookup is done.
   */
  begin(req: FastifyRequest, reply: FastifyReply): (failed: boolean) => void;
}

/**
 * Per key, failures in a fixed window plus attempts in flight, checked and reserved in one synchronous step, so a
 * burst cannot pass the check together. Keys idle for a window are forgotten; at most `maxKeys` are kept.
 */
export function createFailureCounter(max: number, windowMs: number, maxKeys: number) {
  const keys = new Map<string, { failures: number; inFlight: number; startMs: number }>();
  let sweepAtMs = 0;
  return {
    /** A reservation for `key` at `nowMs` (settle it with whether the attempt failed), or the ms until the window ends. */
    reserve(key: string, nowMs: number): { settle: (failed: boolean) => void } | { retryInMs: number } {
      if (nowMs >= sweepAtMs) {
        for (const [k, e] of keys) if (e.inFlight === 0 && nowMs - e.startMs >= windowMs) keys.delete(k);
        sweepAtMs = nowMs + windowMs;
      }
      let e = keys.get(key);
      if (e !== undefined && nowMs - e.startMs >= windowMs) {
        e.failures = 0;
        e.startMs = nowMs;
      }
      if (e === undefined) {
        if (keys.size >= maxKeys) keys.delete(keys.keys().next().value as string);
        e = { failures: 0, inFlight: 0, startMs: nowMs };
        keys.set(key, e);
      }
      if (e.failures + e.inFlight >= max) return { retryInMs: e.startMs + windowMs - nowMs };
      const entry = e;
      entry.inFlight++;
      return {
        settle(failed) {
          entry.inFlight--;
          if (failed) entry.failures++;
        },
      };
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The per-IP budget of failed session lookups; null when unlimited. */
    authFailures: AuthFailureBudget | null;
  }
}

/**
 * Registers @fastify/rate-limit and the budgets of `config` on `app`. Call before the routes are registered (the
 * route budgets attach to routes as they are added).
 */
export async function registerRateLimits(
  app: FastifyInstance,
  config: Pick<Config, 'rateLimitPerMin' | 'routeRateLimits' | 'authFailuresPerMin'>,
): Promise<void> {
  await app.register(rateLimit, { global: false, timeWindow: WINDOW_MS, store: WindowStore });
  const create = (max: number): Limiter => app.createRateLimit({ max, timeWindow: WINDOW_MS });

  let authFailures: AuthFailureBudget | null = null;
  if (config.authFailuresPerMin > 0) {
    const max = config.authFailuresPerMin;
    const counter = createFailureCounter(max, WINDOW_MS, CLIENTS_PER_BUDGET);
    authFailures = {
      begin(req, reply) {
        const r = counter.reserve(normalizeIP(req.ip), Date.now());
        if ('settle' in r) return r.settle;
        const resetS = Math.max(1, Math.ceil(r.retryInMs / 1000));
        void reply.header('x-ratelimit-limit', max).header('x-ratelimit-remaining', 0).header('x-ratelimit-reset', resetS).header('retry-after', resetS);
        throw new AppError('rate_limited', 429);
      },
    };
  }
  app.decorate('authFailures', authFailures);

  if (config.rateLimitPerMin > 0) {
    const global = create(config.rateLimitPerMin);
    // Routes configured `rateLimit: false` (GET /metrics, for operators: platform/metrics) spend no user budget, nor do
    // the Binance-compatible routes, which have weights and limits of their own (gateways/binance/binance.weights.ts).
    app.addHook('onRequest', async (req, reply) =>
      req.routeOptions.config.rateLimit === false || isBinanceRoute(req) ? undefined : spend(global, req, reply),
    );
  }

  app.addHook('onRoute', (route) => {
    const budget = ROUTE_BUDGETS[route.url];
    const max = budget === undefined ? 0 : config.routeRateLimits[budget];
    if (max <= 0) return;
    const limiter = create(max);
    const hook = async (req: FastifyRequest, reply: FastifyReply) => spend(limiter, req, reply);
    const existing = route.onRequest;
    route.onRequest = existing === undefined ? [hook] : Array.isArray(existing) ? [...existing, hook] : [existing, hook];
  });
}

/** Path prefixes of the Binance-compatible API: REST, WebSocket API and streams. */
const BINANCE_PREFIXES = ['/api/v3/', '/fapi/', '/ws-api/', '/ws/', '/fstream/', '/stream?', '/stream/'];

/**
 * True for a route of the Binance-compatible API: one that declares `config.binance`, or an existing route under its
 * prefixes (a path that matches no route still spends the global budget).
 */
export function isBinanceRoute(req: FastifyRequest): boolean {
  if (req.routeOptions.config.binance !== undefined) return true;
  if (req.routeOptions.url === undefined) return false;
  return req.url === '/stream' || BINANCE_PREFIXES.some((p) => req.url.startsWith(p));
}

/** Counts the request on `limiter`; sets the headers; throws 429 rate_limited when the budget is spent. */
async function spend(limiter: Limiter, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const r = await limiter(req);
  if (r.isAllowed) return;
  const resetS = r.ttlInSeconds;
  void reply.header('x-ratelimit-limit', r.max).header('x-ratelimit-remaining', r.remaining).header('x-ratelimit-reset', resetS);
  if (r.isExceeded) {
    void reply.header('retry-after', resetS);
    throw new AppError('rate_limited', 429);
  }
}
