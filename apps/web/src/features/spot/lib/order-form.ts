/**
 * Pure rules of the spot order form (the server applies the same rules in
 * packages/core): input sanitising, stepping and rounding to tickSize / stepSize, percent-of-available
 * -> amount or total, the estimated total, validation in the server's precedence (price, tick, amount,
 * step, minimums, balance) with messages that name the market's minimum or step, and the setEntrust
 * body with an idempotent client order id. Every value is a decimal string computed with exact BigInt arithmetic
 * (shared/format); nothing here uses floating point.
 */
import type { Pair } from '@exchange/api';
import {
  addDecimal,
  compareDecimal,
  decimalsOf,
  divDecimal,
  formatAmount,
  isDecimal,
  isZeroDecimal,
  mulDecimal,
  parseDec,
  rescale,
  decToString,
  subDecimal,
} from '../../../shared/format';

/** Order side. */
export type Side = 'BUY' | 'SELL';
/** Order type. */
export type OrderType = 'LIMIT' | 'MARKET';
/** What a market BUY is sized by: quote total (Binance quoteOrderQty) or base amount. */
export type MarketBuyBy = 'total' | 'amount';

/** The trading rules of a market: the fields of the API's Pair (schemas.ts) that the form applies. */
export type MarketRules = Pick<Pair, 'tokenCur' | 'mainCur' | 'priceDecimals' | 'qtyDecimals' | 'tickSize' | 'stepSize' | 'minQty' | 'minNotional'>;

/** The form's values, all as typed (decimal strings, '' when empty). */
export interface OrderFormValues {
  side: Side;
  orderType: OrderType;
  marketBuyBy: MarketBuyBy;
  price: string;
  amount: string;
  total: string;
}

/** Decimals of a quote total: the market's price precision (never finer than the quote asset). */
export function totalDecimals(rules: MarketRules): number {
  return rules.priceDecimals;
}

/** True when `s` is a complete positive-or-zero decimal ("1", "0.5"; not "", ".", "1."). */
export function isCompleteDecimal(s: string): boolean {
  return /^\d+(\.\d+)?$/.test(s);
}

/**
 * Cleans typed text into a decimal with at most `decimals` fraction digits: keeps digits and the
 * first dot, drops extra fraction digits (truncation, never rounding up), removes leading zeros.
 * sanitizeDecimalInput("01.2345", 2) === "1.23"; (".5", 2) === "0.5"; ("3.", 2) === "3."; ("1.9", 0) === "1".
 */
export function sanitizeDecimalInput(input: string, decimals: number): string {
  let s = input.replace(/,/g, '.').replace(/[^\d.]/g, '');
  const dot = s.indexOf('.');
  if (dot >= 0) s = s.slice(0, dot + 1) + s.slice(dot + 1).replace(/\./g, '');
  const [rawInt = '', frac] = s.split('.');
  let int = rawInt.replace(/^0+(?=\d)/, '');
  if (frac === undefined) return int;
  if (decimals <= 0) return int;
  if (int === '') int = '0';
  return `${int}.${frac.slice(0, decimals)}`;
}

/** `value` rounded DOWN to a multiple of `step`, written at the step's decimals. floorToStep("1.23456", "0.001") === "1.234". */
export function floorToStep(value: string, step: string): string {
  const d = decimalsOf(step);
  const v = rescale(parseDec(value), d, 'down');
  const st = rescale(parseDec(step), d, 'down');
  if (st.units <= 0n) return decToString(v);
  const units = v.units < 0n ? 0n : (v.units / st.units) * st.units;
  return decToString({ units, scale: d });
}

/** True when `value` is a whole multiple of `step` (exact). */
export function isOnStep(value: string, step: string): boolean {
  const v = parseDec(value);
  const s = parseDec(step);
  const scale = Math.max(v.scale, s.scale);
  const su = rescale(s, scale).units;
  return su > 0n && rescale(v, scale).units % su === 0n;
}

/**
 * One stepper press: `value` moved by one `step` up (+1) or down (-1), first aligned down to the step;
 * never below zero. An empty value steps up to `step` and down to ''. stepBy("10.05", "0.1", 1) === "10.1".
 */
export function stepBy(value: string, step: string, dir: 1 | -1): string {
  const d = decimalsOf(step);
  if (!isCompleteDecimal(value) && !/^\d+\.$/.test(value)) return dir === 1 ? toFixedStep(step, d) : '';
  const base = floorToStep(value.replace(/\.$/, ''), step);
  const aligned = compareDecimal(base, value.replace(/\.$/, '')) !== 0;
  let next: string;
  if (dir === 1) next = addDecimal(base, step);
  else next = aligned ? base : subDecimal(base, step);
  if (compareDecimal(next, '0') < 0) next = '0';
  return toFixedStep(next, d);
}

function toFixedStep(v: string, d: number): string {
  return decToString(rescale(parseDec(v), d, 'down'));
}

