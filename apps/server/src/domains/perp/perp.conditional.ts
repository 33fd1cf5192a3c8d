/**
 * The app's conditional perpetual orders (Binance futures' stop-limit, stop-market, take-profit and trailing stop;
 * docs/perp-conditional-orders.md): the app's order form fields are checked here, each bad input refused with its own
 * code before anything is submitted, then placed through ContractService.placeConditional (the engine checks the rest:
 * would_trigger_immediately, too_many_open_orders, ...). Open ones are read from the engine (pending conditional orders
 * of the caller), the history (triggered, cancelled, expired at the trigger) from the projected perp_orders rows and,
 * for a triggered order still open, from the engine.
 */
import {
  errorText,
  type CancelContractConditionalBody,
  type ContractConditionalOrder,
  type ContractConditionalPage,
  type ContractConditionalState,
  type ContractConditionalType,
  type GetContractConditionalQuery,
  type PlaceContractConditionalBody,
} from '@exchange/api';
import { formatDecimal, lotsToQty, type PerpConditionType, type PerpOrderView } from '@exchange/core';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { AppError } from '../../platform/shared/errors';
import { canonicalOrderId, parseUnits, plainDecimal } from '../../platform/shared/order-fields';
import { rowToPerpOrderView } from './perp.format';
import { createPerpRepository } from './perp.repository';
import type { PerpService } from './perp.service';
import { avgPriceOf, perpScales, type PerpScales } from '../../platform/shared/market-scales';

/** The app's conditional orders (see the file comment). */
export interface PerpConditionalService {
  /**
   * Places a conditional order (PlaceContractConditionalBody's rules); answers it PENDING, or the first order of a
   * repeated clientOrderId. Refusals, in this order: market_not_found, the type's fields (invalid_order naming the field,
   * stop_price_required, price_required, limit_price_not_allowed, close_position_invalid, callback_rate_invalid,
   * lots_required), the prices' and quantity's decimals (too_many_decimals), mark_price_unavailable (lots of a trailing
   * stop without an activation price), quantity_below_minimum, then the engine's.
   */
  place(userId: string, body: PlaceContractConditionalBody, lang: 'zh' | 'en'): Promise<ContractConditionalOrder>;
  /** Cancels one of the caller's pending conditional orders: order_not_found (404) for anyone else's or a plain order, conditional_not_pending once triggered or ended. */
  cancel(userId: string, body: CancelContractConditionalBody, lang: 'zh' | 'en'): Promise<ContractConditionalOrder>;
  /** The caller's pending conditional orders (tab open, oldest first) or the others (tab history, newest update first), paged. */
  list(userId: string, query: GetContractConditionalQuery, lang: 'zh' | 'en'): Promise<ContractConditionalPage>;
}

/** The engine's condition type of each app type. */
const ENGINE_TYPE: Record<ContractConditionalType, PerpConditionType> = {
  STOP_LIMIT: 'STOP',
  STOP_MARKET: 'STOP_MARKET',
  TAKE_PROFIT_LIMIT: 'TAKE_PROFIT',
  TAKE_PROFIT_MARKET: 'TAKE_PROFIT_MARKET',
  TRAILING_STOP: 'TRAILING_STOP_MARKET',
};
/** The app type of each engine condition type. */
const APP_TYPE: Record<PerpConditionType, ContractConditionalType> = {
  STOP: 'STOP_LIMIT',
  STOP_MARKET: 'STOP_MARKET',
  TAKE_PROFIT: 'TAKE_PROFIT_LIMIT',
  TAKE_PROFIT_MARKET: 'TAKE_PROFIT_MARKET',
  TRAILING_STOP_MARKET: 'TRAILING_STOP',
};
/** Longest wait for the projection before the history is read from what the database has (ms). */
const PROJECTION_WAIT_MS = 3000;

/**
 * Binance's callbackRate (percent, 0.1..10 in steps of 0.1: "1", "1.5", "0.10") in basis points (10..1000, a multiple of
 * 10), or null when it is not such a value. Exact: digits only, no floating point.
 */
export function callbackRateBps(v: string): number | null {
  const m = /^([0-9]{1,3})(?:\.([0-9]{1,4}))?$/.exec(v);
  if (!m) return null;
  const frac = (m[2] ?? '').padEnd(4, '0');
  // hundredths of a percent = basis points; anything past the tenths must be zero
  if (frac.slice(1) !== '000') return null;
  const bps = BigInt(m[1]!) * 100n + BigInt(frac.slice(0, 1)) * 10n;
  return bps >= 10n && bps <= 1000n ? Number(bps) : null;
}

/** Basis points as a percent with one decimal (150 -> "1.5"). */
function bpsPercent(bps: number): string {
  const tenths = BigInt(bps) / 10n;
  return `${tenths / 10n}.${tenths % 10n}`;
}

