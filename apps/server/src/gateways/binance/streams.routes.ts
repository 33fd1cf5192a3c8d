/**
 * Binance market and user data streams over WebSocket: raw /ws/<stream> and combined
 * /stream?streams=... for spot, the same under /fstream/ for the USDT perpetuals, listenKeys, and the WebSocket
 * API's user data stream subscription (/ws-api/v3). Binance's message formats
 * (https://developers.binance.com/docs/binance-spot-api-docs/web-socket-streams); the protocol is in
 * streams.hub.ts, the payloads in streams.market.ts and streams.user.ts.
 *
 * Paths:
 * - spot: /ws, /ws/<stream or listenKey>, /stream?streams=a/b; the same under /stream/ws (CCXT tells a spot socket
 *   from a futures one by "/stream" in its URL, pro/binance.js isSpotUrl: point urls.api.ws.spot at
 *   ws://host/stream/ws). The app's own socket /ws/websocket is a static route and wins over /ws/<stream>.
 * - futures (urls.api.ws.future = ws://host/fstream/ws; CCXT rewrites it to /fstream/public/ws, /fstream/market/ws
 *   and /fstream/private/ws?listenKey=): /fstream/ws[/<stream>], /fstream/stream, /fstream/{public,market}/ws[/<stream>]
 *   and /fstream/{public,market}/stream (every stream on each), /fstream/private/ws?listenKey= (or /<listenKey>) and
 *   /fstream/private/stream?listenKey=.
 * - /ws-api/v3 and /ws-fapi/v1: the spot and futures WebSocket API (streams.wsapi.ts), its trading and account
 *   requests answered by the REST routes (streams.wsapi.trade.ts).
 * - listenKeys: POST/PUT/DELETE /api/v3/userDataStream (listenKey parameter for PUT and DELETE) and
 *   /fapi/v1/listenKey (the user's key), USER_STREAM security (X-MBX-APIKEY only).
 *
 * Connections per client IP are capped at STREAM_MAX_PER_IP (Binance allows 300 new ones per 5 minutes per IP;
 * ours counts open ones): beyond it the upgrade is refused with 429 { code: -1003 }.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type WebSocket from 'ws';
import { createIpSlots, type IpSlots } from '../../platform/rate-limit/slots-and-buckets';
import { callerOf } from './binance.auth';
import { BX } from './binance.errors';
import { paramsOf } from './binance.hooks';
import { createStreamHub, type StreamHub, type StreamHubDeps } from './streams.hub';
import { createListenKeys, type ListenKeys } from './streams.listen-keys';
import type { StreamMarket } from './streams.names';
import { serveWsApi } from './streams.wsapi';
import { createWsApiTrade, WS_API_REST_METHODS, WS_FAPI_REST_METHODS, type WsApiTradeDeps } from './streams.wsapi.trade';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { ApiKeyVerifier } from '../../domains/api-keys/api-keys.service';
import type { TSchema } from '@sinclair/typebox';
import { answers, EmptyResponse, ListenKeyResponse } from './binance.responses';

/** Open stream connections one client IP may hold. */
export const STREAM_MAX_PER_IP = 300;

/** The stream state of an app (its listenKeys, its hub once a connection made it), by the engine port it serves. */
const states = new WeakMap<object, { listenKeys: ListenKeys; hub?: StreamHub }>();

/** The listenKeys and hub of the app built over `ctx` (tests: expire a key, read the counts). */
export function binanceStreamsOf(ctx: { host: object }): { listenKeys: ListenKeys; hub?: StreamHub } | undefined {
  return states.get(ctx.host);
}

/**
 * What the streams use: the engine, market data and the contracts' market data (the hub's payloads), the API keys
 * (the WebSocket API's logon), and the clock and rate limits of the WebSocket API. The listenKeys' routes are USER_STREAM ones, authenticated by the scope's hooks.
 */
export interface StreamRoutesDeps {
  host: EnginePort;
  /** The WebSocket API's clock (request timestamps, recvWindow) and its rate limits. */
  clock: WsApiTradeDeps['clock'];
  config: WsApiTradeDeps['config'];
  marketData: StreamHubDeps['marketData'];
  perpMarket: NonNullable<StreamHubDeps['perpMarket']>;
  apiKeys: ApiKeyVerifier;
}

