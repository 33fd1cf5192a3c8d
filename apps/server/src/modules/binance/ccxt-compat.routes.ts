/**
 * The endpoints CCXT's `binance` class calls while loading markets (issue 15, docs/binance-api.md "Using it with
 * CCXT"), so that it works with only its URLs changed: with a key set, `loadMarkets` also asks for the coins
 * (GET /sapi/v1/capital/config/getall, fetchCurrencies) and the margin pairs (GET /sapi/v1/margin/allPairs and
 * /sapi/v1/margin/isolated/allPairs, option fetchMargins on by default). We have no margin trading: those answer
 * empty lists. (The COIN-M exchangeInfo CCXT also loads, /dapi/v1/exchangeInfo, is in futures.routes.ts.) The
 * coins are the engine's assets with the caller's SPOT balances; deposits and withdrawals go through the app (no
 * network list, both "disabled" here).
 * Binance: https://developers.binance.com/docs/wallet/capital/all-coins-info,
 * https://developers.binance.com/docs/margin_trading/market-data/Get-All-Cross-Margin-Pairs.
 */
import type { FastifyPluginAsync } from 'fastify';
import { formatDecimal } from '@exchange/core';
import { callerOf } from './binance.auth';

const ccxtCompatRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;

  app.get('/sapi/v1/capital/config/getall', { config: { binance: { weight: 10, security: 'USER_DATA' } } }, async (req) => {
    const { userId } = callerOf(req);
    return ctx.host.engine.assets().map((a) => {
      const b = ctx.host.engine.balance(userId, 'SPOT', a.code);
      return {
        coin: a.code,
        name: a.code,
        free: formatDecimal(b.available, a.scale),
        locked: formatDecimal(b.frozen, a.scale),
        freeze: '0',
        withdrawing: '0',
        ipoing: '0',
        ipoable: '0',
        storage: '0',
        isLegalMoney: false,
        trading: true,
        depositAllEnable: false,
        withdrawAllEnable: false,
        networkList: [],
      };
    });
  });

  app.get('/sapi/v1/margin/allPairs', { config: { binance: { weight: 1, security: 'MARKET_DATA' } } }, async () => []);
  app.get('/sapi/v1/margin/isolated/allPairs', { config: { binance: { weight: 10, security: 'USER_DATA' } } }, async () => []);
};

export default ccxtCompatRoutes;
