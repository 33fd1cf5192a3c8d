/**
 * Pure rules of the spot form's conditional orders (Binance app's Stop-limit, Stop-market and Trailing stop), as the
 * engine takes them (docs/conditional-orders.md; Binance spot `POST /api/v3/order` types STOP_LOSS(_LIMIT) and
 * TAKE_PROFIT(_LIMIT), and Binance's trailing stop FAQ): the kind derived from the side and the trigger price against
 * the last price, the trigger condition shown to the user, the trailing delta typed as a percentage and sent as BIPS,
 * validation before sending (then the limit/market rules of lib/order-form) and the setEntrust body. Every value is a
 * decimal string handled with exact BigInt arithmetic (shared/format); nothing here uses floating point.
 */
import type { Entrust } from '@exchange/api';
import { compareDecimal, decToString, isZeroDecimal, parseDec, rescale, trimZeros } from '../../../shared/format';
import {
  entrustBody,
  isCompleteDecimal,
  isOnStep,
  orderFormMessage,
  validateOrder,
  type MarketRules,
  type OrderFormError,
  type OrderFormValues,
  type Side,
} from './order-form';

/**
 * The order types of the form (Binance app's Limit, Market, Stop-limit, Stop-market, Trailing stop, OCO): STOP_LIMIT,
 * STOP_MARKET and TRAILING are conditional; OCO is a list of two orders with its own rules (lib/oco-order).
 */
export type FormOrderType = 'LIMIT' | 'MARKET' | 'STOP_LIMIT' | 'STOP_MARKET' | 'TRAILING' | 'OCO';
/**
 * The tabs of the form's order type selector: Limit, Market, Stop (Binance zh 止盈止损: stop-limit or stop-market, by the
 * "order when triggered" toggle under the trigger price), Trailing stop (limit or market by the same toggle) and OCO.
 */
export type TypeTab = 'LIMIT' | 'MARKET' | 'STOP' | 'TRAILING' | 'OCO';
/** The selector's tabs in order. */
export const TYPE_TABS: readonly TypeTab[] = ['LIMIT', 'MARKET', 'STOP', 'TRAILING', 'OCO'];

/** The tab a form type is under. */
export function typeTabOf(t: FormOrderType): TypeTab {
  return t === 'STOP_LIMIT' || t === 'STOP_MARKET' ? 'STOP' : t;
}

/**
 * The form's type and trailing execution after choosing `exec` on the "order when triggered" toggle of a stop or
 * trailing form: a stop becomes STOP_LIMIT or STOP_MARKET; a trailing stop keeps its type and takes `exec`.
 */
export function withExec(formType: FormOrderType, trailingExec: TrailingExec, exec: TrailingExec): { formType: FormOrderType; trailingExec: TrailingExec } {
  if (formType === 'STOP_LIMIT' || formType === 'STOP_MARKET') return { formType: exec === 'LIMIT' ? 'STOP_LIMIT' : 'STOP_MARKET', trailingExec };
  if (formType === 'TRAILING') return { formType, trailingExec: exec };
  return { formType, trailingExec };
}

/** A conditional order's kind (SetEntrustBody.stopType; Binance STOP_LOSS* / TAKE_PROFIT* types). */
export type StopType = 'STOP_LOSS' | 'TAKE_PROFIT';
/** What a trailing stop becomes when triggered: a LIMIT at the given price or a MARKET order. */
export type TrailingExec = 'LIMIT' | 'MARKET';

/** Trailing delta bounds in BIPS (the engine's and Binance's common TRAILING_DELTA filter: 10..2000 = 0.1%..20%). */
export const TRAILING_DELTA_MIN_BIPS = 10n;
export const TRAILING_DELTA_MAX_BIPS = 2000n;

/** The conditional part of the form, as typed ('' when empty). */
export interface ConditionalFields {
  /** Trigger price (stop-limit, stop-market) or the optional activation price (trailing), quote units. */
  stopPrice: string;
  /** Trailing delta in percent, at most two decimals ("1.5" = 1.5% = 150 BIPS). */
  trailingPct: string;
  /** What a trailing stop becomes when triggered. */
  trailingExec: TrailingExec;
}

/** True for the three conditional types. */
export function isConditionalType(t: FormOrderType): boolean {
  return t === 'STOP_LIMIT' || t === 'STOP_MARKET' || t === 'TRAILING';
}

/** The order a form type places (or becomes when triggered): SetEntrustBody.orderType. */
export function executionType(t: FormOrderType, trailingExec: TrailingExec): 'LIMIT' | 'MARKET' {
  if (t === 'LIMIT' || t === 'STOP_LIMIT' || t === 'OCO') return 'LIMIT';
  if (t === 'TRAILING') return trailingExec;
  return 'MARKET';
}

