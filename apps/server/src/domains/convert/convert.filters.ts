/**
 * The spot market filters a convert's order meets, known before the user confirms. A convert is a MARKET IOC order
 * (packages/core spot/convert.ts); the engine's placeOrder (spot/spot-market.ts `place`) refuses it, in this order,
 * when the market is not TRADING (market_halted), a SELL quantity is not whole steps (quantity_not_on_step) or is
 * below the market's minimum quantity (quantity_below_minimum), a BUY's quote amount is below the minimum order value
 * or a SELL would fill below it at the book now (notional_below_minimum, the estimate walks every resting bid,
 * whoever placed it), the user already rests MAX_OPEN_ORDERS_PER_MARKET orders in the market (too_many_open_orders);
 * the engine first refuses a frozen account (account_frozen). The spot markets have no maximum quantity.
 *
 * The quote applies the same rules, so what it quotes its order takes (unless the book moves in the 10 seconds). The
 * two minimums become one figure in the coin paid, `minimumFrom`, that the convert screen shows before a quote and the
 * refusal names ("The minimum to convert is 5 USDT"):
 * - from the quote coin (BUY by quote amount): the minimum order value;
 * - from the base coin (SELL by quantity): the least whole number of steps whose sale into the bids, best first,
 *   reaches the minimum order value, and at least the minimum quantity. The value of a sale only grows with its
 *   quantity, so an amount of whole steps passes both filters exactly when it is at least this figure.
 */
import type { DepthLevel, MarketConfig } from '@exchange/core';

/** A market with its unit multipliers: asset units per qty unit (base) and quote units per price unit x qty unit. */
export interface ConvertMarket {
  config: MarketConfig;
  /** base asset units per qty unit: 10^(base scale - qtyDecimals) */
  baseMult: bigint;
  /** quote asset units per (price unit x qty unit): 10^(quote scale - priceDecimals - qtyDecimals) */
  notionalMult: bigint;
}

/** The market of `config` with its multipliers from the assets' scales (decimals of one unit). */
export function convertMarket(config: MarketConfig, baseScale: number, quoteScale: number): ConvertMarket {
  return {
    config,
    baseMult: 10n ** BigInt(baseScale - config.qtyDecimals),
    notionalMult: 10n ** BigInt(quoteScale - config.priceDecimals - config.qtyDecimals),
  };
}

/**
 * The least amount of the coin paid (its asset units) that the order filters of `m` accept now, given the bids best
 * first (`bids`, price and quantity units; only a SELL reads them): the minimum order value for a BUY (from the quote
 * coin), else the least whole steps that sell for the minimum order value and at least the minimum quantity, or null
 * when all of `bids` together cannot reach the minimum order value.
 */
export function minimumFrom(m: ConvertMarket, side: 'BUY' | 'SELL', bids: readonly DepthLevel[]): bigint | null {
  const c = m.config;
  if (side === 'BUY') return c.minNotional;
  let left = c.minNotional;
  let qty = 0n;
  for (const level of bids) {
    if (left <= 0n) break;
    const perQty = level.price * m.notionalMult;
    if (perQty <= 0n) continue;
    const need = (left + perQty - 1n) / perQty;
    if (need <= level.quantity) {
      qty += need;
      left = 0n;
    } else {
      qty += level.quantity;
      left -= level.quantity * perQty;
    }
  }
  if (left > 0n) return null;
  const step = c.stepSize > 0n ? c.stepSize : 1n;
  let steps = ((qty + step - 1n) / step) * step;
  if (steps < c.minQty) steps = ((c.minQty + step - 1n) / step) * step;
  if (steps <= 0n) steps = step;
  return steps * m.baseMult;
}
