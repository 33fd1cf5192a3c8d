/**
 * The WebSocket API's trading and account requests, spot (https://developers.binance.com/docs/binance-spot-api-docs/websocket-api:
 * "Trading requests", "Account requests") and USDⓈ-M futures
 * (https://developers.binance.com/docs/derivatives/usds-margined-futures/websocket-api-general-info), answered by the
 * REST routes themselves: each request is injected into the app as the REST request of the same meaning, with the
 * same parameters, so every parameter check, error code, -1104 rule, key permission, request weight and order count of
 * the REST route applies as it is, on the same counters as REST (Binance: the WebSocket API's requests count against
 * the same REQUEST_WEIGHT limit as REST for the IP, and new orders against the account's ORDERS limits, whichever
 * API placed them).
 *
 * The signature. A WebSocket API signature covers the params sorted by name, `apiKey` included (streams.wsapi.ts
 * wsApiPayload), while a REST signature covers the query string as sent and a REST route refuses an `apiKey` parameter
 * (-1104). So the dispatcher checks the client's signature, key, IP and timestamp itself with the API key verifier
 * (the REST hooks' own check: -2014, -2015, -1021, -1022, -1102, -1131 as REST answers them), or for a request without
 * a signature on a logged-on session (session.logon) the timestamp and recvWindow alone, then injects the REST request
 * for a verified caller (binance.hooks.ts asVerifiedCaller): the Binance hooks take its one-time token in place of
 * the signature and check the key again (permission, IP, frozen account) as the REST route would.
 *
 * The answer is the REST answer's body as `result`, `{ id, status: 200, result, rateLimits }`, or its error as
 * `{ id, status, error: { code, msg }, rateLimits }` with the REST status (400, 401 for -2015, 429, 418) and code;
 * `rateLimits` are the REST answer's counts (X-MBX-USED-WEIGHT-1M, X-MBX-ORDER-COUNT-10S / -1D) against the
 * configured limits, left out when the request says `returnRateLimits: false` (Binance's parameter, default true,
 * taken off before the REST route sees the params).
 */
import type { FastifyInstance } from 'fastify';
import { ApiKeyRefusal, checkTiming, recvWindowMicros, timestampMicros, type ApiKeyVerifier } from '../../domains/api-keys/api-keys.service';
import type { Config } from '../../platform/config/env';
import type { ServerClock } from '../../platform/shared/clock';
import { BX, fromApiKeyRefusal, type BinanceError } from './binance.errors';
import { asVerifiedCaller } from './binance.hooks';
import { binanceRateLimits, type BinanceRateLimit } from './binance.weights';

/** A WebSocket API method served by a REST route: its HTTP method and path. */
export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
}

/**
 * The spot WebSocket API methods dispatched to REST, with their routes (Binance's pairs: order.place is POST
 * /api/v3/order, account.status is GET /api/v3/account, orderList.place.oco is POST /api/v3/orderList/oco, ...).
 */
export const WS_API_REST_METHODS: Readonly<Record<string, RestRoute>> = {
  'order.place': { method: 'POST', url: '/api/v3/order' },
  'order.test': { method: 'POST', url: '/api/v3/order/test' },
  'order.status': { method: 'GET', url: '/api/v3/order' },
  'order.cancel': { method: 'DELETE', url: '/api/v3/order' },
  'order.cancelReplace': { method: 'POST', url: '/api/v3/order/cancelReplace' },
  'openOrders.status': { method: 'GET', url: '/api/v3/openOrders' },
  'openOrders.cancelAll': { method: 'DELETE', url: '/api/v3/openOrders' },
  'orderList.place.oco': { method: 'POST', url: '/api/v3/orderList/oco' },
  'orderList.cancel': { method: 'DELETE', url: '/api/v3/orderList' },
  'orderList.status': { method: 'GET', url: '/api/v3/orderList' },
  'openOrderLists.status': { method: 'GET', url: '/api/v3/openOrderList' },
  allOrderLists: { method: 'GET', url: '/api/v3/allOrderList' },
  allOrders: { method: 'GET', url: '/api/v3/allOrders' },
  myTrades: { method: 'GET', url: '/api/v3/myTrades' },
  'account.status': { method: 'GET', url: '/api/v3/account' },
  'account.commission': { method: 'GET', url: '/api/v3/account/commission' },
};

