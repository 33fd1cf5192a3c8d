/**
 * Authentication and request weight of the Binance-compatible API: the contract every Binance route
 * relies on. A route declares what it needs in its Fastify route config:
 *
 *   config: { binance: { weight: 1, security: 'TRADE', permission: 'spotTrade' } }
 *
 * and the scope's hooks (registered by `registerBinanceHooks`, binance.routes.ts) do the rest before its handler:
 * charge the weight per IP and per key (X-MBX-USED-WEIGHT-1M, 429 -1003, 418 for an IP that keeps going), check
 * `X-MBX-APIKEY` (USER_STREAM, USER_DATA, TRADE), the signature over the exact query string and body, `timestamp`
 * and `recvWindow` (USER_DATA, TRADE), the key's permission and IP whitelist, and that the account is not frozen;
 * then `req.apiCaller` is set. Security types as Binance documents them
 * (https://developers.binance.com/docs/binance-spot-api-docs/rest-api/endpoint-security-type).
 */
import type { FastifyRequest } from 'fastify';
import type { ApiKeyCaller, KeyPermission } from '../../domains/api-keys/api-keys.service';
import { BX } from './binance.errors';

/** Binance's endpoint security types. */
export type SecurityType = 'NONE' | 'MARKET_DATA' | 'USER_STREAM' | 'USER_DATA' | 'TRADE';

/** The route config of a Binance route. */
export interface BinanceRouteConfig {
  /** Request weight charged per IP (and per key when the route is keyed). */
  weight: number;
  /**
   * The weight by the request's query when Binance's table depends on it (GET depth by `limit`): given the raw
   * query-string parameters, answers the weight; `weight` is the one of the default.
   */
  weightBy?: (query: Record<string, unknown>) => number;
  security: SecurityType;
  /** The key permission the route needs (USER_DATA routes need 'read', which every key has). */
  permission?: KeyPermission;
  /**
   * Set on routes that place new orders (POST order, not order/test): each request counts against the ORDERS
   * limits of its account (BINANCE_ORDERS_PER_10S, BINANCE_ORDERS_PER_DAY; -1015 over them) and the answer carries
   * X-MBX-ORDER-COUNT-10S and X-MBX-ORDER-COUNT-1D (binance.weights.ts). `true` counts one order in each window; an
   * OrderCount counts what the route's Binance page says a request counts (a batch: OrderCount).
   */
  order?: true | OrderCount;
}

/**
 * What one request counts against the ORDERS limits: `tenSeconds` on the 10-second window, `day` on the day window.
 * A request is refused (-1015, nothing done) when a count would pass its limit.
 */
export interface OrderCount {
  tenSeconds: number;
  day: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    binance?: BinanceRouteConfig;
  }
  interface FastifyRequest {
    /** The caller of a keyed Binance route (set by the Binance hooks). */
    apiCaller?: ApiKeyCaller;
  }
}

/** The caller of a keyed Binance route; throws -2015 when the route is not keyed (a programmer error in practice). */
export function callerOf(req: FastifyRequest): ApiKeyCaller {
  if (!req.apiCaller) throw BX.rejectedApiKey();
  return req.apiCaller;
}
