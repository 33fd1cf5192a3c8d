/**
 * The WebSocket API: spot at /ws-api/v3, USDⓈ-M futures at /ws-fapi/v1.
 *
 * Spot: the user data stream, as CCXT's spot watchOrders and watchBalance use it
 * (https://developers.binance.com/docs/binance-spot-api-docs/websocket-api/user-data-stream-requests): requests
 * `{ id, method, params }`, answers `{ id, status, result }` or `{ id, status, error: { code, msg } }`.
 * Methods: `ping`, `time`, `userDataStream.subscribe.signature` (params apiKey, timestamp, signature, optional
 * recvWindow; signed like REST over the other params sorted by name, `key=value` joined by `&`, as the WebSocket API
 * documents for signed requests), `userDataStream.unsubscribe` (one subscriptionId or all) and
 * `session.subscriptions`. A subscription's events come as `{ subscriptionId, event }` (streams.user.ts).
 * The trading and account requests (streams.wsapi.trade.ts WS_API_REST_METHODS: `order.place`, `order.cancelReplace`,
 * `orderList.place.oco`, `account.status` ...) are answered by the REST routes, signed in their params, or without a
 * signature once `session.logon` authenticated the connection (`session.status`, `session.logout`).
 *
 * Futures (https://developers.binance.com/docs/derivatives/usds-margined-futures/websocket-api-general-info): `ping`,
 * `time`, the session requests and the trading and account requests of WS_FAPI_REST_METHODS (`order.place`,
 * `order.modify`, `order.cancel`, `order.status`, `account.balance`, `account.status`, `account.position` and their
 * `v2/` forms), answered by the /fapi REST routes the same way; its user data stream is the listenKey one
 * (/fstream/private), so the `userDataStream.*` and `session.subscriptions` requests are not offered there.
 *
 * Any other method is answered -1020 (this operation is not supported).
 */
import type WebSocket from 'ws';
import { ApiKeyRefusal, type ApiKeyVerifier } from '../../domains/api-keys/api-keys.service';
import { BinanceError, BX, toBinanceError } from './binance.errors';
import type { StreamHub, UserSink } from './streams.hub';
import type { WsApiTrade } from './streams.wsapi.trade';

/** Subscriptions one connection may hold at a time (Binance: 1,000). */
export const MAX_API_SUBSCRIPTIONS = 1000;

type Id = string | number | null;

/** The payload a WebSocket API signature covers: every param but `signature`, sorted by name, `k=v` joined by `&`. */
export function wsApiPayload(params: Record<string, unknown>): string {
  return Object.keys(params)
    .filter((k) => k !== 'signature')
    .sort()
    .map((k) => `${k}=${String(params[k])}`)
    .join('&');
}

/**
 * Serves one WebSocket API connection of client address `ip` for `market` (spot: /ws-api/v3, futures: /ws-fapi/v1);
 * `trade` is the dispatcher of the market's trading and account requests, absent: those methods are -1020 too.
 */