/**
 * The USDⓈ-M futures WebSocket API methods (/ws-fapi/v1) dispatched to REST. Binance's pairs: order.place, order.modify,
 * order.cancel and order.status are POST, PUT, DELETE and GET /fapi/v1/order; the account requests come in two
 * versions, the WebSocket API's first answering as REST's V2 (account.balance: GET /fapi/v2/balance, account.status:
 * /fapi/v2/account, account.position: /fapi/v2/positionRisk) and its `v2/` ones as REST's V3 (/fapi/v3/balance,
 * /fapi/v3/account, /fapi/v3/positionRisk).
 */
export const WS_FAPI_REST_METHODS: Readonly<Record<string, RestRoute>> = {
  'order.place': { method: 'POST', url: '/fapi/v1/order' },
  'order.modify': { method: 'PUT', url: '/fapi/v1/order' },
  'order.cancel': { method: 'DELETE', url: '/fapi/v1/order' },
  'order.status': { method: 'GET', url: '/fapi/v1/order' },
  'account.balance': { method: 'GET', url: '/fapi/v2/balance' },
  'v2/account.balance': { method: 'GET', url: '/fapi/v3/balance' },
  'account.status': { method: 'GET', url: '/fapi/v2/account' },
  'v2/account.status': { method: 'GET', url: '/fapi/v3/account' },
  'account.position': { method: 'GET', url: '/fapi/v2/positionRisk' },
  'v2/account.position': { method: 'GET', url: '/fapi/v3/positionRisk' },
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
  /** True when `method` is one of the dispatcher's methods. */
  has(method: string): boolean;
  /**
   * Answers `method` (a key of the dispatcher's table) with `params` from client address `ip`: the signature over
   * `payload` (the WebSocket API's sorted params) is checked, then the REST route answers. Never throws.
   */
  dispatch(method: string, params: Record<string, unknown>, payload: string, ip: string, auth: WsApiAuth): Promise<WsApiAnswer>;
}

/**
 * What the dispatcher uses: the app to inject into (any of its scopes), the API key verifier, the server's clock (a
 * session's timestamps), the configured limits (the answers' rateLimits) and its methods' table (WS_API_REST_METHODS
 * or WS_FAPI_REST_METHODS).
 */
export interface WsApiTradeDeps {
  app: Pick<FastifyInstance, 'inject'>;
  apiKeys: Pick<ApiKeyVerifier, 'signed'>;
  clock: Pick<ServerClock, 'now'>;
  config: Pick<Config, 'binanceWeightPerMin' | 'binanceOrdersPer10s' | 'binanceOrdersPerDay'>;
  routes: Readonly<Record<string, RestRoute>>;
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
 * Builds the dispatcher of `routes` over the app of `app` (any scope of it: inject runs the whole app, its global
 * hooks and the Binance scope's hooks included).
 */
export function createWsApiTrade({ app, apiKeys, clock, config, routes }: WsApiTradeDeps): WsApiTrade {
  const limits = binanceRateLimits(config);

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
    has: (method) => Object.hasOwn(routes, method),
    async dispatch(method, params, payload, ip, auth) {
      const route = Object.hasOwn(routes, method) ? routes[method] : undefined;
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
          checkTiming(timestampMicros(ts), recvWindowMicros(paramText(params.recvWindow)), clock.now());
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
      const res = await asVerifiedCaller(apiKey, (headers) =>
        app.inject({ method: route.method, url: `${route.url}?${query.join('&')}`, headers, remoteAddress: ip }),
      );
      const rateLimits = withLimits ? rateLimitsOf(res.headers) : undefined;
      let body: unknown;
      try {
        body = res.json();
      } catch {
        return errorAnswer(BX.unknown(), rateLimits);
      }
      if (res.statusCode === 200) return { status: 200, result: body, ...(rateLimits ? { rateLimits } : {}) };
      const e = (body ?? {}) as { code?: unknown; msg?: unknown };
      if (typeof e.code === 'number' && typeof e.msg === 'string')
        return { status: res.statusCode, error: { code: e.code, msg: e.msg }, ...(rateLimits ? { rateLimits } : {}) };
      return errorAnswer(BX.unknown(), rateLimits);
    },
  };
}
