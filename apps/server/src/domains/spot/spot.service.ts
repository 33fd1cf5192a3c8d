/**
 * Spot order entry and queries, used by the routes and by the liquidity bots alike (no back door into the
 * book). Decimal strings are parsed exactly into engine integers with the market's decimals (price at
 * priceDecimals, amount at qtyDecimals, total at the quote asset's scale); the order is submitted through the
 * engine host (journaled before it is applied) and the engine's reject codes become AppErrors.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { MAX_TRAILING_DELTA_BIPS, MIN_TRAILING_DELTA_BIPS, type CancelReplaceMode, type Command, type OrderView } from '@exchange/core';
import type {
  CancelEntrustBody,
  CancelOcoEntrustBody,
  Entrust,
  EntrustDetail,
  EntrustPage,
  GetEntrustListQuery,
  GetTradeListQuery,
  OcoEntrust,
  SetEntrustBody,
  SetOcoEntrustBody,
  UserTradePage,
} from '@exchange/api';
import type { Config } from '../../platform/config/env';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { AppError } from '../../platform/shared/errors';
import { canonicalOrderId, parseUnits, plainDecimal } from '../../platform/shared/order-fields';
import { createSpotRepository } from './spot.repository';
import { rowToOrderView, toEntrust, toFill, toOcoEntrust, toUserTrade } from './spot.format';
import { openOrdersPage } from './open-pages';
import { rejectParams } from '../../platform/shared/market-scales';
import { marketScales, type MarketScales } from '../../platform/shared/market-scales';

/** Spot order entry and queries (see the file comment). */
export interface SpotService {
  /** Place a spot order for userId (throws AppError with the engine's reject code). */
  place(userId: string, body: Static<typeof SetEntrustBody>): Promise<Entrust>;
  /** Cancel one of userId's orders (throws AppError order_not_found); cancelling a leg of an OCO list cancels the list. */
  cancel(userId: string, body: Static<typeof CancelEntrustBody>): Promise<Entrust>;
  /**
   * Cancel-replace (Binance spot POST /api/v3/order/cancelReplace) as the engine's one cancelReplaceOrder command, so
   * no other command lands between the cancel and the new order: cancels userId's open order of `body.pairsName` named
   * by `req` (as `cancel`, with Binance's cancelRestrictions) and places `body` as `place` would, against the balance
   * the cancel released; STOP_ON_FAILURE places nothing after a failed cancel. Throws AppError, before anything is
   * submitted, for a body `place` would refuse to build (and market_not_found); answers each step otherwise.
   */
  cancelReplace(userId: string, req: CancelReplaceRequest): Promise<CancelReplaceAnswer>;
  /**
   * Place an OCO list for userId (SetOcoEntrustBody: a limit maker leg and a stop-limit leg; docs/conditional-orders.md,
   * OCO order lists). Throws AppError: the *_required codes for a missing field, oco_sell_prices / oco_buy_prices for
   * prices on the wrong side of each other or of the last price, else the engine's reject code (with the market's
   * value to meet where it has one).
   */
  placeOco(userId: string, body: Static<typeof SetOcoEntrustBody>): Promise<OcoEntrust>;
  /** Cancel one of userId's OCO lists, both open legs (throws AppError order_not_found, 404, for an unknown, another user's or ended list). */
  cancelOco(userId: string, body: Static<typeof CancelOcoEntrustBody>): Promise<OcoEntrust>;
  /** Open orders (type current, from the engine) or ended ones (type history, projected), newest first, paged. */
  list(userId: string, query: Static<typeof GetEntrustListQuery>): Promise<EntrustPage>;
  /** One of userId's orders with its fills (AppError order_not_found, 404, for anyone else's). */
  detail(userId: string, orderId: string): Promise<EntrustDetail>;
  /** userId's own fills (projected), newest first, optionally of one pair, paged (AppError market_not_found). */
  trades(userId: string, query: Static<typeof GetTradeListQuery>): Promise<UserTradePage>;
}

type PlaceOrder = Omit<Extract<Command, { type: 'placeOrder' }>, 'ts'>;

/** What a cancel-replace names and places (EntrustService.cancelReplace; the engine's cancelReplaceOrder fields). */
export interface CancelReplaceRequest {
  mode: CancelReplaceMode;
  /** the order to cancel by id, by client order id, or both (then they must name the same order) */
  cancelOrderId?: string;
  cancelClientOrderId?: string;
  /** cancel only an order of this status (Binance cancelRestrictions) */
  restriction?: 'ONLY_NEW' | 'ONLY_PARTIALLY_FILLED';
  /** the new order, as `place` takes it (its pairsName is the market of both steps) */
  body: Static<typeof SetEntrustBody>;
}

