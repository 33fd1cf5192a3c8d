/**
 * The WebSocket endpoint GET /ws/websocket (spec section 9). The socket's language comes from the `lang` query
 * parameter, else the `lang` / Accept-Language headers (as for HTTP). The protocol is in ws.hub.ts.
 * Connections per client IP (`req.ip`, so behind a trusted proxy the forwarded client) are capped at WS_MAX_PER_IP:
 * a slot is taken before the upgrade (beyond the cap the upgrade is refused with HTTP 429 'rate_limited', costing
 * no WebSocket at all) and given back when the TCP connection closes, whatever ended it.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Lang } from '@exchange/api';
import { fail } from '../../platform/shared/envelope';
import { requestLang } from '../../platform/shared/lang';
import { createWsHub, type WsHub, type WsHubDeps, type WsHubStats } from './ws.hub';
import type { Config } from '../../platform/config/env';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { createIpSlots, type IpSlots } from '../../platform/rate-limit/slots-and-buckets';

/** The hub of each app, by the engine port it serves (created at the first connection), for `wsHubStats`. */
const hubs = new WeakMap<object, WsHub>();

/**
 * The WebSocket hub's counts for the app built over `ctx` (for /metrics): sockets, subscribers per channel, send
 * backlog, skipped and closed slow consumers. Undefined until the first WebSocket connection created the hub.
 */
export function wsHubStats(ctx: { host: object }): WsHubStats | undefined {
  return hubs.get(ctx.host)?.stats();
}

/**
 * What the app's WebSocket uses: the hub's services (market data, the contracts' market data, the engine, the members'
 * sessions, the hooks), the domains' private pushes and their services' own push sources (read when the hub is
 * created), and the socket limits of the configuration.
 */
export interface WsRoutesDeps {
  marketData: WsHubDeps['marketData'];
  perpMarket: WsHubDeps['perpMarket'];
  pushes: NonNullable<WsHubDeps['pushes']>;
  sources: () => NonNullable<WsHubDeps['sources']>;
  host: EnginePort;
  members: WsHubDeps['members'];
  hooks: WsHubDeps['hooks'];
  config: Pick<Config, 'wsMessagesPerSec' | 'wsMessageBurst' | 'wsAuthFailuresPerSocket' | 'wsFlushMs' | 'wsMaxPerIp'>;
}

/** The app's WebSocket endpoint over the services of its hub. */
export default function wsRoutes({ marketData, perpMarket, pushes, sources, host, members, hooks, config }: WsRoutesDeps): FastifyPluginAsync {
  return async function wsRoutes(app) {
    // Created on the first connection, so apps built over partial contexts (other modules' tests) never touch
    // the market-data service or the engine (nor the domains' push sources).
    let hub: WsHub | undefined;
    let slots: IpSlots | undefined;
    const hubOf = (): WsHub => {
      if (hub) return hub;
      hub = createWsHub({
        marketData,
        perpMarket,
        pushes,
        sources: sources(),
        host,
        members,
        hooks,
        limits: {
          messagesPerSec: config.wsMessagesPerSec,
          messageBurst: config.wsMessageBurst,
          authFailuresPerSocket: config.wsAuthFailuresPerSocket,
        },
        log: app.log,
        flushMs: config.wsFlushMs,
      });
      hubs.set(host, hub);
      return hub;
    };
    app.addHook('onClose', async () => hub?.close());
    app.get(
      '/ws/websocket',
      {
        websocket: true,
        schema: { hide: true },
        onRequest: async (req, reply) => {
          if (!req.ws) return;
          slots ??= createIpSlots(config.wsMaxPerIp);
          const ip = req.ip;
          if (!slots.take(ip)) {
            req.log.debug({ ip }, 'WebSocket refused: too many connections from this address');
            return reply.status(429).send(fail('rate_limited', requestLang(req)));
          }
          const taken = slots;
          req.raw.socket.once('close', () => taken.release(ip));
        },
      },
      (socket, req) => {
        const q = (req.query ?? {}) as Record<string, unknown>;
        const fromQuery = typeof q.lang === 'string' ? q.lang.toLowerCase() : '';
        const lang: Lang = fromQuery.startsWith('en') ? 'en' : fromQuery.startsWith('zh') ? 'zh' : requestLang(req);
        hubOf().connect(socket, lang);
      },
    );
  };
}