const decimalsIn = (s: string) => (s.split('.')[1] ?? '').length;
const positive = (v: string) => isCompleteDecimal(v) && !isZeroDecimal(v);

/**
 * The kind of a conditional order as Binance's app derives it from the side and the trigger price against the last
 * price: a SELL triggering below the last price is a STOP_LOSS, above it a TAKE_PROFIT; a BUY mirrors (above =
 * STOP_LOSS, below = TAKE_PROFIT). Null when the trigger equals the last price (the engine refuses it:
 * would_trigger_immediately). Without a trigger price (a trailing stop without activation price) or without a last
 * price (a market with no trade yet, where the engine refuses nothing this way) the kind is STOP_LOSS: the order then
 * triggers on the side's adverse move, which is what such an order means.
 */
export function deriveStopType(side: Side, stopPrice: string, lastPrice: string): StopType | null {
  if (!positive(stopPrice) || !positive(lastPrice)) return 'STOP_LOSS';
  const c = compareDecimal(stopPrice, lastPrice);
  if (c === 0) return null;
  const below = c < 0;
  if (side === 'SELL') return below ? 'STOP_LOSS' : 'TAKE_PROFIT';
  return below ? 'TAKE_PROFIT' : 'STOP_LOSS';
}

/**
 * The comparison that triggers an order of `stopType` and `side` (docs/conditional-orders.md, trigger conditions):
 * '<=' when the order triggers once the last price is at or below the stop price (SELL STOP_LOSS, BUY TAKE_PROFIT),
 * '>=' otherwise (SELL TAKE_PROFIT, BUY STOP_LOSS).
 */
export function triggerCondition(stopType: StopType, side: Side): '<=' | '>=' {
  return (stopType === 'STOP_LOSS') === (side === 'SELL') ? '<=' : '>=';
}

/** The condition as shown ("≤", "≥"). */
export function conditionSign(stopType: StopType, side: Side): '≤' | '≥' {
  return triggerCondition(stopType, side) === '<=' ? '≤' : '≥';
}

/**
 * A trailing delta typed in percent -> BIPS as an integer string ("1.5" -> "150", "0.1" -> "10"); null when the text is
 * not a complete decimal or has more than two decimals (1 BIPS = 0.01%, the finest delta).
 */
export function pctToBips(pct: string): string | null {
  if (!isCompleteDecimal(pct) || decimalsIn(pct) > 2) return null;
  return rescale(parseDec(pct), 2, 'down').units.toString();
}

/** BIPS (Entrust.trailingDelta, an integer) -> percent without trailing zeros: 150 -> "1.5", 2000 -> "20". */
export function bipsToPct(bips: number | string): string {
  return trimZeros(decToString({ units: BigInt(bips), scale: 2 }));
}

/** Reasons a conditional form is refused before sending, on top of the limit/market ones (lib/order-form). */
export type ConditionalFormError =
  | 'stop_price_required'
  | 'stop_price_not_on_tick'
  | 'would_trigger_immediately'
  | 'trailing_delta_required'
  | 'trailing_delta_out_of_range'
  | 'trailing_delta_not_on_step';

/** Any reason the form is refused. */
export type AnyFormError = OrderFormError | ConditionalFormError;

/** The whole form: the limit/market values (orderType is the execution type) plus the conditional fields. */
export interface ConditionalFormValues extends OrderFormValues, ConditionalFields {
  formType: FormOrderType;
}

/**
 * Checks a form of any type; null when it may be sent. Conditional fields come first, as the form shows them: the
 * trigger price (required for stop-limit and stop-market, optional activation price for a trailing stop; on the
 * tick; not equal to the last price), then the trailing delta (0.1%..20%, steps of 0.01%), then the rules of the
 * order it becomes (lib/order-form validateOrder: limit price, amount, minimums, balance as the engine holds it:
 * a BUY MARKET by amount at the last price).
 */
export function validateAnyOrder(form: ConditionalFormValues, rules: MarketRules, available: string, lastPrice: string): AnyFormError | null {
  const t = form.formType;
  if (isConditionalType(t)) {
    const needsStop = t !== 'TRAILING';
    if (form.stopPrice === '' ? needsStop : !positive(form.stopPrice)) return 'stop_price_required';
    if (form.stopPrice !== '') {
      if (decimalsIn(form.stopPrice) > rules.priceDecimals || !isOnStep(form.stopPrice, rules.tickSize)) return 'stop_price_not_on_tick';
      if (deriveStopType(form.side, form.stopPrice, lastPrice) === null) return 'would_trigger_immediately';
    }
    if (t === 'TRAILING') {
      if (form.trailingPct === '' || !isCompleteDecimal(form.trailingPct) || isZeroDecimal(form.trailingPct)) return 'trailing_delta_required';
      const bips = pctToBips(form.trailingPct);
      if (bips === null) return 'trailing_delta_not_on_step';
      const b = BigInt(bips);
      if (b < TRAILING_DELTA_MIN_BIPS || b > TRAILING_DELTA_MAX_BIPS) return 'trailing_delta_out_of_range';
    }
  }
  return validateOrder({ ...form, orderType: executionType(t, form.trailingExec) }, rules, available, lastPrice);
}