/** Inputs of percentToForm. */
export interface PercentInput {
  form: OrderFormValues;
  rules: MarketRules;
  /** Available balance of the side's asset in the SPOT account: quote for BUY, base for SELL. */
  available: string;
  /** Last traded price, used to size a market BUY by amount. */
  lastPrice: string;
  /** 0, 25, 50, 75 or 100. */
  percent: number;
}

/**
 * Percent-of-available -> the form field it drives, exactly:
 * - SELL: amount = available x p%, down to the step;
 * - BUY LIMIT: amount = available x p% / price, down to the step ('' without a price);
 * - BUY MARKET by total: total = available x p%, down to the total's decimals;
 * - BUY MARKET by amount: amount = available x p% / last price, down to the step.
 */
export function percentToForm({ form, rules, available, lastPrice, percent }: PercentInput): Partial<Pick<OrderFormValues, 'amount' | 'total'>> {
  const avail = isDecimal(available) ? available : '0';
  const part = mulDecimal(avail, String(percent), 18, 'down');
  const share = divDecimal(part, '100', 18, 'down');
  if (form.side === 'SELL') return { amount: floorToStep(share, rules.stepSize) };
  if (form.orderType === 'MARKET' && form.marketBuyBy === 'total') {
    return { total: decToString(rescale(parseDec(share), totalDecimals(rules), 'down')) };
  }
  const price = form.orderType === 'LIMIT' ? form.price : lastPrice;
  if (!isCompleteDecimal(price) || isZeroDecimal(price)) return { amount: '' };
  return { amount: floorToStep(divDecimal(share, price, rules.qtyDecimals + 2, 'down'), rules.stepSize) };
}

/**
 * Estimated total in the quote currency at the total's decimals, '' when unknown:
 * LIMIT price x amount; MARKET BUY by total = total; MARKET otherwise amount x last price (an estimate).
 */
export function estimatedTotal(form: OrderFormValues, rules: MarketRules, lastPrice: string): string {
  const d = totalDecimals(rules);
  if (form.orderType === 'MARKET' && form.side === 'BUY' && form.marketBuyBy === 'total') {
    return isCompleteDecimal(form.total) ? decToString(rescale(parseDec(form.total), d, 'down')) : '';
  }
  const price = form.orderType === 'LIMIT' ? form.price : lastPrice;
  if (!isCompleteDecimal(price) || !isCompleteDecimal(form.amount) || isZeroDecimal(price)) return '';
  return mulDecimal(price, form.amount, d, 'up');
}

/**
 * Reasons the form is refused before sending; each has a message in the spot namespace (err.<code>) that
 * names the value to meet where there is one (orderFormMessage). More decimals than the market allows are
 * the step's (or tick's) matter: "0.000001" BTC on a 0.00001 step is quantity_not_on_step, never silently cut.
 */
export type OrderFormError =
  | 'price_required'
  | 'price_not_on_tick'
  | 'quantity_required'
  | 'total_required'
  | 'total_not_on_step'
  | 'quantity_not_on_step'
  | 'quantity_below_minimum'
  | 'notional_below_minimum'
  | 'insufficient_balance';

const decimalsIn = (s: string) => (s.split('.')[1] ?? '').length;

/**
 * Checks the form in the server's precedence; null when it may be sent. `available` is the SPOT
 * balance of the asset the order spends (quote for BUY, base for SELL). The insufficient-balance check
 * of a market BUY by amount uses the last price, like the estimate shown.
 */
export function validateOrder(form: OrderFormValues, rules: MarketRules, available: string, lastPrice: string): OrderFormError | null {
  const avail = isDecimal(available) ? available : '0';
  const isLimit = form.orderType === 'LIMIT';
  const byTotal = !isLimit && form.side === 'BUY' && form.marketBuyBy === 'total';
  if (isLimit) {
    if (!isCompleteDecimal(form.price) || isZeroDecimal(form.price)) return 'price_required';
    if (decimalsIn(form.price) > rules.priceDecimals || !isOnStep(form.price, rules.tickSize)) return 'price_not_on_tick';
  }
  if (byTotal) {
    if (!isCompleteDecimal(form.total) || isZeroDecimal(form.total)) return 'total_required';
    if (decimalsIn(form.total) > totalDecimals(rules)) return 'total_not_on_step';
    if (compareDecimal(form.total, rules.minNotional) < 0) return 'notional_below_minimum';
    if (compareDecimal(form.total, avail) > 0) return 'insufficient_balance';
    return null;
  }
  if (!isCompleteDecimal(form.amount) || isZeroDecimal(form.amount)) return 'quantity_required';
  if (decimalsIn(form.amount) > rules.qtyDecimals || !isOnStep(form.amount, rules.stepSize)) return 'quantity_not_on_step';
  if (compareDecimal(form.amount, rules.minQty) < 0) return 'quantity_below_minimum';
  if (isLimit && compareDecimal(mulDecimal(form.price, form.amount, 18), rules.minNotional) < 0) return 'notional_below_minimum';
  if (form.side === 'SELL') return compareDecimal(form.amount, avail) > 0 ? 'insufficient_balance' : null;
  const price = isLimit ? form.price : lastPrice;
  if (isCompleteDecimal(price) && compareDecimal(mulDecimal(price, form.amount, 18), avail) > 0) return 'insufficient_balance';
  return null;
}

