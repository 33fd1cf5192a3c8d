/**
 * Pure rules of the spot form's OCO (one-cancels-the-other) order, as Binance's app places it and the server takes it
 * (entrust/entrust/setOcoEntrust; docs/conditional-orders.md, OCO order lists): a limit maker leg at the limit price
 * (take profit) and a stop-limit leg (trigger price, stop-limit price: stop loss) of one amount. SELL: limit price >
 * last price > trigger price; BUY: limit price < last price < trigger price. The funds are held once: the amount for
 * a SELL, the larger leg's price x amount for a BUY. Also how open orders and the history show a list: its legs
 * grouped (groupOrders) and its outcome (ocoOutcome). Decimal strings with exact BigInt arithmetic (shared/format).
 */
import type { Entrust } from '@exchange/api';
import { compareDecimal, formatFixed, groupThousands, isZeroDecimal } from '../../../shared/format';
import { isCompleteDecimal, isOnStep, orderFormMessage, validateOrder, type MarketRules, type OrderFormError, type Side } from './order-form';

/** The OCO form as typed ('' when empty): prices in the quote coin, amount in the base coin. */
export interface OcoFormValues {
  side: Side;
  /** The limit maker (take-profit) leg's price. */
  price: string;
  /** The stop leg's trigger price. */
  stopPrice: string;
  /** The price of the LIMIT order the stop leg becomes once triggered. */
  stopLimitPrice: string;
  amount: string;
}

/** Reasons an OCO form is refused before sending, on top of the limit order's (lib/order-form). */
export type OcoFormError =
  OrderFormError | 'stop_price_required' | 'stop_price_not_on_tick' | 'stop_limit_price_required' | 'oco_sell_prices' | 'oco_buy_prices';

/** The OCO form's fields an error is shown under. */
export type OcoField = 'price' | 'stopPrice' | 'stopLimitPrice' | 'amount';

const decimalsIn = (s: string) => (s.split('.')[1] ?? '').length;
const positive = (v: string) => isCompleteDecimal(v) && !isZeroDecimal(v);

/** The larger of two decimal strings. */
function maxDec(a: string, b: string): string {
  return compareDecimal(a, b) >= 0 ? a : b;
}

/**
 * Checks an OCO form; null when it may be sent, else the error and the field it belongs under. In the order the form
 * shows: the limit price (required, on the tick), the trigger price (required, on the tick), the stop-limit price
 * (required, on the tick), the price relation for the side (against the last price when there is one, as the server
 * checks it: oco_sell_prices / oco_buy_prices), then the amount, each leg's minimum order value and the balance the list
 * holds (SELL the amount; BUY the larger leg price x amount), as lib/order-form validateOrder checks a limit order.
 */
export function validateOco(form: OcoFormValues, rules: MarketRules, available: string, lastPrice: string): { error: OcoFormError; field: OcoField } | null {
  const asLimit = (price: string) => ({ side: form.side, orderType: 'LIMIT' as const, marketBuyBy: 'amount' as const, price, amount: form.amount, total: '' });
  if (!positive(form.price)) return { error: 'price_required', field: 'price' };
  if (decimalsIn(form.price) > rules.priceDecimals || !isOnStep(form.price, rules.tickSize)) return { error: 'price_not_on_tick', field: 'price' };
  if (!positive(form.stopPrice)) return { error: 'stop_price_required', field: 'stopPrice' };
  if (decimalsIn(form.stopPrice) > rules.priceDecimals || !isOnStep(form.stopPrice, rules.tickSize))
    return { error: 'stop_price_not_on_tick', field: 'stopPrice' };
  if (!positive(form.stopLimitPrice)) return { error: 'stop_limit_price_required', field: 'stopLimitPrice' };
  if (decimalsIn(form.stopLimitPrice) > rules.priceDecimals || !isOnStep(form.stopLimitPrice, rules.tickSize)) {
    return { error: 'price_not_on_tick', field: 'stopLimitPrice' };
  }
  const sell = form.side === 'SELL';
  const last = positive(lastPrice) ? lastPrice : null;
  const limitVsStop = compareDecimal(form.price, form.stopPrice);
  const related = sell
    ? limitVsStop > 0 && (last === null || (compareDecimal(form.price, last) > 0 && compareDecimal(form.stopPrice, last) < 0))
    : limitVsStop < 0 && (last === null || (compareDecimal(form.price, last) < 0 && compareDecimal(form.stopPrice, last) > 0));
  if (!related) return { error: sell ? 'oco_sell_prices' : 'oco_buy_prices', field: 'price' };
  // Each leg as the limit order it is (minimum order value), the larger price last so that the balance checked is
  // what the list holds.
  const [first, second] = compareDecimal(form.price, form.stopLimitPrice) >= 0 ? [form.stopLimitPrice, form.price] : [form.price, form.stopLimitPrice];
  for (const price of [first, second]) {
    const err = validateOrder(asLimit(price), rules, available, lastPrice);
    if (err)
      return { error: err, field: err === 'price_required' || err === 'price_not_on_tick' ? (price === form.price ? 'price' : 'stopLimitPrice') : 'amount' };
  }
  return null;
}

