/**
 * The hooks of the Binance scope: keep the raw form body (a signature covers the exact bytes sent), and
 * before each handler authenticate the caller as its route config says (binance.auth.ts). Request weights and
 * rate limits are charged here too.
 *
 * The WebSocket API (streams.wsapi.trade.ts) answers its trading and account requests with these same routes: it
 * checks the request's signature itself (a WebSocket API signature covers other bytes than a REST one) or takes the
 * caller of the connection's session.logon, then injects the REST request into the app with a one-time token
 * (`asVerifiedCaller`) in place of the signature. The hooks take the token as the signature's check and run every
 * other check, weight and order count as for REST, on the same counters: one budget per IP, key and account whichever
 * API the request came by.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BinanceError, BX } from './binance.errors';
import type { BinanceRouteConfig } from './binance.auth';
import { createBinanceLimiter } from './binance.weights';
import type { Config } from '../../platform/config/env';
import type { ServerClock } from '../../platform/shared/clock';
import type { ApiKeyVerifier } from '../../domains/api-keys/api-keys.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The form body exactly as received (Binance signs the query string followed by the body). */
    binanceRawBody?: string;
  }
}

/** A percent-decoded parameter value; -1022 when its percent-encoding is malformed (never a 500). */
function decodeOrThrow(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    throw BX.badSignature();
  }
}

/** Strips `signature=...` from a raw query string or body; returns [rest, signature]. */
export function splitSignature(raw: string): [string, string | undefined] {
  if (raw === '') return ['', undefined];
  let signature: string | undefined;
  const kept: string[] = [];
  for (const part of raw.split('&')) {
    if (part.startsWith('signature=')) signature = decodeOrThrow(part.slice('signature='.length));
    else kept.push(part);
  }
  return [kept.join('&'), signature];
}

/** The header of a request injected by the WebSocket API for a caller it verified: the one-time token. */
export const WS_API_CALLER_HEADER = 'x-wsapi-verified-caller';

/** One-time tokens of callers the WebSocket API verified, by token: the API key they were issued for. */
const verifiedCallers = new Map<string, string>();

/**
 * Runs `inject` with the headers of a REST request made for `apiKey`, a caller the WebSocket API has verified (its
 * signature over the WebSocket API payload, or its session.logon, and the timestamp): X-MBX-APIKEY and a one-time
 * token the Binance hooks accept in place of the request's signature while `inject` runs. The token is random
 * (192 bits) and lives only in this process, so an HTTP client cannot present one.
 */
export async function asVerifiedCaller<T>(apiKey: string, inject: (headers: Record<string, string>) => Promise<T>): Promise<T> {
  const token = crypto.randomBytes(24).toString('hex');
  verifiedCallers.set(token, apiKey);
  try {
    return await inject({ 'x-mbx-apikey': apiKey, [WS_API_CALLER_HEADER]: token });
  } finally {
    verifiedCallers.delete(token);
  }
}

/** The merged parameters of a request: query string and form body (strings), body last. */
export function paramsOf(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of [req.query, req.body]) {
    if (part === null || typeof part !== 'object') continue;
    for (const [k, v] of Object.entries(part as Record<string, unknown>)) if (typeof v === 'string') out[k] = v;
  }
  return out;
}

/** What the hooks use: the limits' configuration, the server's clock and the API keys (authentication). */
export interface BinanceHooksDeps {
  config: Pick<Config, 'binanceWeightPerMin' | 'binanceOrdersPer10s' | 'binanceOrdersPerDay'>;
  clock: Pick<ServerClock, 'now'>;
  apiKeys: Pick<ApiKeyVerifier, 'keyed' | 'signed'>;
}

/**
 * Registers on the Binance scope `app`: the raw-body form parser, an empty body for a body-less request
 * (preValidation), the IP weight charge (onRequest, before the body is read; a route without a weight counts 1) and
 * the authentication, key weight and order count (preHandler), with the limits of binance.weights.ts over the
 * server's clock.
 */
export function registerBinanceHooks(app: FastifyInstance, { config, clock, apiKeys }: BinanceHooksDeps): void {
  const limiter = createBinanceLimiter(config, clock.now);
  app.removeContentTypeParser('application/x-www-form-urlencoded');
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (req, body, done) => {
    const raw = body as string;
    req.binanceRawBody = raw;
    const parsed: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(raw)) {
      // Binance: -1101 "Duplicate values for a parameter detected." (a repeated key is never read as its last value).
      if (Object.hasOwn(parsed, k)) return done(new BinanceError(-1101, 'Duplicate values for a parameter detected.', 400), undefined);
      parsed[k] = v;
    }
    done(null, parsed);
  });

  // A request without a body (every parameter in the query string) is validated as an empty form body, so that the
  // routes' body schemas keep their `type: 'object'` (signedPartialParams).
  app.addHook('preValidation', async (req) => {
    if (req.body === undefined || req.body === null) req.body = {};
  });

  app.addHook('onRequest', async (req, reply) => {
    const cfg = req.routeOptions.config.binance as BinanceRouteConfig | undefined;
    limiter.chargeIp(req.ip, weightOf(req, cfg), reply);
  });

  app.addHook('preHandler', async (req, reply) => {
    const cfg = req.routeOptions.config.binance as BinanceRouteConfig | undefined;
    if (!cfg || cfg.security === 'NONE' || cfg.security === 'MARKET_DATA') return;
    await authenticate(apiKeys, req, cfg);
    if (cfg.security !== 'USER_STREAM') checkAllParamsRead(req);
    const caller = req.apiCaller!;
    limiter.chargeKey(caller.keyId, weightOf(req, cfg), reply);
    if (cfg.order !== undefined) limiter.countOrder(caller.userId, reply, cfg.order === true ? undefined : cfg.order);
  });
}

