/**
 * The WebSocket API's trading and account requests (https://developers.binance.com/docs/binance-spot-api-docs/websocket-api:
 * "Trading requests", "Account requests"), answered by the REST routes themselves: each request is dispatched with
 * Fastify's inject to the signed /api/v3 route of the same meaning, with the same parameters, so every parameter
 * check, error code, -1104 rule, key permission, request weight and order count of the REST route applies as it is.
 *
 * The signature. A WebSocket API signature covers the params sorted by name, `apiKey` included (streams.wsapi.ts
 * wsApiPayload), while a REST signature covers the query string as sent and a REST route refuses an `apiKey` parameter
 * (-1104). So the dispatcher checks the client's signature, key, IP and timestamp itself with the API key verifier
 * (the REST hooks' own check: -2014, -2015, -1021, -1022, -1102, -1131 as REST answers them), then sends the REST
 * request to a private Fastify instance (never listening) that holds the spot routes under the same Binance hooks,
 * whose verifier accepts a one-time token in place of the signature and checks the key again (permission, IP,
 * frozen account) as the REST route would. The token lives for one inject and only in this process.
 *
 * The answer is the REST answer's body as `result`, `{ id, status: 200, result, rateLimits }`, or its error as
 * `{ id, status, error: { code, msg }, rateLimits }` with the REST status (400, 401 for -2015, 429, 418) and code;
 * `rateLimits` are the REST answer's counts (X-MBX-USED-WEIGHT-1M, X-MBX-ORDER-COUNT-10S / -1D) against the
 * configured limits, left out when the request says `returnRateLimits: false` (Binance's parameter, default true,
 * taken off before the REST route sees the params). The private instance keeps its own weight and order counts: WebSocket API requests have a budget
 * of their own, apart from REST's (Binance shares one).
 */
import crypto from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { ApiKeyRefusal, checkTiming, recvWindowMicros, timestampMicros, type ApiKeyCaller, type ApiKeyVerifier } from '../../domains/api-keys/api-keys.service';
import { AppError } from '../../platform/shared/errors';
import { badText } from '../../platform/shared/text';
import { binanceErrorHandler, BX, fromApiKeyRefusal, type BinanceError } from './binance.errors';
import { registerBinanceHooks } from './binance.hooks';
import { serveDocumentedAnswers } from './binance.responses';
import { binanceRateLimits, type BinanceRateLimit } from './binance.weights';
import spotRoutes from './spot.routes';

/** A WebSocket API method served by a REST route: its HTTP method and path. */
interface RestRoute {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
}

/**
 * The WebSocket API methods dispatched to REST, with their routes (Binance's pairs: order.place is POST /api/v3/order,
 * account.status is GET /api/v3/account, ...).
 */
export const WS_API_REST_METHODS: Readonly<Record<string, RestRoute>> = {
  'order.place': { method: 'POST', url: '/api/v3/order' },
  'order.test': { method: 'POST', url: '/api/v3/order/test' },
  'order.status': { method: 'GET', url: '/api/v3/order' },
  'order.cancel': { method: 'DELETE', url: '/api/v3/order' },
  'openOrders.status': { method: 'GET', url: '/api/v3/openOrders' },
  'openOrders.cancelAll': { method: 'DELETE', url: '/api/v3/openOrders' },
  allOrders: { method: 'GET', url: '/api/v3/allOrders' },
  myTrades: { method: 'GET', url: '/api/v3/myTrades' },
  'account.status': { method: 'GET', url: '/api/v3/account' },
  'account.commission': { method: 'GET', url: '/api/v3/account/commission' },
};

/** One entry of a WebSocket API answer's `rateLimits`: a configured limit and the count used against it. */
export interface WsApiRateLimit extends BinanceRateLimit {
  count: number;
}

/** A WebSocket API answer's body after `id`: a result or an error, with the request's rate limit counts. */
export type WsApiAnswer =
  { status: 200; result: unknown; rateLimits?: WsApiRateLimit[] } | { status: number; error: { code: number; msg: string }; rateLimits?: WsApiRateLimit[] };