export function serveWsApi(
  socket: WebSocket,
  ip: string,
  hub: StreamHub,
  apiKeys: ApiKeyVerifier,
  now: () => number = Date.now,
  trade?: WsApiTrade,
  market: 'spot' | 'futures' = 'spot',
): void {
  const subs = new Map<number, UserSink>();
  let nextId = 0;
  const connectedSince = now();
  /** The key of session.logon, and since when. */
  let session: { apiKey: string; since: number } | null = null;
  const send = (v: unknown) => {
    if (socket.readyState === 1) socket.send(JSON.stringify(v));
  };
  const ok = (id: Id, result: unknown) => send({ id, status: 200, result });
  const fail = (id: Id, e: BinanceError) => send({ id, status: e.status, error: { code: e.code, msg: e.msg } });

  async function subscribeSignature(id: Id, params: Record<string, unknown>): Promise<void> {
    for (const k of ['apiKey', 'timestamp', 'signature']) {
      const v = params[k];
      if ((typeof v !== 'string' && typeof v !== 'number') || v === '') return fail(id, BX.mandatoryMissing(k));
    }
    const caller = await apiKeys.signed({
      apiKey: String(params.apiKey),
      ip,
      payload: wsApiPayload(params),
      signature: String(params.signature),
      timestamp: String(params.timestamp),
      ...(params.recvWindow !== undefined ? { recvWindow: String(params.recvWindow) } : {}),
    });
    if ([...subs.values()].some((s) => s.userId === caller.userId))
      return fail(id, new BinanceError(-2035, 'User Data Stream subscription already active.', 400));
    if (subs.size >= MAX_API_SUBSCRIPTIONS) return fail(id, new BinanceError(-2042, 'Maximum subscription ID reached for this connection.', 400));
    const subscriptionId = nextId++;
    const sink = hub.bindUser({ userId: caller.userId, market: 'spot', subscriptionId }, socket);
    if (!sink) return;
    subs.set(subscriptionId, sink);
    ok(id, { subscriptionId });
  }

  /** session.logon: the signed params authenticate the connection's later requests (Binance: Ed25519 keys). */
  async function logon(id: Id, params: Record<string, unknown>): Promise<void> {
    for (const k of ['apiKey', 'timestamp', 'signature']) {
      const v = params[k];
      if ((typeof v !== 'string' && typeof v !== 'number') || v === '') return fail(id, BX.mandatoryMissing(k));
    }
    await apiKeys.signed({
      apiKey: String(params.apiKey),
      ip,
      payload: wsApiPayload(params),
      signature: String(params.signature),
      timestamp: String(params.timestamp),
      ...(params.recvWindow !== undefined ? { recvWindow: String(params.recvWindow) } : {}),
    });
    session = { apiKey: String(params.apiKey), since: now() };
    ok(id, sessionStatus());
  }
  const sessionStatus = () => ({
    apiKey: session?.apiKey ?? null,
    authorizedSince: session?.since ?? null,
    connectedSince,
    returnRateLimits: true,
    serverTime: now(),
    userDataStream: subs.size > 0,
  });

  /** A trading or account request: signed in its params, or on the logged-on session when it carries no signature. */
  async function rest(t: WsApiTrade, id: Id, method: string, params: Record<string, unknown>): Promise<void> {
    const signedHere = params.signature !== undefined || params.apiKey !== undefined || session === null;
    const answer = await t.dispatch(
      method,
      params,
      wsApiPayload(params),
      ip,
      signedHere ? { kind: 'signature' } : { kind: 'session', apiKey: session!.apiKey },
    );
    send({ id, ...answer });
  }

  async function handle(text: string): Promise<void> {
    let m: unknown;
    try {
      m = JSON.parse(text);
    } catch {
      return fail(null, BX.badParam('Malformed request: invalid JSON.'));
    }
    if (m === null || typeof m !== 'object' || Array.isArray(m)) return fail(null, BX.badParam('Malformed request.'));
    const req = m as { id?: unknown; method?: unknown; params?: unknown };
    const id: Id = typeof req.id === 'string' || typeof req.id === 'number' ? req.id : null;
    if (id === null) return fail(null, BX.mandatoryMissing('id'));
    if (typeof req.method !== 'string') return fail(id, BX.mandatoryMissing('method'));
    const params = req.params === undefined ? {} : req.params;
    if (params === null || typeof params !== 'object' || Array.isArray(params)) return fail(id, BX.badParam('Malformed request: params must be an object.'));
    const p = params as Record<string, unknown>;
    // The spot user data stream's requests; futures' user data stream is the listenKey one.
    const spotOnly = req.method.startsWith('userDataStream.') || req.method === 'session.subscriptions';
    try {
      if (market === 'futures' && spotOnly) return fail(id, new BinanceError(-1020, 'This operation is not supported.', 400));
      switch (req.method) {
        case 'ping':
          return ok(id, {});
        case 'time':
          return ok(id, { serverTime: now() });
        case 'userDataStream.subscribe.signature':
          return await subscribeSignature(id, p);
        case 'userDataStream.unsubscribe': {
          const sid = p.subscriptionId;
          if (sid === undefined) {
            for (const s of subs.values()) hub.unbindUser(s);
            subs.clear();
            return ok(id, {});
          }
          const s = typeof sid === 'number' ? subs.get(sid) : undefined;
          if (!s) return fail(id, new BinanceError(-2036, 'User Data Stream subscription not active.', 400));
          hub.unbindUser(s);
          subs.delete(sid as number);
          return ok(id, {});
        }
        case 'session.logon':
          return await logon(id, p);
        case 'session.status':
          return ok(id, sessionStatus());
        case 'session.logout':
          session = null;
          return ok(id, sessionStatus());
        case 'session.subscriptions':
          return ok(
            id,
            [...subs.keys()].map((subscriptionId) => ({ subscriptionId })),
          );
        default:
          if (trade?.has(req.method)) return await rest(trade, id, req.method, p);
          return fail(id, new BinanceError(-1020, 'This operation is not supported.', 400));
      }
    } catch (err) {
      return fail(id, err instanceof BinanceError || err instanceof ApiKeyRefusal ? toBinanceError(err) : BX.unknown());
    }
  }

  hub.attachApi(socket, (text) => void handle(text));
  socket.on('close', () => {
    for (const s of subs.values()) hub.unbindUser(s);
    subs.clear();
  });
}
