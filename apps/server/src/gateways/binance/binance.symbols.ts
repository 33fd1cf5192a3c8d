/**
 * Binance symbols and our markets: Binance names a market by base and quote run together ("BTCUSDT"),
 * we by "BTC/USDT". Spot (/api/v3, spot streams) and the USDT perpetuals (/fapi, futures streams) are separate
 * namespaces, as on Binance: "BTCUSDT" under /api/v3 is the spot market BTC/USDT, under /fapi the perpetual.
 */
import type { KlinePeriod } from '@exchange/api';
import type { MarketConfig, PerpMarketConfig } from '@exchange/core';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { BX } from './binance.errors';

/** "BTC/USDT" -> "BTCUSDT". */
export function toBinanceSymbol(symbol: string): string {
  return symbol.replace('/', '');
}

/** The spot market Binance's `symbol` names (case-insensitive, as Binance accepts "btcusdt" in streams only), or undefined. */
export function findSpotMarket(host: EnginePort, symbol: string): MarketConfig | undefined {
  const wanted = symbol.toUpperCase();
  return host.engine.markets().find((m) => toBinanceSymbol(m.symbol) === wanted);
}

/** The USDT perpetual Binance's `symbol` names, or undefined. */
export function findPerpMarket(host: EnginePort, symbol: string): PerpMarketConfig | undefined {
  const wanted = symbol.toUpperCase();
  return host.engine.perpMarkets().find((m) => toBinanceSymbol(m.symbol) === wanted);
}

/** The spot market of a REST `symbol` parameter; throws BinanceError -1121 (Invalid symbol.) when there is none. */
export function spotMarketOrThrow(host: EnginePort, symbol: string | undefined): MarketConfig {
  if (symbol === undefined || symbol === '') throw BX.mandatoryMissing('symbol');
  const m = findSpotMarket(host, symbol);
  if (!m) throw BX.invalidSymbol();
  return m;
}

/** The perpetual of a REST `symbol` parameter; throws BinanceError -1121 (Invalid symbol.) when there is none. */
export function perpMarketOrThrow(host: EnginePort, symbol: string | undefined): PerpMarketConfig {
  if (symbol === undefined || symbol === '') throw BX.mandatoryMissing('symbol');
  const m = findPerpMarket(host, symbol);
  if (!m) throw BX.invalidSymbol();
  return m;
}

/** Binance kline intervals our market data keeps, and our period of each (REST klines and the kline streams). */
export const KLINE_INTERVALS: Readonly<Record<string, KlinePeriod>> = {
  '1m': '1min',
  '5m': '5min',
  '15m': '15min',
  '30m': '30min',
  '1h': '1hour',
  '1d': '1day',
  '1w': '1week',
};

/** Our period of a Binance interval ("1m" -> "1min"), or undefined for one we do not keep (3m, 2h, 1M, "constructor"). */
export function klinePeriod(interval: string): KlinePeriod | undefined {
  return Object.hasOwn(KLINE_INTERVALS, interval) ? KLINE_INTERVALS[interval] : undefined;
}