/** The form field a conditional error is shown under. */
export function conditionalErrorField(err: ConditionalFormError): 'stop' | 'trailing' {
  return err.startsWith('trailing') ? 'trailing' : 'stop';
}

/** True for the conditional form errors. */
export function isConditionalError(err: AnyFormError): err is ConditionalFormError {
  return err.startsWith('stop_') || err.startsWith('trailing_') || err === 'would_trigger_immediately';
}

/** The i18n key (spot namespace) and values of any form error's message (orderFormMessage for the others). */
export function anyFormMessage(err: AnyFormError, rules: MarketRules): { key: string; values: Record<string, string> } {
  if (!isConditionalError(err)) return orderFormMessage(err, rules);
  const key = `err.${err}`;
  if (err === 'stop_price_not_on_tick') return { key, values: { step: trimZeros(rules.tickSize), coin: rules.mainCur } };
  if (err === 'trailing_delta_out_of_range') return { key, values: { min: '0.1', max: '20' } };
  return { key, values: {} };
}

/**
 * Body of entrust/entrust/setEntrust (SetEntrustBody) for a valid form: the limit/market body (entrustBody) plus, for
 * a conditional type, `stopType` (deriveStopType against `lastPrice`), `stopPrice` when given and `trailingDelta`
 * (BIPS) for a trailing stop. Values are strings: the body is form-encoded.
 */
export function anyEntrustBody(pairsName: string, form: ConditionalFormValues, lastPrice: string, clientOrderId: string): Record<string, string> {
  const body = entrustBody(pairsName, { ...form, orderType: executionType(form.formType, form.trailingExec) }, clientOrderId);
  if (!isConditionalType(form.formType)) return body;
  body.stopType = deriveStopType(form.side, form.stopPrice, lastPrice) ?? 'STOP_LOSS';
  if (form.stopPrice !== '') body.stopPrice = form.stopPrice;
  if (form.formType === 'TRAILING') body.trailingDelta = pctToBips(form.trailingPct) ?? '';
  return body;
}

/**
 * An order's conditional fields (schemas.ts Entrust): stopType '' and stopPrice '' and trailingDelta 0 (BIPS) on a
 * plain order; triggerState NONE, PENDING, TRIGGERED or EXPIRED_AT_TRIGGER; workingTime (ms) 0 while pending;
 * expireReason '' or the engine's code (market_halted, notional_below_minimum, insufficient_balance, no_liquidity).
 */
export type ConditionalView = Pick<
  Entrust,
  'side' | 'orderType' | 'stopType' | 'stopPrice' | 'trailingDelta' | 'triggerState' | 'workingTime' | 'expireReason'
>;

/** The form type an order was placed as: its row in the selector (a plain order is LIMIT or MARKET). */
export function orderFormType(o: Pick<ConditionalView, 'stopType' | 'trailingDelta' | 'orderType'>): FormOrderType {
  if (!o.stopType) return o.orderType === 'LIMIT' ? 'LIMIT' : 'MARKET';
  if (o.trailingDelta > 0) return 'TRAILING';
  return o.orderType === 'LIMIT' ? 'STOP_LIMIT' : 'STOP_MARKET';
}

/**
 * The conditional part of an order from the server (schemas.ts Entrust), or null for a plain order (stopType '', or
 * absent in the answer of a server from before conditional orders).
 */
export function conditionalOf(order: Entrust): ConditionalView | null {
  if (order.stopType !== 'STOP_LOSS' && order.stopType !== 'TAKE_PROFIT') return null;
  const { side, orderType, stopType, stopPrice, trailingDelta, triggerState, workingTime, expireReason } = order;
  return { side, orderType, stopType, stopPrice, trailingDelta, triggerState, workingTime, expireReason };
}

/** The conditional fields of a plain (not conditional) order, as the server sends them (schemas.ts Entrust). */
export const NO_TRIGGER: Omit<ConditionalView, 'side' | 'orderType'> = {
  stopType: '',
  stopPrice: '',
  trailingDelta: 0,
  triggerState: 'NONE',
  workingTime: 0,
  expireReason: '',
};
