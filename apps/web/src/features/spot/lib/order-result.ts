/**
 * What the user is told right after placing an order (as Binance does): whether the answer of
 * setEntrust (schemas.ts Entrust) is a fill to show at once or a resting order to acknowledge, and the outcome of
 * a fill: filled, partially filled with the rest open on the book, or partially filled (or not at all) with the
 * rest expired, and how much is left, exactly (decimal strings, no floats).
 */
import type { Entrust } from '@exchange/api';
import { compareDecimal, isDecimal, isZeroDecimal, subDecimal } from '../../../shared/format';

/** How an order placed just now ended up. */
export type OrderOutcome =
  /** Filled in full. */
  | 'filled'
  /** Partly filled; the rest rests on the book (a limit order). */
  | 'partial_open'
  /** Partly filled; the rest expired (a market or IOC order the book could not fill in full). */
  | 'partial_expired'
  /** Nothing filled and nothing rests (the book had nothing at the order's price). */
  | 'expired';

/** The outcome of an order and what is left of it. */
export interface OrderResult {
  outcome: OrderOutcome;
  /** The part not filled, '' when none: base quantity, or quote amount for a market BUY by total. */
  remaining: string;
  /** Coin of `remaining`: the pair's base coin, or its quote coin for a market BUY by total. */
  remainingCur: string;
}

const positive = (v: string) => isDecimal(v) && !isZeroDecimal(v);

/**
 * The result to show for `order` just placed, or null when there is nothing to show but "Order placed" (a limit
 * order resting on the book without a fill, or an answer without a status).
 */
export function orderResult(order: Partial<Entrust>): OrderResult | null {
  const { status, pairsName = '', dealAmount = '', dealTotal = '', amount = '', total = '' } = order;
  if (!status) return null;
  const filled = positive(dealAmount);
  if (!filled && status !== 'EXPIRED') return null;
  const [base = '', quote = ''] = pairsName.split('/');
  const byTotal = !positive(amount) && positive(total);
  const left = byTotal ? (isDecimal(dealTotal) ? subDecimal(total, dealTotal) : total) : isDecimal(amount) ? subDecimal(amount, dealAmount || '0') : '';
  const remaining = left !== '' && compareDecimal(left, '0') > 0 ? left : '';
  const remainingCur = byTotal ? quote : base;
  if (status === 'FILLED') return { outcome: 'filled', remaining: '', remainingCur };
  if (status === 'PARTIALLY_FILLED' || status === 'NEW') return { outcome: 'partial_open', remaining, remainingCur };
  return { outcome: filled ? 'partial_expired' : 'expired', remaining, remainingCur };
}
