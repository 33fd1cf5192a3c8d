/**
 * The margin pairs CCXT's `binance` class asks for while loading markets with a key (issue 15, docs/binance-api.md
 * "Using it with CCXT"): its option fetchMargins is on by default, so `loadMarkets` also calls
 * GET /sapi/v1/margin/allPairs and GET /sapi/v1/margin/isolated/allPairs. We have no margin trading: both answer an
 * empty list, so CCXT works with only its URLs changed. (The coins, /sapi/v1/capital/config/getall, are in
 * spot.trade.routes.ts; the COIN-M /dapi/v1/exchangeInfo with no symbols in futures.routes.ts.)
 * Binance: https://developers.binance.com/docs/margin_trading/market-data/Get-All-Cross-Margin-Pairs and
 * https://developers.binance.com/docs/margin_trading/market-data/Get-All-Isolated-Margin-Symbol.
 */
import type { FastifyPluginAsync } from 'fastify';

const ccxtCompatRoutes: FastifyPluginAsync = async (app) => {
  app.get('/sapi/v1/margin/allPairs', { config: { binance: { weight: 1, security: 'MARKET_DATA' } } }, async () => []);
  app.get('/sapi/v1/margin/isolated/allPairs', { config: { binance: { weight: 10, security: 'USER_DATA' } } }, async () => []);
};

export default ccxtCompatRoutes;