/** Binance's market and user data streams, the WebSocket API and the listenKeys' routes. */
export default function streamRoutes({ host, clock, config, marketData, perpMarket, apiKeys }: StreamRoutesDeps): FastifyPluginAsync {
  return async function streamRoutes(app) {
    const state: { listenKeys: ListenKeys; hub?: StreamHub } = { listenKeys: createListenKeys() };
    states.set(host, state);
    let slots: IpSlots | undefined;
    const hubOf = (): StreamHub =>
      (state.hub ??= createStreamHub({
        host,
        marketData,
        perpMarket,
        listenKeys: state.listenKeys,
        log: app.log,
      }));
    app.addHook('onClose', async () => state.hub?.close());

    /** Takes a connection slot for the client's IP before the upgrade; 429 -1003 beyond the cap. */
    const takeSlot = async (req: FastifyRequest, reply: FastifyReply) => {
      if (!req.ws) return;
      slots ??= createIpSlots(STREAM_MAX_PER_IP);
      const ip = req.ip;
      if (!slots.take(ip)) {
        const e = BX.tooManyRequests('Too many connections from this address.');
        return reply.status(429).send({ code: e.code, msg: e.msg });
      }
      const taken = slots;
      req.raw.socket.once('close', () => taken.release(ip));
    };
    const ws = { websocket: true, schema: { hide: true }, onRequest: takeSlot } as const;
    const query = (req: FastifyRequest) => (req.query ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : '');

    /** Raw streams at `path` and `path/<stream>`, combined ones at `combinedPath`. */
    function streams(scope: FastifyInstance, market: StreamMarket, path: string, combinedPath: string): void {
      scope.get(path, ws, (socket: WebSocket) => hubOf().connect(socket, market, [], false));
      scope.get(`${path}/:stream`, ws, (socket: WebSocket, req) => {
        const name = str((req.params as Record<string, unknown>).stream);
        hubOf().connect(socket, market, name === '' ? [] : [name], false);
      });
      scope.get(combinedPath, ws, (socket: WebSocket, req) => {
        const names = str(query(req).streams)
          .split('/')
          .filter((s) => s !== '');
        hubOf().connect(socket, market, names, true);
      });
    }
    streams(app, 'spot', '/ws', '/stream');
    streams(app, 'spot', '/stream/ws', '/stream/stream');
    streams(app, 'futures', '/fstream/ws', '/fstream/stream');
    streams(app, 'futures', '/fstream/public/ws', '/fstream/public/stream');
    streams(app, 'futures', '/fstream/market/ws', '/fstream/market/stream');

    /** The private futures URL: the listenKey query parameter (or path), closed 1008 when it is not a valid key. */
    const privateFutures = (combined: boolean) => (socket: WebSocket, req: FastifyRequest) => {
      const key = str(query(req).listenKey) || str((req.params as Record<string, unknown> | undefined)?.listenKey);
      if (!state.listenKeys.get(key, 'futures')) {
        socket.close(1008, 'invalid listenKey');
        return;
      }
      const extra = str(query(req).streams)
        .split('/')
        .filter((s) => s !== '');
      hubOf().connect(socket, 'futures', [key, ...extra], combined);
    };
    app.get('/fstream/private/ws', ws, privateFutures(false));
    app.get('/fstream/private/ws/:listenKey', ws, privateFutures(false));
    app.get('/fstream/private/stream', ws, privateFutures(true));

    /**
     * The WebSocket API (streams.wsapi.ts): its trading and account requests injected into this app as the REST
     * requests of the same meaning (streams.wsapi.trade.ts), spot's under /api/v3 and futures' under /fapi.
     */
    const wsApiDeps = { app, apiKeys, clock, config };
    const spotTrade = createWsApiTrade({ ...wsApiDeps, routes: WS_API_REST_METHODS });
    const futuresTrade = createWsApiTrade({ ...wsApiDeps, routes: WS_FAPI_REST_METHODS });
    app.get('/ws-api/v3', ws, (socket: WebSocket, req) => serveWsApi(socket, req.ip, hubOf(), apiKeys, Date.now, spotTrade, 'spot'));
    app.get('/ws-fapi/v1', ws, (socket: WebSocket, req) => serveWsApi(socket, req.ip, hubOf(), apiKeys, Date.now, futuresTrade, 'futures'));

    // ---------------------------------------------------------------- listenKeys

    const userStream = (weight: number, answer: TSchema = EmptyResponse) => ({
      config: { binance: { weight, security: 'USER_STREAM' as const } },
      schema: { response: answers(answer) },
    });
    const listenKeyParam = (req: FastifyRequest): string => {
      const k = paramsOf(req).listenKey;
      if (k === undefined || k === '') throw BX.mandatoryMissing('listenKey');
      return k;
    };

    app.post('/api/v3/userDataStream', userStream(2, ListenKeyResponse), async (req) => ({
      listenKey: state.listenKeys.create(callerOf(req).userId, 'spot').key,
    }));
    app.put('/api/v3/userDataStream', userStream(2), async (req) => {
      if (!state.listenKeys.keepalive(callerOf(req).userId, 'spot', listenKeyParam(req))) throw BX.invalidListenKey();
      return {};
    });
    app.delete('/api/v3/userDataStream', userStream(2), async (req) => {
      if (!state.listenKeys.close(callerOf(req).userId, 'spot', listenKeyParam(req))) throw BX.invalidListenKey();
      return {};
    });

    app.post('/fapi/v1/listenKey', userStream(1, ListenKeyResponse), async (req) => ({
      listenKey: state.listenKeys.create(callerOf(req).userId, 'futures').key,
    }));
    app.put('/fapi/v1/listenKey', userStream(1, ListenKeyResponse), async (req) => {
      const userId = callerOf(req).userId;
      const k = state.listenKeys.ofUser(userId, 'futures');
      if (!k || !state.listenKeys.keepalive(userId, 'futures', k.key)) throw BX.invalidListenKey();
      return { listenKey: k.key };
    });
    app.delete('/fapi/v1/listenKey', userStream(1), async (req) => {
      const userId = callerOf(req).userId;
      const k = state.listenKeys.ofUser(userId, 'futures');
      if (k) state.listenKeys.close(userId, 'futures', k.key);
      return {};
    });
  };
}