/** The state of a conditional order's view (see ContractConditionalState). */
export function conditionalState(o: PerpOrderView): ContractConditionalState {
  const c = o.condition!;
  if (c.workingTs === null) return o.status === 'NEW' ? 'PENDING' : 'CANCELLED';
  return o.status === 'EXPIRED' && c.expireReason !== null ? 'EXPIRED' : 'TRIGGERED';
}

/** The wire view of a conditional order in `lang` (expireMessage; insufficient_balance as the contract account's). */
export function toConditionalOrder(o: PerpOrderView, s: PerpScales, lang: 'zh' | 'en'): ContractConditionalOrder {
  const c = o.condition!;
  const { priceDecimals, qtyDecimals } = s.market;
  const px = (v: bigint | null) => (v === null ? '' : formatDecimal(v, priceDecimals));
  const reason = c.expireReason ?? '';
  const avg = avgPriceOf(o.filledQuote, o.filledQty, s.mult);
  return {
    orderId: o.orderId,
    clientOrderId: o.clientOrderId ?? '',
    symbol: o.symbol,
    side: o.side,
    type: APP_TYPE[c.type],
    orderType: o.orderType,
    state: conditionalState(o),
    stopPrice: px(c.stopPrice),
    price: px(o.price),
    workingType: c.workingType,
    quantity: formatDecimal(o.quantity, qtyDecimals),
    lots: o.lots,
    reduceOnly: o.reduceOnly,
    closePosition: c.closePosition,
    priceProtect: c.priceProtect,
    callbackRate: c.callbackRateBps === null ? '' : bpsPercent(c.callbackRateBps),
    activationPrice: px(c.activationPrice),
    trailingRef: px(c.trailingRef),
    orderStatus: o.status,
    filledQty: formatDecimal(o.filledQty, qtyDecimals),
    avgPrice: px(avg),
    expireReason: reason,
    expireMessage: reason === '' ? '' : errorText(reason === 'insufficient_balance' ? 'contract_insufficient_balance' : reason, lang),
    createTime: o.createdTs,
    triggerTime: c.workingTs ?? 0,
    updateTime: o.updatedTs,
  };
}