/** The form field an error is shown under. */
export function errorField(err: OrderFormError, form: OrderFormValues): 'price' | 'amount' | 'total' {
  if (err === 'price_required' || err === 'price_not_on_tick') return 'price';
  const byTotal = form.orderType === 'MARKET' && form.side === 'BUY' && form.marketBuyBy === 'total';
  if (err === 'total_required' || err === 'total_not_on_step') return 'total';
  if (err === 'notional_below_minimum' || err === 'insufficient_balance') return byTotal ? 'total' : 'amount';
  return 'amount';
}

/** A market value as a person reads it: trailing zeros dropped, thousands grouped ("5", "0.00001"). */
const plain = (v: string) => formatAmount(v, 18);

/**
 * The i18n key (spot namespace) and values of `err`'s message for the market `rules`: the minimum order
 * value ("Minimum order value is 5 USDT"), the minimum amount, or the step or tick to be a multiple of
 * ("Amount must be a multiple of 0.00001 BTC").
 */
export function orderFormMessage(err: OrderFormError, rules: MarketRules): { key: string; values: Record<string, string> } {
  const key = `err.${err}`;
  switch (err) {
    case 'price_not_on_tick':
      return { key, values: { step: plain(rules.tickSize), coin: rules.mainCur } };
    case 'quantity_not_on_step':
      return { key, values: { step: plain(rules.stepSize), coin: rules.tokenCur } };
    case 'total_not_on_step':
      return { key, values: { step: plain(decToString({ units: 1n, scale: totalDecimals(rules) })), coin: rules.mainCur } };
    case 'quantity_below_minimum':
      return { key, values: { min: plain(rules.minQty), coin: rules.tokenCur } };
    case 'notional_below_minimum':
      return { key, values: { min: plain(rules.minNotional), coin: rules.mainCur } };
    default:
      return { key, values: {} };
  }
}

/**
 * Most decimals an order input keeps as typed: far beyond any market's precision, so that a value too fine
 * for the market stays visible and is explained (orderFormMessage) instead of being cut to zero.
 */
export const INPUT_DECIMALS = 18;

/** Body of entrust/entrust/setEntrust (schemas.ts SetEntrustBody) for a valid form. */
export function entrustBody(pairsName: string, form: OrderFormValues, clientOrderId: string): Record<string, string> {
  const body: Record<string, string> = { pairsName, side: form.side, orderType: form.orderType, clientOrderId };
  if (form.orderType === 'LIMIT') {
    body.price = form.price;
    body.amount = form.amount;
    body.timeInForce = 'GTC';
  } else if (form.side === 'BUY' && form.marketBuyBy === 'total') body.total = form.total;
  else body.amount = form.amount;
  return body;
}

/** Pattern of a client order id (schemas.ts SetEntrustBody.clientOrderId). */
export const CLIENT_ORDER_ID_RE = /^[A-Za-z0-9_-]{1,36}$/;

/**
 * A new client order id: a random UUID (36 characters of hex and dashes, matching CLIENT_ORDER_ID_RE).
 * The form keeps it until the order is accepted, so a retry after a timeout cannot place it twice.
 */
export function newClientOrderId(uuid: () => string = () => crypto.randomUUID()): string {
  const id = uuid()
    .replace(/[^A-Za-z0-9_-]/g, '')
    .slice(0, 36);
  if (!CLIENT_ORDER_ID_RE.test(id)) throw new Error('client order id generator returned nothing usable');
  return id;
}

/**
 * What an order input holds after the user edited its grouped display ("65,000.12"): the thousands
 * separators dropped. A comma typed at the end of a value without a dot is taken as the decimal point
 * (keyboards that offer "," for decimals): ungroupTyped("12,345,", "12,345") === "12345.".
 */
export function ungroupTyped(typed: string, previousDisplay: string): string {
  const appendedComma = typed.length === previousDisplay.length + 1 && typed.startsWith(previousDisplay) && typed.endsWith(',');
  if (appendedComma && !previousDisplay.includes('.')) return `${previousDisplay.replace(/,/g, '')}.`;
  return typed.replace(/,/g, '');
}

/** Index in `display` just after its `n`-th character that is not a thousands separator (caret placement). */
export function caretAfter(display: string, n: number): number {
  let seen = 0;
  for (let i = 0; i < display.length; i++) {
    if (seen === n) return i;
    if (display[i] !== ',') seen++;
  }
  return display.length;
}
