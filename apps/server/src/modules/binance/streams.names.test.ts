/**
 * Stream names (streams.names.ts): a kline interval is looked up as an own key of the interval table, so a name such
 * as `btcusdt@kline_constructor` (an Object.prototype member) is no stream, rather than a kline stream whose period
 * is a function. The engine is a stub that knows one spot market.
 */
import { describe, expect, it } from 'vitest';
import type { MarketConfig } from '@exchange/core';
import type { EnginePort } from '../../engine-port/engine-port';
import { parseStream } from './streams.names';

const btc = { symbol: 'BTC/USDT' } as MarketConfig;
const host = { engine: { markets: () => [btc], perpMarkets: () => [] } } as unknown as EnginePort;

describe('parseStream', () => {
  it('knows the kline intervals we keep and nothing inherited', () => {
    expect(parseStream('btcusdt@kline_1m', 'spot', host)).toMatchObject({ kind: 'kline', period: '1min', symbol: 'BTC/USDT', name: 'btcusdt@kline_1m' });
    expect(parseStream('btcusdt@kline_1w', 'spot', host)).toMatchObject({ kind: 'kline', period: '1week' });
    for (const bad of ['constructor', 'toString', '__proto__', 'hasOwnProperty', '3m', '1M']) {
      expect(parseStream(`btcusdt@kline_${bad}`, 'spot', host), bad).toBeUndefined();
    }
  });
});
