/**
 * The WebSocket endpoint GET /ws/websocket (spec section 9). The socket's language comes from the `lang` query
 * parameter, else the `lang` / Accept-Language headers (as for HTTP). The protocol is in ws.hub.ts.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Lang } from '@exchange/api';
import { requestLang } from '../../shared/lang';
import { createWsHub, type WsHub } from './ws.hub';

const wsRoutes: FastifyPluginAsync = async (app) => {
  // Created on the first connection, so apps built over partial contexts (other modules' tests) never touch
  // the market-data service or the engine.
  let hub: WsHub | undefined;
  const hubOf = () => (hub ??= createWsHub({ marketData: app.ctx.marketData, host: app.ctx.host, members: app.ctx.members, log: app.log }));
  app.addHook('onClose', async () => hub?.close());
  app.get('/ws/websocket', { websocket: true, schema: { hide: true } }, (socket, req) => {
    const q = (req.query ?? {}) as Record<string, unknown>;
    const fromQuery = typeof q.lang === 'string' ? q.lang.toLowerCase() : '';
    const lang: Lang = fromQuery.startsWith('en') ? 'en' : fromQuery.startsWith('zh') ? 'zh' : requestLang(req);
    hubOf().connect(socket, lang);
  });
};

export default wsRoutes;
