/**
 * Price impact of a market order, estimated before it is sent (Binance's slippage warning): the
 * order walks the visible order book the screen holds (asks for a BUY, bids for a SELL, best first), taking
 * whole levels until its amount (base) or its total (quote, a market BUY by total) is used up; the estimate is
 * its average fill price against the best price. Exact decimal arithmetic on bigint units (@exchange/money:
 * parseDec in, formatDecimal out), no floating point; the impact percent is rounded up so a shown "1.00%" never hides more.
 */
import { divDecimal, formatDecimal, isDecimal, parseDec, pow10, rescale, type Dec } from '@exchange/money';
import type { Side } from './order-form';

/** Binance warns before a market order that would move the price more than this percent. */
export const PRICE_IMPACT_WARN_PCT = '1';

/** One book level: [price, quantity] as decimal strings. */
export type BookLevel = readonly [string, string];

/** What the market order is. */
export interface ImpactOrder {
  side: Side;
  /** Base quantity to trade (LIMIT-less market order by amount); ignored when `total` is given. */
  amount?: string;
  /** Quote amount to spend: a market BUY by total (Binance quoteOrderQty). */
  total?: string;
  /** The market's quantity step: a level taken in part by a total is taken in whole steps, as the engine fills. */
  stepSize: string;
}

/** The estimate; decimals are exact strings unless said otherwise. */
export interface PriceImpact {
  /** Best price on the side the order takes from. */
  bestPrice: string;
  /** Base quantity the visible book would fill. */
  filledQty: string;
  /** Quote amount of those fills (sum of price x quantity). */
  filledQuote: string;
  /** filledQuote / filledQty at `priceDecimals` (rounded half away from zero); '' when nothing would fill. */
  avgPrice: string;
  /** |avgPrice - bestPrice| / bestPrice in percent, 2 decimals, rounded up; '0.00' when nothing would fill. */
  impactPct: string;
  /** True when the impact is above `maxPct` (exact comparison, not of the rounded percent). */
  exceeds: boolean;
  /** True when the visible book holds enough for the whole order (else the rest would expire unfilled). */
  complete: boolean;
  /** Price of the last (worst) level the order reaches. */
  worstPrice: string;
}

/** A Dec as units at `scale` (exact: only ever scaled up here). */
const at = (d: Dec, scale: number): bigint => rescale(d, scale).units;

/**
 * Walks `levels` (the opposite side, best first) with `order`; null when the book is empty or the order has no
 * positive decimal size (nothing to estimate). `maxPct` is the warning threshold in percent; `priceDecimals` the market's.
 */
export function estimatePriceImpact(
  levels: readonly BookLevel[],
  order: ImpactOrder,
  priceDecimals: number,
  maxPct: string = PRICE_IMPACT_WARN_PCT,
): PriceImpact | null {
  const book = levels.map(([p, q]) => [parseDec(p), parseDec(q)] as const).filter(([p, q]) => p.units > 0n && q.units > 0n);
  if (book.length === 0) return null;
  const byTotal = order.side === 'BUY' && order.total !== undefined && order.total !== '';
  const sizeText = byTotal ? order.total! : (order.amount ?? '');
  if (!isDecimal(sizeText)) return null;
  const size = parseDec(sizeText);
  if (size.units <= 0n) return null;
  // One scale for every price (ps) and every quantity (qs); quote = price x qty at ps + qs.
  const ps = Math.max(...book.map(([p]) => p.scale));
  const step = parseDec(order.stepSize);
  const qs = Math.max(...book.map(([, q]) => q.scale), step.scale, byTotal ? 0 : size.scale);
  const stepUnits = at(step, qs) > 0n ? at(step, qs) : 1n;
  const quoteScale = ps + qs;
  // What is left: a budget in quote units (by total, cut down to the quote scale) or a quantity in qty units.
  let left = byTotal ? rescale(size, quoteScale, 'down').units : at(size, qs);
  let qty = 0n;
  let quote = 0n;
  let worst = 0n;
  let complete = false;
  for (const [p, q] of book) {
    const price = at(p, ps);
    const levelQty = at(q, qs);
    // By total: the whole level if the budget pays for it, else the whole steps it pays for.
    const take = byTotal ? (left / price >= levelQty ? levelQty : (left / price / stepUnits) * stepUnits) : left < levelQty ? left : levelQty;
    if (take > 0n) {
      qty += take;
      quote += take * price;
      worst = price;
      left -= byTotal ? take * price : take;
    }
    if (take < levelQty || left === 0n) {
      complete = true; // the order is used up within the book
      break;
    }
  }
  // By total, a remainder too small for one more step at the last price paid is spent, not unfilled.
  if (!complete && byTotal && worst > 0n && left < worst * stepUnits) complete = true;
  const best = at(book[0]![0], ps);
  if (qty === 0n) {
    return {
      bestPrice: formatDecimal(best, ps),
      filledQty: formatDecimal(0n, qs),
      filledQuote: formatDecimal(0n, quoteScale),
      avgPrice: '',
      impactPct: '0.00',
      exceeds: false,
      complete,
      worstPrice: formatDecimal(best, ps),
    };
  }
  // |quote - best x qty| is the impact in quote units; as a percent of best x qty.
  const bestQuote = best * qty;
  const diff = quote > bestQuote ? quote - bestQuote : bestQuote - quote;
  const maxDec = parseDec(maxPct);
  // diff / bestQuote > maxPct / 100  <=>  diff x 100 x 10^maxScale > maxUnits x bestQuote
  const exceeds = diff * 100n * pow10(maxDec.scale) > maxDec.units * bestQuote;
  return {
    bestPrice: formatDecimal(best, ps),
    filledQty: formatDecimal(qty, qs),
    filledQuote: formatDecimal(quote, quoteScale),
    avgPrice: divDecimal(formatDecimal(quote, quoteScale), formatDecimal(qty, qs), priceDecimals, 'round'),
    impactPct: divDecimal(formatDecimal(diff * 100n, quoteScale), formatDecimal(bestQuote, quoteScale), 2, 'up'),
    exceeds,
    complete,
    worstPrice: formatDecimal(worst, ps),
  };
}
