/** The binance module (platform/domain-module.ts): the Binance-compatible API: /api/v3, /fapi, the streams and the WebSocket API. */
import type { DomainModule } from '../../platform/domain-module';
import binanceRoutes from './binance.routes';

export const binanceModule: DomainModule<unknown> = {
  name: 'binance',
  routes: [binanceRoutes],
};