/** A request's authentication: the params' signature (apiKey, timestamp, signature), or a logged-on session's key. */
export type WsApiAuth = { kind: 'signature' } | { kind: 'session'; apiKey: string };

/** Dispatches the WebSocket API's trading and account requests to the REST routes. */
export interface WsApiTrade {
  /**
   * Answers `method` (a key of WS_API_REST_METHODS) with `params` from client address `ip`: the signature over
   * `payload` (the WebSocket API's sorted params) is checked, then the REST route answers. Never throws.
   */
  dispatch(method: string, params: Record<string, unknown>, payload: string, ip: string, auth: WsApiAuth): Promise<WsApiAnswer>;
  close(): Promise<void>;
}

/** What the dispatcher uses: the app context (the services the spot routes use) and the API key verifier. */
export interface WsApiTradeDeps {
  ctx: FastifyInstance['ctx'];
  apiKeys: ApiKeyVerifier;
}

/** A param value as the REST query string carries it; undefined for values REST cannot carry (objects, null). */
function paramText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return undefined;
}

/** The error answer of `e`. */
const errorAnswer = (e: BinanceError, rateLimits?: WsApiRateLimit[]): WsApiAnswer => ({
  status: e.status,
  error: { code: e.code, msg: e.msg },
  ...(rateLimits ? { rateLimits } : {}),
});

/**
 * Builds the dispatcher: the private Fastify instance with the Binance hooks (over the token verifier), the Binance
 * error handler and the spot routes, ready to inject. The app's global guard on text (NUL, lone surrogates, bidi
 * controls) and non-finite numbers is repeated here, since the private instance is not under the app's hooks.
 */
