/**
 * The Binance-compatible API (docs/binance-api.md): another face of the same services, so that trading
 * bots and CCXT's `binance` class work against us with only the URLs changed. One encapsulated scope: Binance's
 * error body `{ code, msg }` (binance.errors.ts), the raw-body parser and the authentication and weight hooks
 * (binance.hooks.ts), the answers' schemas (binance.responses.ts), then spot REST under /api/v3 (spot.routes.ts), the USDT perpetuals under /fapi
 * (futures.routes.ts), the market and user data streams (streams.routes.ts), the wallet's transfers, deposits and
 * withdrawals under /sapi (sapi.wallet.routes.ts) and Binance's answer to an unknown path
 * under its prefixes (binance.not-found.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../platform/config/env';
import { binanceErrorHandler } from './binance.errors';
import { registerBinanceHooks, type BinanceHooksDeps } from './binance.hooks';
import { serveDocumentedAnswers } from './binance.responses';
import { registerBinanceNotFound } from './binance.not-found';
import spotRoutes, { type SpotRoutesDeps } from './spot.routes';
import futuresRoutes, { type FuturesRoutesDeps } from './futures.routes';
import streamRoutes, { type StreamRoutesDeps } from './streams.routes';
import sapiWalletRoutes, { type SapiWalletRoutesDeps } from './sapi.wallet.routes';

/**
 * What the Binance scope uses: what its hooks, spot, futures, stream and wallet routes use, and the environment (the answers
 * are checked against their schemas under test).
 */
export type BinanceRoutesDeps = BinanceHooksDeps &
  SpotRoutesDeps &
  FuturesRoutesDeps &
  StreamRoutesDeps &
  SapiWalletRoutesDeps & { config: Pick<Config, 'nodeEnv'> };

/** The Binance-compatible API's scope over the services its routes use. */
export default function binanceRoutes(deps: BinanceRoutesDeps): FastifyPluginAsync {
  const { config, clock, apiKeys, host, db, marketData, perpMarket, perp, spot, chain, wallet, indexComponents } = deps;
  return async function binanceRoutes(app) {
    app.setErrorHandler(binanceErrorHandler);
    registerBinanceHooks(app, { config, clock, apiKeys });
    // Answers documented by their response schemas (binance.responses.ts), checked against them under test.
    serveDocumentedAnswers(app, config.nodeEnv === 'test');
    await app.register(spotRoutes({ host, marketData, db, clock, config, spot, chain }));
    await app.register(futuresRoutes({ host, db, clock, config, perp, perpMarket, marketData, indexComponents }));
    await app.register(streamRoutes({ host, clock, config, marketData, perpMarket, apiKeys }));
    await app.register(sapiWalletRoutes({ host, clock, wallet, chain, apiKeys }));
    // Unknown paths under Binance's prefixes: Binance's 404 body, never the web app's page (binance.not-found.ts).
    await registerBinanceNotFound(app);
  };
}
