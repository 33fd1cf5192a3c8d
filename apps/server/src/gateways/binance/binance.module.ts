/** The binance module (platform/domain-module.ts): the Binance-compatible API: /api/v3, /fapi, the streams and the WebSocket API. */
import type { AppContext, DomainModule } from '../../platform/domain-module';
import binanceRoutes, { type BinanceRoutesDeps } from './binance.routes';

export const binanceModule: DomainModule<BinanceRoutesDeps> = {
  name: 'binance',
  routes: (ctx) => [
    binanceRoutes({
      config: ctx.config,
      clock: ctx.clock,
      db: ctx.db,
      host: ctx.host,
      apiKeys: ctx.apiKeys,
      marketData: ctx.marketData,
      spot: ctx.spot,
      chain: ctx.chain,
      wallet: ctx.wallet,
      perp: ctx.perp,
      perpMarket: ctx.perpMarket,
      indexComponents: ctx.indexComponents,
    }),
  ],
};
export default binanceModule satisfies DomainModule<AppContext>;
