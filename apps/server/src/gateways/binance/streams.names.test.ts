/**
 * Stream names (streams.names.ts) and the futures ticker's figures (streams.market.ts): a kline interval is looked up as an own key of the interval table, so a name such
 * as `btcusdt@kline_constructor` (an Object.prototype member) is no stream, rather than a kline stream whose period
 * is a function. The engine is a stub that knows one spot market.
 */
import { describe, expect, it } from 'vitest';
import type { MarketConfig } from '@exchange/core';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { ContractMarket } from '@exchange/api';
import { parseStream } from './streams.names';
import { futuresFigures } from './streams.market';

const btc = { symbol: 'BTC/USDT' } as MarketConfig;
const host = { engine: { markets: () => [btc], perpMarkets: () => [] } } as unknown as EnginePort;

describe('parseStream', () => {
  it('knows every kline interval the REST klines answer (kept or built from a kept one) and nothing inherited', () => {
    expect(parseStream('btcusdt@kline_1m', 'spot', host)).toMatchObject({
      kind: 'kline',
      period: '1min',
      interval: '1m',
      symbol: 'BTC/USDT',
      name: 'btcusdt@kline_1m',
    });
    expect(parseStream('btcusdt@kline_1w', 'spot', host)).toMatchObject({ kind: 'kline', period: '1week', interval: '1w' });
    for (const built of ['3m', '2h', '4h', '6h', '8h', '12h', '3d', '1M']) {
      const spec = parseStream(`btcusdt@kline_${built}`, 'spot', host);
      expect(spec, built).toMatchObject({ kind: 'kline', interval: built, name: `btcusdt@kline_${built}` });
      expect(spec?.period, built).toBeUndefined();
    }
    for (const bad of ['constructor', 'toString', '__proto__', 'hasOwnProperty', '1s', '2d', '1m ']) {
      expect(parseStream(`btcusdt@kline_${bad}`, 'spot', host), bad).toBeUndefined();
    }
  });
});

describe('futuresFigures', () => {
  it("takes the 24 h window's open as given, not worked back from the rounded change percent", () => {
    // 3000.00 -> 3001.00 is +0.0333...%, printed "0.03": worked back, the open would be 3001.00 / 1.0003 = 3000.10.
    const row = {
      lastPrice: '3001.00',
      markPrice: '3001.00',
      change24h: '0.03',
      high24h: '3001.00',
      low24h: '3000.00',
      volume24h: '1',
      quoteVolume24h: '3000',
      priceDecimals: 2,
    } as ContractMarket;
    expect(futuresFigures(row, 300_000n)).toMatchObject({ last: '3001.00', open: '3000.00', percent: '0.03' });
    expect(futuresFigures(row, null).open).toBe('');
  });
});

describe('parseStream: the all-market streams', () => {
  it('serves !ticker@arr and !miniTicker@arr in both namespaces, !bookTicker and !markPrice@arr on futures only', () => {
    expect(parseStream('!ticker@arr', 'spot', host)).toMatchObject({ kind: 'allTicker', intervalMs: 1000, symbol: '' });
    expect(parseStream('!miniTicker@arr', 'futures', host)).toMatchObject({ kind: 'allMiniTicker', intervalMs: 1000 });
    expect(parseStream('!bookTicker', 'futures', host)).toMatchObject({ kind: 'allBookTicker', intervalMs: 0 });
    expect(parseStream('!markPrice@arr@1s', 'futures', host)).toMatchObject({ kind: 'allMarkPrice', intervalMs: 1000 });
    for (const bad of ['!bookTicker', '!markPrice@arr', '!ticker_1h@arr', '!ticker@arr@1s', '!miniticker@arr', '!']) {
      expect(parseStream(bad, 'spot', host), bad).toBeUndefined();
    }
  });
});
