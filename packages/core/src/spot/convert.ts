/**
 * Convert (route /exchange): one coin to another through one spot market, as a MARKET IOC order of the
 * user's SPOT account, with a guaranteed amount. The server quotes with `previewConvert` (the same walk of the book the
 * order will take, fees included) and guarantees that amount for 10 seconds; the engine's `convert` command previews
 * again at its own time and refuses (convert_slippage, nothing changes) when the user would receive less than
 * `minReceive`, so the guard and the order are one atomic command.
 *
 * Two directions on a market BASE/QUOTE:
 * - SELL: `amount` base units are sold (a MARKET SELL by quantity; the amount must be whole steps of the market);
 *   the user receives quote units minus the taker fee of each fill;
 * - BUY: `amount` quote units are spent (a MARKET BUY by quote amount, Binance quoteOrderQty); the user receives base
 *   units minus the taker fee of each fill (what a step cannot buy stays with the user).
 * Fees are the market's taker fee, charged in the received asset and rounded up per fill, exactly as matching does
 * (spot-market.ts `fill`); self-trade prevention EXPIRE_TAKER stops at the user's own resting order, as matching does.
 */
import type { Side } from '../types';
import type { SpotMarket } from './spot-market';

/** What a convert would do now: amounts in asset units. */
export interface ConvertPreview {
  /** what leaves the user (base units for SELL, quote units for BUY) */
  spent: bigint;
  /** what the user receives, the fee already taken off */
  receive: bigint;
  /** the taker fee (units of the received asset) */
  fee: bigint;
  /** filled base quantity (qty units) and its quote value (quote units) */
  filledQty: bigint;
  filledQuote: bigint;
  /**
   * True when the whole amount is used: SELL sold all of it; BUY stopped because what is left cannot buy one more
   * step (not because the book ran out or the user's own order stopped it).
   */
  complete: boolean;
}

function feeUp(amount: bigint, ppm: bigint): bigint {
  return ppm === 0n ? 0n : (amount * ppm + 999_999n) / 1_000_000n;
}

/**
 * The outcome of a convert of `amount` on `m` by `userId` in direction `side`, against the book as it is (nothing
 * changes). For SELL `amount` must be a whole number of steps in base units (else the result is all zero).
 */
export function previewConvert(m: SpotMarket, side: Side, userId: string, amount: bigint): ConvertPreview {
  const book = m.book;
  const nm = m.notionalMult;
  const step = m.config.stepSize;
  const fee = m.takerFeePpm;
  let filledQty = 0n;
  let filledQuote = 0n;
  let receive = 0n;
  let paid = 0n;
  if (side === 'SELL') {
    const unit = m.baseMult * step;
    if (amount <= 0n || amount % unit !== 0n) return { spent: 0n, receive: 0n, fee: 0n, filledQty: 0n, filledQuote: 0n, complete: false };
    let left = amount / m.baseMult;
    for (let o = book.best('BUY'); o !== undefined && left > 0n; o = book.after(o)) {
      if (o.userId === userId) break;
      const p = o.price as bigint;
      const q = left < o.remaining ? left : o.remaining;
      const quote = p * q * nm;
      const f = feeUp(quote, fee);
      receive += quote - f;
      paid += f;
      filledQty += q;
      filledQuote += quote;
      left -= q;
    }
    return { spent: filledQty * m.baseMult, receive, fee: paid, filledQty, filledQuote, complete: left === 0n };
  }
  let hold = amount;
  let complete = false;
  for (let o = book.best('SELL'); o !== undefined; o = book.after(o)) {
    const p = o.price as bigint;
    const a = hold / (p * nm);
    let q = a - (a % step);
    if (q === 0n) {
      complete = true;
      break;
    }
    if (q > o.remaining) q = o.remaining;
    if (o.userId === userId) break;
    const quote = p * q * nm;
    const base = q * m.baseMult;
    const f = feeUp(base, fee);
    receive += base - f;
    paid += f;
    filledQty += q;
    filledQuote += quote;
    hold -= quote;
    if (q < o.remaining) {
      complete = true;
      break;
    }
  }
  return { spent: filledQuote, receive, fee: paid, filledQty, filledQuote, complete };
}