/** The price a BUY OCO's amount is sized at for a share of the balance (the larger leg price), '' when not both typed. */
export function ocoSizingPrice(form: Pick<OcoFormValues, 'price' | 'stopLimitPrice'>): string {
  if (!positive(form.price)) return '';
  return positive(form.stopLimitPrice) ? maxDec(form.price, form.stopLimitPrice) : form.price;
}

/** The i18n key (spot namespace) and values of an OCO form error's message. */
export function ocoFormMessage(err: OcoFormError, rules: MarketRules, lastPrice: string): { key: string; values: Record<string, string> } {
  if (err === 'stop_price_not_on_tick') return { key: 'err.stop_price_not_on_tick', values: orderFormMessage('price_not_on_tick', rules).values };
  if (err === 'oco_sell_prices' || err === 'oco_buy_prices') {
    return positive(lastPrice)
      ? { key: `err.${err}`, values: { last: groupThousands(formatFixed(lastPrice, rules.priceDecimals)), coin: rules.mainCur } }
      : { key: `err.${err}_nolast`, values: {} };
  }
  if (err === 'stop_price_required' || err === 'stop_limit_price_required') return { key: `err.${err}`, values: {} };
  return orderFormMessage(err, rules);
}

/** Body of entrust/entrust/setOcoEntrust (schemas.ts SetOcoEntrustBody) for a valid form; strings, form-encoded. */
export function ocoEntrustBody(pairsName: string, form: OcoFormValues, clientOrderId: string): Record<string, string> {
  return {
    pairsName,
    side: form.side,
    amount: form.amount,
    price: form.price,
    stopPrice: form.stopPrice,
    stopLimitPrice: form.stopLimitPrice,
    clientOrderId,
  };
}

/** One row of an order list: an order outside any list, or the legs of one OCO list shown together. */
export type OrderRow = { kind: 'order'; order: Entrust } | { kind: 'oco'; orderListId: string; legs: Entrust[] };

/**
 * The records of a page as rows: the legs of one OCO list (Entrust.orderListId) grouped into one row at the place of
 * the first leg met, the take-profit leg first; every other order its own row, in the order given. A list whose other
 * leg is not on this page (another page, or no longer open) is a row with one leg.
 */
export function groupOrders(records: readonly Entrust[]): OrderRow[] {
  const rows: OrderRow[] = [];
  const lists = new Map<string, Entrust[]>();
  for (const o of records) {
    const id = o.orderListId ?? '';
    if (id === '') {
      rows.push({ kind: 'order', order: o });
      continue;
    }
    const legs = lists.get(id);
    if (legs) legs.push(o);
    else {
      const fresh = [o];
      lists.set(id, fresh);
      rows.push({ kind: 'oco', orderListId: id, legs: fresh });
    }
  }
  for (const r of rows) if (r.kind === 'oco') r.legs.sort((a, b) => (a.listLeg === b.listLeg ? 0 : a.listLeg === 'TAKE_PROFIT' ? -1 : 1));
  return rows;
}

/**
 * What became of an OCO list, from its legs as shown: EXECUTING while every leg shown is open and untouched;
 * TAKE_PROFIT_FILLED once the take-profit leg filled (even partly); STOP_TRIGGERED once the stop leg triggered (or
 * expired at its trigger); else CANCELLED (the list, or a leg and so the list, was cancelled).
 */
export type OcoOutcome = 'EXECUTING' | 'TAKE_PROFIT_FILLED' | 'STOP_TRIGGERED' | 'CANCELLED';

/** The outcome of a list from its legs (see OcoOutcome). */
export function ocoOutcome(legs: readonly Entrust[]): OcoOutcome {
  const tp = legs.find((o) => o.listLeg === 'TAKE_PROFIT');
  const sl = legs.find((o) => o.listLeg === 'STOP_LOSS');
  if (tp && !isZeroDecimal(tp.dealAmount || '0')) return 'TAKE_PROFIT_FILLED';
  if (sl && (sl.triggerState === 'TRIGGERED' || sl.triggerState === 'EXPIRED_AT_TRIGGER')) return 'STOP_TRIGGERED';
  if (legs.every((o) => o.status === 'NEW')) return 'EXECUTING';
  return 'CANCELLED';
}
