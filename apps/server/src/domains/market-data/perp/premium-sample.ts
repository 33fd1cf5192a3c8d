/**
 * The premium index sample of a mark price tick, as the engine takes it for the funding rate (packages/core
 * perp/perp-liquidation.ts, Binance "Introduction to Funding Rates"): the impact bid and ask prices, the average fill
 * prices of the market's impact notional sold into the bids and bought from the asks, against the index price,
 * `premiumIndexE8` of the core. The engine keeps only the weighted sum of its samples; this recomputes one sample from
 * the book the engine sampled, exactly (the same integers and the same rounding), so the premium index bars hold the
 * engine's own samples and nothing estimated.
 *
 * Units: prices bigint price units (10^-priceDecimals quote), quantities qty units, the impact notional and the walked
 * quote in settle asset units (10^-settleScale), the premium an E8 fraction (1e8 = 100%).
 */
import { perpNotionalMult, premiumIndexE8, type PerpMarketConfig } from '@exchange/core';

/** One side of a book, best level first (the engine's perpDepth rows). */
export type BookSide = ReadonlyArray<{ price: bigint; quantity: bigint }>;

/** The impact walk of one side: the quote and quantity filled, and whether the impact notional was reached. */
interface ImpactFill {
  quote: bigint;
  qty: bigint;
  full: boolean;
}

/**
 * Walks `levels` until `impactNotional` (settle units) is filled: every level whole while it stays under it, then the
 * part of the completing level that reaches it, rounded up to a whole qty unit, as the engine walks its orders (all
 * orders of a level share its price, so walking levels gives the same sums).
 */
function impactFill(levels: BookSide, impactNotional: bigint, mult: bigint): ImpactFill {
  let quote = 0n;
  let qty = 0n;
  for (const l of levels) {
    const unit = l.price * mult;
    const lvl = unit * l.quantity;
    if (quote + lvl >= impactNotional) {
      const need = (impactNotional - quote + unit - 1n) / unit;
      return { quote: quote + need * unit, qty: qty + need, full: true };
    }
    quote += lvl;
    qty += l.quantity;
  }
  return { quote, qty, full: false };
}

/**
 * The premium sample (E8 fraction) of market `cfg` at index price `index` over the book `bids` / `asks` (best first,
 * the whole side or at least enough levels to fill the impact notional). `settleScale` is the settle asset's scale
 * (USDT: 8). A side that cannot fill the impact notional contributes 0, as in the engine.
 */
export function premiumSampleE8(cfg: PerpMarketConfig, settleScale: number, index: bigint, bids: BookSide, asks: BookSide): bigint {
  const mult = perpNotionalMult(settleScale, cfg.priceDecimals, cfg.qtyDecimals);
  const ib = impactFill(bids, cfg.impactNotional, mult);
  const ia = impactFill(asks, cfg.impactNotional, mult);
  return premiumIndexE8(index, ib.quote, ib.qty, ia.quote, ia.qty, mult, { bid: ib.full, ask: ia.full });
}

/** Levels read at first; a side that has this many and does not fill the impact notional is read again, deeper. */
const FIRST_LEVELS = 200;

/**
 * The premium sample of `cfg` over the engine's current book (`depth(symbol, levels)`, the engine's perpDepth), read
 * deep enough that each side either fills the impact notional or is whole.
 */
export function premiumSampleOfBook(
  cfg: PerpMarketConfig,
  settleScale: number,
  index: bigint,
  depth: (symbol: string, levels: number) => { bids: BookSide; asks: BookSide },
): bigint {
  const mult = perpNotionalMult(settleScale, cfg.priceDecimals, cfg.qtyDecimals);
  let levels = FIRST_LEVELS;
  for (;;) {
    const d = depth(cfg.symbol, levels);
    const cut = (side: BookSide) => side.length >= levels && !impactFill(side, cfg.impactNotional, mult).full;
    if (!cut(d.bids) && !cut(d.asks)) return premiumSampleE8(cfg, settleScale, index, d.bids, d.asks);
    levels *= 4;
  }
}
