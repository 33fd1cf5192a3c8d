/**
 * Binance symbols and our markets (issue 15): Binance names a market by base and quote run together ("BTCUSDT"),
 * we by "BTC/USDT". Spot (/api/v3, spot streams) and the USDT perpetuals (/fapi, futures streams) are separate
 * namespaces, as on Binance: "BTCUSDT" under /api/v3 is the spot market BTC/USDT, under /fapi the perpetual.
 */
import type { MarketConfig, PerpMarketConfig } from '@exchange/core';
import type { EnginePort } from '../../engine-port/engine-port';
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