/** The parameter names each route reads: the properties of its querystring and body schemas (cached per schema). */
const readNames = new WeakMap<object, ReadonlySet<string>>();

/** The names of the parameters a route's schemas declare (its querystring and form body), the only ones it reads. */
function namesRead(schema: { querystring?: unknown; body?: unknown }): ReadonlySet<string> {
  const cached = readNames.get(schema);
  if (cached !== undefined) return cached;
  const names = new Set<string>(['timestamp', 'recvWindow', 'signature']);
  for (const part of [schema.querystring, schema.body]) {
    const props = (part as { properties?: Record<string, unknown> } | undefined)?.properties;
    if (props !== undefined) for (const k of Object.keys(props)) names.add(k);
  }
  readNames.set(schema, names);
  return names;
}

/**
 * Binance's -1104 for a signed request carrying a parameter its route does not read ("Not all sent parameters were
 * read; read '%s' parameter(s) but was sent '%s'.", spot and futures error pages): an order with a misspelt or
 * unsupported option (`fooBar=1`, `stopLoss[triggerPrice]=...`) is refused instead of placed without it. The
 * parameters read are those the route's schemas declare (timestamp, recvWindow and signature included); the counts
 * are of distinct names over the query string and the form body.
 */
export function checkAllParamsRead(req: FastifyRequest): void {
  const schema = req.routeOptions.schema;
  // A route that declares no parameter schema at all is not checked (every Binance route declares one).
  if (schema === undefined || (schema.querystring === undefined && schema.body === undefined)) return;
  const names = namesRead(schema);
  const sent = new Set<string>();
  for (const part of [req.query, req.body]) {
    if (part === null || typeof part !== 'object') continue;
    for (const k of Object.keys(part as Record<string, unknown>)) sent.add(k);
  }
  let read = 0;
  for (const k of sent) if (names.has(k)) read++;
  if (read < sent.size) throw BX.unreadParams(read, sent.size);
}

/** The weight of a request: its route's, by the query where the route's table depends on it; 1 without a config. */
function weightOf(req: FastifyRequest, cfg: BinanceRouteConfig | undefined): number {
  if (cfg === undefined) return 1;
  return cfg.weightBy !== undefined ? cfg.weightBy((req.query ?? {}) as Record<string, unknown>) : cfg.weight;
}

/** Authenticates a keyed request with `apiKeys` as its route config says and sets `req.apiCaller` (binance.auth.ts). */
async function authenticate(apiKeys: BinanceHooksDeps['apiKeys'], req: FastifyRequest, cfg: BinanceRouteConfig): Promise<void> {
  const header = req.headers['x-mbx-apikey'];
  const apiKey = Array.isArray(header) ? header[0] : header;
  if (apiKey === undefined || apiKey === '') throw BX.badApiKeyFormat();
  if (cfg.security === 'USER_STREAM') {
    req.apiCaller = await apiKeys.keyed(apiKey, req.ip, cfg.permission);
    return;
  }
  const verified = req.headers[WS_API_CALLER_HEADER];
  if (verified !== undefined) {
    // A WebSocket API request (asVerifiedCaller): its signature and timestamp were checked by the WebSocket layer; the
    // key's permission, IP whitelist and account are checked here as for a signed request. A token that is not one
    // issued for this key is a bad signature.
    if (typeof verified !== 'string' || verifiedCallers.get(verified) !== apiKey) throw BX.badSignature();
    req.apiCaller = await apiKeys.keyed(apiKey, req.ip, cfg.permission);
    return;
  }
  const q = req.url.indexOf('?');
  const [query, sigQ] = splitSignature(q < 0 ? '' : req.url.slice(q + 1));
  const [body, sigB] = splitSignature(req.binanceRawBody ?? '');
  const signature = sigQ ?? sigB;
  if (signature === undefined || signature === '') throw BX.mandatoryMissing('signature');
  const p = paramsOf(req);
  if (p.timestamp === undefined || p.timestamp === '') throw BX.mandatoryMissing('timestamp');
  req.apiCaller = await apiKeys.signed({
    apiKey,
    ip: req.ip,
    payload: query + body,
    signature,
    timestamp: p.timestamp,
    ...(p.recvWindow !== undefined ? { recvWindow: p.recvWindow } : {}),
    ...(cfg.permission ? { permission: cfg.permission } : {}),
  });
}
