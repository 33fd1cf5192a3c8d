/**
 * The Binance-compatible API (docs/binance-api.md): another face of the same services, so that trading
 * bots and CCXT's `binance` class work against us with only the URLs changed. One encapsulated scope: Binance's
 * error body `{ code, msg }` (binance.errors.ts), the raw-body parser and the authentication and weight hooks
 * (binance.hooks.ts), the answers' schemas (binance.responses.ts), then spot REST under /api/v3 (spot.routes.ts), the USDT perpetuals under /fapi
 * (futures.routes.ts) and the market and user data streams (streams.routes.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import { binanceErrorHandler } from './binance.errors';
import { registerBinanceHooks } from './binance.hooks';
import { serveDocumentedAnswers } from './binance.responses';
import spotRoutes from './spot.routes';
import futuresRoutes from './futures.routes';
import streamRoutes from './streams.routes';

const binanceRoutes: FastifyPluginAsync = async (app) => {
  app.setErrorHandler(binanceErrorHandler);
  registerBinanceHooks(app);
  // Answers documented by their response schemas (binance.responses.ts), checked against them under test.
  serveDocumentedAnswers(app, app.ctx.config.nodeEnv === 'test');
  await app.register(spotRoutes);
  await app.register(futuresRoutes);
  await app.register(streamRoutes);
};

export default binanceRoutes;