/**
 * Each step of a cancel-replace: the cancelled order, or the AppError the cancel failed with (order_not_found, with
 * `cancelRestricted` true when the order is open but not of the restriction's status); the new order, its AppError
 * (as `place` throws it), or null when it was not attempted (STOP_ON_FAILURE after a failed cancel).
 */
export interface CancelReplaceAnswer {
  canceled: Entrust | AppError;
  cancelRestricted: boolean;
  placed: Entrust | AppError | null;
}
type PlaceOrderList = Omit<Extract<Command, { type: 'placeOrderList' }>, 'ts'>;

/**
 * The trailingDelta range the engine accepts, in basis points (the core's own bounds, Binance's TRAILING_DELTA filter
 * as commonly set); checked here too so the user reads which field is wrong.
 */
export { MAX_TRAILING_DELTA_BIPS, MIN_TRAILING_DELTA_BIPS };

/** Longest wait for the projection before a history read goes ahead with what the database has (ms). */
const PROJECTION_WAIT_MS = 3000;

/** HTTP status of an engine rejection: 404 for a missing order, 400 for every other. */
function rejectStatus(code: string): number {
  return code === 'order_not_found' ? 404 : 400;
}

/** Builds the service over the engine host (orders) and the database (history and fills). */
export function createSpotService(deps: { config: Config; db: Db; log: FastifyBaseLogger; host: EnginePort }): SpotService {
  const { host } = deps;
  const repo = createSpotRepository(deps.db);
  const engine = host.engine;

  /** Waits for the projector (read-your-writes), but never longer than PROJECTION_WAIT_MS (database trouble). */
  async function caughtUp(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([host.projected(), new Promise<void>((resolve) => (timer = setTimeout(resolve, PROJECTION_WAIT_MS)))]);
    clearTimeout(timer);
  }

  function scalesOf(symbol: string): MarketScales {
    const market = engine.market(symbol);
    if (!market) throw new AppError('market_not_found', 400, 'pairsName');
    return marketScales(market, (c) => engine.asset(c));
  }

  function view(o: OrderView): Entrust {
    return toEntrust(o, scalesOf(o.symbol));
  }

  /**
   * The order a placing command answered (placeOrder, cancelReplaceOrder): its `order`, or for a retried clientOrderId
   * whose first order the engine no longer retains (it keeps only recent ended orders) that order from the projection;
   * undefined when neither has it.
   */
  async function placedOrder(r: { order?: OrderView; duplicateOfOrderId?: string }): Promise<OrderView | undefined> {
    if (r.order || r.duplicateOfOrderId === undefined) return r.order;
    await caughtUp();
    const row = await repo.order(r.duplicateOfOrderId);
    return row ? rowToOrderView(row) : undefined;
  }

  /** Turns the request into a placeOrder command: the order it is (buildPlain) with its condition, if any (withCondition). */
  function buildOrder(userId: string, body: Static<typeof SetEntrustBody>, s: MarketScales): PlaceOrder {
    return withCondition(buildPlain(userId, body, s), body, s);
  }

  /** Turns the request's LIMIT or MARKET part into a placeOrder command, checking the field combinations of each order type. */
  function buildPlain(userId: string, body: Static<typeof SetEntrustBody>, s: MarketScales): PlaceOrder {
    const { market, quoteScale } = s;
    const isLimit = body.orderType === 'LIMIT';
    const priceStep = () => ({ step: plainDecimal(market.tickSize, market.priceDecimals), coin: market.quote });
    const qtyStep = () => ({ step: plainDecimal(market.stepSize, market.qtyDecimals), coin: market.base });
    const timeInForce = body.timeInForce ?? (isLimit ? 'GTC' : 'IOC');
    const cmd: PlaceOrder = {
      type: 'placeOrder',
      userId,
      symbol: market.symbol,
      side: body.side,
      orderType: body.orderType,
      timeInForce,
      ...(body.clientOrderId ? { clientOrderId: body.clientOrderId } : {}),
    };
    if (isLimit) {
      if (body.total !== undefined && body.total !== '') throw new AppError('invalid_order', 400, 'total');
      if (body.price === undefined || body.price === '') throw new AppError('price_required', 400, 'price');
      if (body.amount === undefined || body.amount === '') throw new AppError('quantity_required', 400, 'amount');
      cmd.price = parseUnits(body.price, market.priceDecimals, 'price', priceStep);
      cmd.quantity = parseUnits(body.amount, market.qtyDecimals, 'amount', qtyStep);
      return cmd;
    }
    // MARKET: the price field is ignored (a form may send the last price along).
    if (timeInForce === 'POST_ONLY') throw new AppError('invalid_order', 400, 'timeInForce');
    const hasAmount = body.amount !== undefined && body.amount !== '';
    const hasTotal = body.total !== undefined && body.total !== '';
    if (body.side === 'SELL') {
      if (hasTotal) throw new AppError('invalid_order', 400, 'total');
      if (!hasAmount) throw new AppError('quantity_required', 400, 'amount');
      cmd.quantity = parseUnits(body.amount!, market.qtyDecimals, 'amount', qtyStep);
      return cmd;
    }
    if (hasAmount && hasTotal) throw new AppError('invalid_order', 400, 'total');
    if (!hasAmount && !hasTotal) throw new AppError('quantity_required', 400, 'amount');
    if (hasAmount) cmd.quantity = parseUnits(body.amount!, market.qtyDecimals, 'amount', qtyStep);
    else cmd.quoteAmount = parseUnits(body.total!, quoteScale, 'total', () => ({ step: plainDecimal(1n, quoteScale), coin: market.quote }));
    return cmd;
  }

  /**
   * Adds the request's condition (stopType, stopPrice, trailingDelta; docs/conditional-orders.md) to `cmd`, with a
   * clear code for each input the engine would only answer invalid_order to: stop_type_required (a stop price or
   * trailing delta without a type), stop_price_required (a type without either), stop_price_not_on_tick,
   * trailing_delta_out_of_range (10 to 2000 basis points), invalid_order on timeInForce for POST_ONLY.
   */
  function withCondition(cmd: PlaceOrder, body: Static<typeof SetEntrustBody>, s: MarketScales): PlaceOrder {
    const { market } = s;
    const stopType = body.stopType === undefined || body.stopType === '' ? undefined : body.stopType;
    const hasStop = body.stopPrice !== undefined && body.stopPrice !== '';
    const hasTrailing = body.trailingDelta !== undefined && body.trailingDelta !== 0;
    if (stopType === undefined) {
      if (hasStop || hasTrailing) throw new AppError('stop_type_required', 400, 'stopType');
      return cmd;
    }
    if (!hasStop && !hasTrailing) throw new AppError('stop_price_required', 400, 'stopPrice');
    if (cmd.timeInForce === 'POST_ONLY') throw new AppError('invalid_order', 400, 'timeInForce');
    cmd.condition = stopType;
    if (hasStop) {
      const tick = () => ({ step: plainDecimal(market.tickSize, market.priceDecimals), coin: market.quote });
      const stopPrice = parseUnits(body.stopPrice!, market.priceDecimals, 'stopPrice', tick);
      if (stopPrice <= 0n || stopPrice % market.tickSize !== 0n) throw new AppError('stop_price_not_on_tick', 400, 'stopPrice', tick());
      cmd.stopPrice = stopPrice;
    }
    if (hasTrailing) {
      const d = body.trailingDelta!;
      if (!Number.isInteger(d) || d < MIN_TRAILING_DELTA_BIPS || d > MAX_TRAILING_DELTA_BIPS) {
        throw new AppError('trailing_delta_out_of_range', 400, 'trailingDelta');
      }
      cmd.trailingDelta = d;
    }
    return cmd;
  }

  /**
   * Turns an OCO request into a placeOrderList command (Binance app's OCO: a LIMIT_MAKER leg at `price` and a
   * STOP_LOSS_LIMIT leg at `stopPrice` / `stopLimitPrice`, GTC; SELL: the limit maker above, BUY: below), with a clear
   * code for each input the engine would answer invalid_order or would_trigger_immediately to: quantity_required,
   * price_required, trigger_price_required, stop_limit_price_required (missing or zero), too_many_decimals,
   * stop_price_not_on_tick, and the price relation of Binance's OCO ("SELL: limit price > last price > stop price;
   * BUY: limit price < last price < stop price"; without a trade yet only limit against stop): oco_sell_prices or
   * oco_buy_prices, naming the last price. Ticks, step, minimums, balance and the book are the engine's to check.
   */
  function buildOco(userId: string, body: Static<typeof SetOcoEntrustBody>, s: MarketScales): PlaceOrderList {
    const { market } = s;
    const tick = () => ({ step: plainDecimal(market.tickSize, market.priceDecimals), coin: market.quote });
    const qtyStep = () => ({ step: plainDecimal(market.stepSize, market.qtyDecimals), coin: market.base });
    const field = (
      v: string | undefined,
      name: string,
      missing: 'quantity_required' | 'price_required' | 'trigger_price_required' | 'stop_limit_price_required',
    ) => {
      if (v === undefined || v === '') throw new AppError(missing, 400, name);
      const units = name === 'amount' ? parseUnits(v, market.qtyDecimals, name, qtyStep) : parseUnits(v, market.priceDecimals, name, tick);
      if (units === 0n) throw new AppError(missing, 400, name);
      return units;
    };
    const quantity = field(body.amount, 'amount', 'quantity_required');
    const price = field(body.price, 'price', 'price_required');
    const stopPrice = field(body.stopPrice, 'stopPrice', 'trigger_price_required');
    const stopLimitPrice = field(body.stopLimitPrice, 'stopLimitPrice', 'stop_limit_price_required');
    if (stopPrice % market.tickSize !== 0n) throw new AppError('stop_price_not_on_tick', 400, 'stopPrice', tick());
    const sell = body.side === 'SELL';
    const last = engine.lastPrice(market.symbol);
    const related = sell
      ? price > stopPrice && (last === null || (price > last && stopPrice < last))
      : price < stopPrice && (last === null || (price < last && stopPrice > last));
    if (!related) {
      const params = last === null ? undefined : { last: plainDecimal(last, market.priceDecimals), coin: market.quote };
      throw new AppError(sell ? 'oco_sell_prices' : 'oco_buy_prices', 400, 'price', params);
    }
    const limitLeg = { type: 'LIMIT_MAKER' as const, price };
    const stopLeg = { type: 'STOP_LOSS_LIMIT' as const, price: stopLimitPrice, stopPrice, timeInForce: 'GTC' as const };
    return {
      type: 'placeOrderList',
      userId,
      symbol: market.symbol,
      contingencyType: 'OCO',
      side: body.side,
      quantity,
      above: sell ? limitLeg : stopLeg,
      below: sell ? stopLeg : limitLeg,
      ...(body.clientOrderId ? { listClientOrderId: body.clientOrderId } : {}),
    };
  }

  return {
    async place(userId, body) {
      const s = scalesOf(body.pairsName);
      const r = await host.submit(buildOrder(userId, body, s));
      if (r.code !== 'ok') throw new AppError(r.code, rejectStatus(r.code), undefined, rejectParams(r.code, s));
      const order = await placedOrder(r);
      if (!order) throw new Error('placeOrder accepted without an order view');
      // A retry may name another pair than the first request did: `view` formats with the order's own market.
      return order.symbol === body.pairsName ? toEntrust(order, s) : view(order);
    },

    async cancel(userId, body) {
      const id = body.id !== undefined && body.id !== '' ? body.id : undefined;
      const cid = body.clientOrderId !== undefined && body.clientOrderId !== '' ? body.clientOrderId : undefined;
      if (id === undefined && cid === undefined) throw new AppError('validation_failed', 400, 'id');
      const canonical = id === undefined ? undefined : canonicalOrderId(id);
      if (id !== undefined && canonical === null) throw new AppError('order_not_found', rejectStatus('order_not_found'));
      const r = await host.submit(canonical ? { type: 'cancelOrder', userId, orderId: canonical } : { type: 'cancelOrder', userId, clientOrderId: cid! });
      if (r.code !== 'ok') throw new AppError(r.code, rejectStatus(r.code));
      if (!r.order) throw new Error('cancelOrder accepted without an order view');
      return view(r.order);
    },

    async cancelReplace(userId, req) {
      const s = scalesOf(req.body.pairsName);
      const { type: _type, userId: _user, symbol, ...order } = buildOrder(userId, req.body, s);
      const r = await host.submit({
        type: 'cancelReplaceOrder',
        userId,
        symbol,
        mode: req.mode,
        ...(req.cancelOrderId !== undefined ? { cancelOrderId: req.cancelOrderId } : {}),
        ...(req.cancelClientOrderId !== undefined ? { cancelClientOrderId: req.cancelClientOrderId } : {}),
        ...(req.restriction !== undefined ? { cancelRestriction: req.restriction } : {}),
        order,
      });
      const o = r.cancelReplace;
      // Without the steps' outcome the command itself was refused (a malformed field): nothing was cancelled.
      if (o === undefined) {
        if (r.code === 'ok') throw new Error('cancelReplaceOrder accepted without its outcome');
        throw new AppError(r.code, rejectStatus(r.code));
      }
      const cancelCode = o.cancelCode;
      let canceled: Entrust | AppError;
      if (cancelCode !== 'ok') canceled = new AppError(cancelCode, rejectStatus(cancelCode));
      else if (o.canceledOrder !== null) canceled = view(o.canceledOrder);
      else throw new Error('cancelReplaceOrder cancelled without an order view');
      const newCode = o.newOrderCode;
      let placed: Entrust | AppError | null = null;
      if (newCode !== null && newCode !== 'ok') {
        placed = new AppError(newCode, rejectStatus(newCode), undefined, rejectParams(newCode, s));
      } else if (newCode === 'ok') {
        const v = await placedOrder(r);
        if (!v) throw new Error('cancelReplaceOrder placed without an order view');
        placed = view(v);
      }
      return { canceled, cancelRestricted: o.cancelRestricted, placed };
    },

    async placeOco(userId, body) {
      const s = scalesOf(body.pairsName);
      const r = await host.submit(buildOco(userId, body, s));
      if (r.code !== 'ok') throw new AppError(r.code, rejectStatus(r.code), undefined, rejectParams(r.code, s));
      if (r.orderList === undefined || r.listOrders === undefined) throw new Error('placeOrderList accepted without its list');
      // A retried clientOrderId returns the first list, whichever pair this request names.
      return toOcoEntrust(r.orderList, r.listOrders, r.orderList.symbol === body.pairsName ? s : scalesOf(r.orderList.symbol));
    },

    async cancelOco(userId, body) {
      const id = body.orderListId !== undefined && body.orderListId !== '' ? body.orderListId : undefined;
      const cid = body.clientOrderId !== undefined && body.clientOrderId !== '' ? body.clientOrderId : undefined;
      if (id === undefined && cid === undefined) throw new AppError('validation_failed', 400, 'orderListId');
      const canonical = id === undefined ? undefined : canonicalOrderId(id);
      if (id !== undefined && canonical === null) throw new AppError('order_not_found', rejectStatus('order_not_found'));
      const r = await host.submit(
        canonical ? { type: 'cancelOrderList', userId, orderListId: canonical } : { type: 'cancelOrderList', userId, listClientOrderId: cid! },
      );
      if (r.code !== 'ok') throw new AppError(r.code, rejectStatus(r.code));
      if (r.orderList === undefined || r.listOrders === undefined) throw new Error('cancelOrderList accepted without its list');
      return toOcoEntrust(r.orderList, r.listOrders, scalesOf(r.orderList.symbol));
    },

    async list(userId, query) {
      const page = query.page ?? 1;
      const pageSize = query.pageSize ?? 20;
      const offset = (page - 1) * pageSize;
      if (query.pairsName !== undefined && !engine.market(query.pairsName)) throw new AppError('market_not_found', 400, 'pairsName');
      if (query.type === 'current') {
        const open = engine.openOrders(userId, query.pairsName).reverse();
        // an OCO list's two legs are never cut apart by a page boundary (open-pages.ts)
        return { records: openOrdersPage(open, page, pageSize, (o) => o.orderListId).map(view), total: open.length, page, pageSize };
      }
      // History is read from the projection; wait until it holds everything applied so far (read-your-writes).
      await caughtUp();
      const { rows, total } = await repo.history(userId, query.pairsName, offset, pageSize);
      return { records: rows.map((r) => view(rowToOrderView(r))), total, page, pageSize };
    },

    async detail(userId, orderId) {
      const id = canonicalOrderId(orderId);
      // No order id is above the bigint column's range (2^63 - 1): such an id names no order, it is not an error.
      if (id === null) throw new AppError('order_not_found', 404);
      let order = engine.order(id);
      await caughtUp();
      if (!order) {
        const row = await repo.order(id);
        order = row ? rowToOrderView(row) : undefined;
      }
      if (!order || order.userId !== userId) throw new AppError('order_not_found', 404);
      const s = scalesOf(order.symbol);
      const fills = await repo.fills(id);
      return { ...toEntrust(order, s), fills: fills.map((t) => toFill(t, id, s)) };
    },

    async trades(userId, query) {
      const page = query.page ?? 1;
      const pageSize = query.pageSize ?? 20;
      if (query.pairsName !== undefined && !engine.market(query.pairsName)) throw new AppError('market_not_found', 400, 'pairsName');
      // Read-your-writes: a fill of an order just answered is in the projection before the list is read.
      await caughtUp();
      const { rows, total } = await repo.userTrades(userId, query.pairsName, (page - 1) * pageSize, pageSize);
      return { records: rows.map((r) => toUserTrade(r, scalesOf(r.symbol))), total, page, pageSize };
    },
  };
}
