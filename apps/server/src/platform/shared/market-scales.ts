/**
 * What reading one market's integers needs, for every domain that shows orders and fills (spot, perpetuals, convert,
 * the inbox's fill messages, the Binance API): the scales of a spot market (`MarketScales`) and of a perpetual market
 * (`PerpScales`), their average fill prices (rounded down) and the values a spot order's rejection names. Prices are at
 * the market's priceDecimals, quantities at qtyDecimals, quote amounts at the quote (or settle) asset's scale.
 */
import { bracketTiers, perpNotionalMult, pow10, type Asset, type BracketTier, type MarketConfig, type PerpMarketConfig } from '@exchange/core';
import { plainDecimal } from './order-fields';

/** Scales needed to format one market's values. */
export interface MarketScales {
  market: MarketConfig;
  quoteScale: number;
  /** Scale of an asset by code (fee assets), 8 when the engine does not know it. */
  scaleOf(code: string): number;
}

/** Builds MarketScales from engine reads. */
export function marketScales(market: MarketConfig, asset: (code: string) => Asset | undefined): MarketScales {
  return {
    market,
    quoteScale: asset(market.quote)?.scale ?? 8,
    scaleOf: (code) => asset(code)?.scale ?? 8,
  };
}

/**
 * Average fill price in price units: filledQuote (quote units) / filledQty (qty units), rescaled by
 * 10^(priceDecimals + qtyDecimals - quoteScale), rounded down; null when nothing filled.
 */
export function averagePrice(filledQuote: bigint, filledQty: bigint, s: MarketScales): bigint | null {
  if (filledQty === 0n) return null;
  const shift = s.market.priceDecimals + s.market.qtyDecimals - s.quoteScale;
  return shift >= 0 ? (filledQuote * pow10(shift)) / filledQty : filledQuote / (filledQty * pow10(-shift));
}

/**
 * The values an order rejection names (packages/api messages.ts PARAM_SENTENCES): the market's minimum order
 * value or amount, its step or tick, with the coin; undefined for every other code.
 */
export function rejectParams(code: string, s: MarketScales): Record<string, string> | undefined {
  const { market, quoteScale } = s;
  switch (code) {
    case 'notional_below_minimum':
      return { min: plainDecimal(market.minNotional, quoteScale), coin: market.quote };
    case 'quantity_below_minimum':
      return { min: plainDecimal(market.minQty, market.qtyDecimals), coin: market.base };
    case 'quantity_not_on_step':
      return { step: plainDecimal(market.stepSize, market.qtyDecimals), coin: market.base };
    case 'price_not_on_tick':
      return { step: plainDecimal(market.tickSize, market.priceDecimals), coin: market.quote };
    default:
      return undefined;
  }
}

/** What formatting one perpetual market's values needs. */
export interface PerpScales {
  market: PerpMarketConfig;
  /** the settle asset's scale (USDT: 8) */
  scale: number;
  /** price * qty * mult = quote units */
  mult: bigint;
  tiers: BracketTier[];
}

/** Builds PerpScales of a market (settle scale from the engine's asset, 8 when unknown). */
export function perpScales(market: PerpMarketConfig, settleScale: number | undefined): PerpScales {
  const scale = settleScale ?? 8;
  return { market, scale, mult: perpNotionalMult(scale, market.priceDecimals, market.qtyDecimals), tiers: bracketTiers(market.brackets) };
}

/** Average price (price units, rounded down) of `quote` quote units over `qty`; null for qty 0. */
export function avgPriceOf(quote: bigint, qty: bigint, mult: bigint): bigint | null {
  if (qty <= 0n) return null;
  return quote / (qty * mult);
}
