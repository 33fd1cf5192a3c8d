/**
 * The conditional order part of the contract order form, pure: the three types of Binance's futures form (Stop-limit,
 * Stop-market, Trailing stop), their checks before sending, and the body of placeConditionalOrder. As in Binance's
 * form, "Stop" is one choice for stop loss and take profit: the side and where the trigger lies from the working price
 * decide (a BUY triggered above the price is a STOP, below it a TAKE_PROFIT; a SELL the reverse). The server checks
 * everything again (docs/perp-conditional-orders.md).
 */
import type { ContractConditionalType, ContractWorkingType } from '@exchange/api';
import { compareDecimal, formatDecimal } from '@exchange/money';
import { rulesUnits, toUnits, isCompleteDecimal, parseLots, type ContractRules, type PositionSide } from './contract-form';

/** The conditional choices of the form's type selector. */
export type ConditionalKind = 'STOP_LIMIT' | 'STOP_MARKET' | 'TRAILING_STOP';
/** Every choice of the type selector (Binance: Limit | Market | Stop Limit | Stop Market | Trailing Stop). */
export type OrderKind = 'LIMIT' | 'MARKET' | ConditionalKind;

/** True for the conditional choices. */
export function isConditionalKind(k: OrderKind): k is ConditionalKind {
  return k === 'STOP_LIMIT' || k === 'STOP_MARKET' || k === 'TRAILING_STOP';
}

/** What the user entered for a conditional order. */
export interface ConditionalValues {
  kind: ConditionalKind;
  /** LONG = BUY, SHORT = SELL */
  side: PositionSide;
  /** trigger price (not for a trailing stop) */
  stopPrice: string;
  /** limit price (stop-limit) */
  price: string;
  /** whole lots (not with closePosition) */
  lots: string;
  workingType: ContractWorkingType;
  reduceOnly: boolean;
  /** stop-market only: close the whole position at the trigger */
  closePosition: boolean;
  /** trailing stop: percent 0.1..10 */
  callbackRate: string;
  /** trailing stop: optional activation price */
  activationPrice: string;
}

/** Reasons the form refuses a conditional order before sending (each has a message contract:cond.err.<code>). */
export type ConditionalError =
  | 'stop_price_required'
  | 'stop_price_not_on_tick'
  | 'stop_price_at_market'
  | 'price_required'
  | 'price_not_on_tick'
  | 'lots_required'
  | 'callback_rate_invalid'
  | 'activation_not_on_tick';

/** Binance's callback rate rule: a percent 0.1..10 in steps of 0.1 ("1", "0.5", "2.0"); exact, no floating point. */
export function isCallbackRate(v: string): boolean {
  // The field's shape: one or two whole digits, then optionally a point and digits (no sign, exponent or bare point).
  if (!/^\d{1,2}(\.\d+)?$/.test(v)) return false;
  const tenths = toUnits(v, 1);
  if (tenths === null) return false; // longer than the one parser reads (64 characters)
  // On the 0.1 step when cutting it to tenths loses nothing ("2.50" is, "1.25" is not).
  return tenths >= 1n && tenths <= 100n && compareDecimal(formatDecimal(tenths, 1), v) === 0;
}

/**
 * The order type sent for a choice: stop-limit and stop-market become STOP_* when the trigger lies against the side
 * (BUY above the working price, SELL below it) and TAKE_PROFIT_* otherwise; with no working price yet, STOP_*.
 */
export function conditionalType(
  kind: ConditionalKind,
  side: PositionSide,
  stopPrice: string,
  workingPrice: string,
  priceDecimals: number,
): ContractConditionalType {
  if (kind === 'TRAILING_STOP') return 'TRAILING_STOP';
  const stop = toUnits(stopPrice, priceDecimals);
  const ref = workingPrice ? toUnits(workingPrice, priceDecimals) : null;
  const takeProfit = stop !== null && ref !== null && ref > 0n && (side === 'LONG' ? stop < ref : stop > ref);
  if (kind === 'STOP_LIMIT') return takeProfit ? 'TAKE_PROFIT_LIMIT' : 'STOP_LIMIT';
  return takeProfit ? 'TAKE_PROFIT_MARKET' : 'STOP_MARKET';
}

/** A price field's check: '' or not a positive decimal -> `required`, off the tick -> `offTick`, else null. */
function priceCheck<E>(v: string, rules: ContractRules, required: E, offTick: E): E | null {
  if (!isCompleteDecimal(v) || (toUnits(v, rules.priceDecimals) ?? 0n) <= 0n) return required;
  const decimals = (v.split('.')[1] ?? '').length;
  if (decimals > rules.priceDecimals || toUnits(v, rules.priceDecimals)! % rulesUnits(rules).tick !== 0n) return offTick;
  return null;
}

/**
 * The first reason to refuse `v` before sending, or null: the trigger price (entered, on the tick, not equal to the
 * working price: it would trigger at once, Binance -2021), the limit price, the lots, the callback rate and activation
 * price of a trailing stop.
 */
export function validateConditional(v: ConditionalValues, rules: ContractRules, workingPrice: string): ConditionalError | null {
  if (v.kind !== 'TRAILING_STOP') {
    const e = priceCheck(v.stopPrice, rules, 'stop_price_required' as const, 'stop_price_not_on_tick' as const);
    if (e) return e;
    const ref = workingPrice ? toUnits(workingPrice, rules.priceDecimals) : null;
    if (ref !== null && ref === toUnits(v.stopPrice, rules.priceDecimals)) return 'stop_price_at_market';
  }
  if (v.kind === 'STOP_LIMIT') {
    const e = priceCheck(v.price, rules, 'price_required' as const, 'price_not_on_tick' as const);
    if (e) return e;
  }
  if (v.kind === 'TRAILING_STOP') {
    if (!isCallbackRate(v.callbackRate)) return 'callback_rate_invalid';
    if (v.activationPrice !== '' && priceCheck(v.activationPrice, rules, 'activation_not_on_tick' as const, 'activation_not_on_tick' as const))
      return 'activation_not_on_tick';
  }
  const closing = v.kind === 'STOP_MARKET' && v.closePosition;
  if (!closing && (parseLots(v.lots) ?? 0n) <= 0n) return 'lots_required';
  return null;
}

/** The working price the trigger is compared with: the mark price (MARK_PRICE) or the last price (CONTRACT_PRICE; the mark before the first trade). */
export function workingPriceOf(workingType: ContractWorkingType, market: { markPrice: string; lastPrice: string }): string {
  return workingType === 'MARK_PRICE' ? market.markPrice : market.lastPrice || market.markPrice;
}

/** The body of placeConditionalOrder for `v` (booleans as "true"; close position sends no lots and no reduce-only). */
export function conditionalBody(symbol: string, v: ConditionalValues, workingPrice: string, rules: ContractRules): Record<string, string> {
  const type = conditionalType(v.kind, v.side, v.stopPrice, workingPrice, rules.priceDecimals);
  const closing = v.kind === 'STOP_MARKET' && v.closePosition;
  const body: Record<string, string> = { symbol, side: v.side === 'LONG' ? 'BUY' : 'SELL', type, workingType: v.workingType };
  if (v.kind === 'TRAILING_STOP') {
    body.callbackRate = v.callbackRate;
    if (v.activationPrice) body.activationPrice = v.activationPrice;
  } else body.stopPrice = v.stopPrice;
  if (v.kind === 'STOP_LIMIT') body.price = v.price;
  if (closing) body.closePosition = 'true';
  else {
    body.lots = String(parseLots(v.lots) ?? 0n);
    if (v.reduceOnly) body.reduceOnly = 'true';
  }
  return body;
}
