/**
 * Binance spot REST under /api/v3 (issue 15; https://developers.binance.com/docs/binance-spot-api-docs/rest-api):
 * Binance's paths, parameters and JSON shapes over our spot markets, through the same services as the app API.
 */
import type { FastifyPluginAsync } from 'fastify';

const spotRoutes: FastifyPluginAsync = async (app) => {
  app.get('/api/v3/ping', { config: { binance: { weight: 1, security: 'NONE' } } }, async () => ({}));
  app.get('/api/v3/time', { config: { binance: { weight: 1, security: 'NONE' } } }, async () => ({ serverTime: app.ctx.clock.now() }));
};

export default spotRoutes;
