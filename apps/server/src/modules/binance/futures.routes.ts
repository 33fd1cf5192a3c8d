/**
 * Binance USDⓈ-M futures REST under /fapi (issue 15;
 * https://developers.binance.com/docs/derivatives/usds-margined-futures/general-info) over our USDT perpetuals,
 * through the same services as the app API.
 */
import type { FastifyPluginAsync } from 'fastify';

const futuresRoutes: FastifyPluginAsync = async (app) => {
  app.get('/fapi/v1/ping', { config: { binance: { weight: 1, security: 'NONE' } } }, async () => ({}));
  app.get('/fapi/v1/time', { config: { binance: { weight: 1, security: 'NONE' } } }, async () => ({ serverTime: app.ctx.clock.now() }));
};

export default futuresRoutes;