export async function createWsApiTrade({ ctx, apiKeys }: WsApiTradeDeps): Promise<WsApiTrade> {
  /** One-time tokens standing for a checked signature, by token: the key string they were issued for. */
  const tokens = new Map<string, string>();
  const tokenVerifier: ApiKeyVerifier = {
    keyed: (apiKey, ip, permission) => apiKeys.keyed(apiKey, ip, permission),
    async signed(input): Promise<ApiKeyCaller> {
      if (tokens.get(input.signature) !== input.apiKey) throw new ApiKeyRefusal('signature_invalid');
      return apiKeys.keyed(input.apiKey, input.ip, input.permission);
    },
  };
  const inner = Fastify({
    logger: false,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true, allErrors: false } },
  });
  inner.decorate('ctx', ctx);
  inner.addHook('preHandler', async (req) => {
    for (const part of [req.query, req.body]) {
      if (part === null || typeof part !== 'object') continue;
      for (const [field, v] of Object.entries(part as Record<string, unknown>)) {
        if (typeof v === 'string' && badText(v) !== null) throw new AppError('invalid_characters', 400, field);
        if (typeof v === 'number' && (!Number.isFinite(v) || (Number.isInteger(v) && !Number.isSafeInteger(v))))
          throw new AppError('validation_failed', 400, field);
      }
    }
  });
  await inner.register(async (scope) => {
    scope.setErrorHandler(binanceErrorHandler);
    registerBinanceHooks(scope, { config: ctx.config, clock: ctx.clock, apiKeys: tokenVerifier });
    serveDocumentedAnswers(scope, ctx.config.nodeEnv === 'test');
    await scope.register(
      spotRoutes({ host: ctx.host, marketData: ctx.marketData, db: ctx.db, clock: ctx.clock, config: ctx.config, entrust: ctx.entrust, chain: ctx.chain }),
    );
  });
  await inner.ready();
  const limits = binanceRateLimits(ctx.config);

  /**
   * The rate limit counts of a REST answer's headers, for the limits configured: the ORDERS counts (order requests
   * only) before REQUEST_WEIGHT, in the order of Binance's example answers ("Response format").
   */
  function rateLimitsOf(headers: Record<string, unknown>): WsApiRateLimit[] {
    const out: WsApiRateLimit[] = [];
    for (const l of [...limits.filter((x) => x.rateLimitType === 'ORDERS'), ...limits.filter((x) => x.rateLimitType !== 'ORDERS')]) {
      const h = l.rateLimitType === 'REQUEST_WEIGHT' ? 'x-mbx-used-weight-1m' : l.interval === 'SECOND' ? 'x-mbx-order-count-10s' : 'x-mbx-order-count-1d';
      const v = headers[h];
      if (typeof v === 'string' && /^\d{1,15}$/.test(v)) out.push({ ...l, count: Number(v) });
    }
    return out;
  }

  return {
    async dispatch(method, params, payload, ip, auth) {
      const route = WS_API_REST_METHODS[method];
      if (!route) return errorAnswer(BX.unknown());
      let apiKey: string;
      if (auth.kind === 'signature') {
        for (const k of ['apiKey', 'signature', 'timestamp']) {
          const v = paramText(params[k]);
          if (v === undefined || v === '') return errorAnswer(BX.mandatoryMissing(k));
        }
        apiKey = String(params.apiKey);
        const recvWindow = paramText(params.recvWindow);
        try {
          await apiKeys.signed({
            apiKey,
            ip,
            payload,
            signature: String(params.signature),
            timestamp: String(params.timestamp),
            ...(recvWindow !== undefined ? { recvWindow } : {}),
          });
        } catch (err) {
          if (err instanceof ApiKeyRefusal) return errorAnswer(fromApiKeyRefusal(err.reason));
          throw err;
        }
      } else {
        // A logged-on session (session.logon): no signature, but the timestamp and recvWindow rule as a signed request.
        apiKey = auth.apiKey;
        try {
          const ts = paramText(params.timestamp);
          if (ts === undefined || ts === '') throw new ApiKeyRefusal('timestamp_missing');
          checkTiming(timestampMicros(ts), recvWindowMicros(paramText(params.recvWindow)), ctx.clock.now());
        } catch (err) {
          if (err instanceof ApiKeyRefusal) return errorAnswer(fromApiKeyRefusal(err.reason));
          throw err;
        }
      }
      // returnRateLimits (WebSocket API only, default true): false leaves rateLimits out of the answer.
      const rl = params.returnRateLimits;
      if (rl !== undefined && rl !== true && rl !== false && rl !== 'true' && rl !== 'false') return errorAnswer(BX.illegalChars('returnRateLimits'));
      const withLimits = rl !== false && rl !== 'false';
      const query: string[] = [];
      for (const [k, v] of Object.entries(params)) {
        if (k === 'apiKey' || k === 'signature' || k === 'returnRateLimits') continue;
        const text = paramText(v);
        if (text === undefined) return errorAnswer(BX.illegalChars(k));
        query.push(`${encodeURIComponent(k)}=${encodeURIComponent(text)}`);
      }
      const token = crypto.randomBytes(24).toString('hex');
      tokens.set(token, apiKey);
      query.push(`signature=${token}`);
      try {
        const res = await inner.inject({
          method: route.method,
          url: `${route.url}?${query.join('&')}`,
          headers: { 'x-mbx-apikey': apiKey },
          remoteAddress: ip,
        });
        const rateLimits = withLimits ? rateLimitsOf(res.headers) : undefined;
        const body = res.json() as unknown;
        if (res.statusCode === 200) return { status: 200, result: body, ...(rateLimits ? { rateLimits } : {}) };
        const e = body as { code?: unknown; msg?: unknown };
        if (typeof e.code === 'number' && typeof e.msg === 'string')
          return { status: res.statusCode, error: { code: e.code, msg: e.msg }, ...(rateLimits ? { rateLimits } : {}) };
        return errorAnswer(BX.unknown(), rateLimits);
      } finally {
        tokens.delete(token);
      }
    },
    close: () => inner.close(),
  };
}