/** Builds the conditional order service over the engine port, the database (history) and the perpetuals service (placement). */
export function createPerpConditionalService(deps: { db: Db; host: EnginePort; perp: Pick<PerpService, 'placeConditional'> }): PerpConditionalService {
  const { host, perp } = deps;
  const engine = host.engine;
  const repo = createPerpRepository(deps.db);

  function scalesOf(symbol: string): PerpScales {
    const m = engine.perpMarket(symbol);
    if (!m) throw new AppError('market_not_found', 400, 'symbol');
    return perpScales(m, engine.asset(m.quote)?.scale);
  }
  const given = (v: string | undefined): v is string => v !== undefined && v !== '';

  async function caughtUp(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([host.projected(), new Promise<void>((resolve) => (timer = setTimeout(resolve, PROJECTION_WAIT_MS)))]);
    clearTimeout(timer);
  }

  /** The caller's conditional order `orderId` (engine, else projection), or undefined for anyone else's or a plain order. */
  async function ownConditional(userId: string, orderId: string): Promise<PerpOrderView | undefined> {
    const id = canonicalOrderId(orderId);
    if (id === null) return undefined;
    let o = engine.perpOrder(id);
    if (!o) {
      await caughtUp();
      const row = await repo.order(id);
      o = row ? rowToPerpOrderView(row) : undefined;
    }
    return o && o.userId === userId && o.condition !== undefined ? o : undefined;
  }

  return {
    async place(userId, body, lang) {
      const s = scalesOf(body.symbol);
      const m = s.market;
      const t = body.type;
      const trailing = t === 'TRAILING_STOP';
      const isLimit = t === 'STOP_LIMIT' || t === 'TAKE_PROFIT_LIMIT';
      // The type's fields, before any number is read (Binance refuses the same combinations: -1106 "Parameter sent when not required").
      if (trailing) {
        if (given(body.stopPrice)) throw new AppError('invalid_order', 400, 'stopPrice');
        if (body.priceProtect) throw new AppError('invalid_order', 400, 'priceProtect');
      } else {
        if (!given(body.stopPrice)) throw new AppError('stop_price_required', 400, 'stopPrice');
        if (given(body.callbackRate)) throw new AppError('invalid_order', 400, 'callbackRate');
        if (given(body.activationPrice)) throw new AppError('invalid_order', 400, 'activationPrice');
      }
      if (isLimit && !given(body.price)) throw new AppError('price_required', 400, 'price');
      if (!isLimit && given(body.price)) throw new AppError('limit_price_not_allowed', 400, 'price');
      const hasQty = given(body.quantity);
      if (body.closePosition) {
        if ((t !== 'STOP_MARKET' && t !== 'TAKE_PROFIT_MARKET') || hasQty || body.lots !== undefined || body.reduceOnly)
          throw new AppError('close_position_invalid', 400, 'closePosition');
      } else {
        if (hasQty && body.lots !== undefined) throw new AppError('invalid_order', 400, 'quantity');
        if (!hasQty && body.lots === undefined) throw new AppError('lots_required', 400, 'lots');
      }
      let bps: number | undefined;
      if (trailing) {
        const b = given(body.callbackRate) ? callbackRateBps(body.callbackRate) : null;
        if (b === null) throw new AppError('callback_rate_invalid', 400, 'callbackRate');
        bps = b;
      }
      const tick = () => ({ step: plainDecimal(m.tickSize, m.priceDecimals), coin: m.quote });
      const priceOf = (v: string | undefined, field: string) => (given(v) ? parseUnits(v, m.priceDecimals, field, tick) : null);
      const stopPrice = priceOf(body.stopPrice, 'stopPrice');
      const price = priceOf(body.price, 'price');
      const activationPrice = priceOf(body.activationPrice, 'activationPrice');
      let quantity: bigint | null = null;
      if (body.lots !== undefined) {
        // A lot is 1,000 USDT of face value at the price the order is expected to fill at.
        const ref = price ?? stopPrice ?? activationPrice ?? engine.perpMarkState(m.symbol)?.markPrice ?? null;
        if (ref === null) throw new AppError('mark_price_unavailable', 400);
        quantity = lotsToQty(BigInt(body.lots), ref, m.lotNotional, m.stepSize, s.mult);
      } else if (hasQty) {
        quantity = parseUnits(body.quantity!, m.qtyDecimals, 'quantity', () => ({ step: plainDecimal(m.stepSize, m.qtyDecimals), coin: m.base }));
      }
      if (quantity !== null && quantity < m.minQty)
        throw new AppError('quantity_below_minimum', 400, body.lots !== undefined ? 'lots' : 'quantity', {
          min: plainDecimal(m.minQty, m.qtyDecimals),
          coin: m.base,
        });
      const view = await perp.placeConditional(userId, {
        symbol: m.symbol,
        side: body.side,
        condition: ENGINE_TYPE[t],
        ...(quantity !== null ? { quantity: formatDecimal(quantity, m.qtyDecimals) } : {}),
        ...(price !== null ? { price: formatDecimal(price, m.priceDecimals) } : {}),
        ...(stopPrice !== null ? { stopPrice: formatDecimal(stopPrice, m.priceDecimals) } : {}),
        ...(activationPrice !== null ? { activationPrice: formatDecimal(activationPrice, m.priceDecimals) } : {}),
        workingType: body.workingType ?? 'CONTRACT_PRICE',
        ...(body.priceProtect ? { priceProtect: true } : {}),
        ...(body.closePosition ? { closePosition: true } : {}),
        ...(body.reduceOnly ? { reduceOnly: true } : {}),
        ...(bps !== undefined ? { callbackRateBps: bps } : {}),
        ...(body.clientOrderId ? { clientOrderId: body.clientOrderId } : {}),
      });
      // A repeated clientOrderId of a plain order answers that order: it is no conditional order of this list.
      if (view.condition === undefined) throw new AppError('invalid_order', 400, 'clientOrderId');
      return toConditionalOrder(view, s, lang);
    },

    async cancel(userId, body, lang) {
      const o = await ownConditional(userId, body.orderId);
      if (!o) throw new AppError('order_not_found', 404);
      if (conditionalState(o) !== 'PENDING') throw new AppError('conditional_not_pending', 400, 'orderId');
      const r = await host.submit({ type: 'perpCancelOrder', userId, orderId: o.orderId });
      if (r.code === 'order_not_found') throw new AppError('conditional_not_pending', 400, 'orderId');
      if (r.code !== 'ok') throw new AppError(r.code as ConstructorParameters<typeof AppError>[0], 400);
      let after = r.perpOrder;
      for (const e of r.events) if ((e.type === 'perpOrderUpdated' || e.type === 'perpOrderAccepted') && e.order.orderId === o.orderId) after = e.order;
      return toConditionalOrder(after ?? { ...o, status: 'CANCELED' }, scalesOf(o.symbol), lang);
    },

    async list(userId, query, lang) {
      const p = query.page ?? 1;
      const pageSize = query.pageSize ?? 20;
      const offset = (p - 1) * pageSize;
      if (query.symbol !== undefined) scalesOf(query.symbol);
      if (query.tab === 'open') {
        const open = engine.perpOpenOrders(userId, query.symbol).filter((o) => o.condition !== undefined && o.condition.workingTs === null);
        return {
          records: open.slice(offset, offset + pageSize).map((o) => toConditionalOrder(o, scalesOf(o.symbol), lang)),
          total: open.length,
          page: p,
          pageSize,
        };
      }
      await caughtUp();
      const { rows, total } = await repo.conditionalHistory(userId, query.symbol, offset, pageSize);
      const records = rows.map((r) => {
        // A triggered order still open is shown in its current state (the engine's), ended ones as projected.
        const o = (r.closed ? undefined : engine.perpOrder(r.id.toString())) ?? rowToPerpOrderView(r);
        return toConditionalOrder(o, scalesOf(o.symbol), lang);
      });
      return { records, total, page: p, pageSize };
    },
  };
}
