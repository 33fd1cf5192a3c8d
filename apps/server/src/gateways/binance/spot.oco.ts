/**
 * Binance spot OCO order lists (https://developers.binance.com/docs/binance-spot-api-docs/rest-api/trading-endpoints:
 * "New Order list - OCO", "Cancel Order list"; account-endpoints: "Query Order list", "Query all Order lists", "Query
 * Open Order lists") over the engine's placeOrderList / cancelOrderList (docs/conditional-orders.md, OCO order lists).
 * The routes read the engine's retained lists (engine.orderList / orderLists), which the port's engine serves in both
 * the embedded and the scale-out mode. A list of another user is never found (-2011 on cancel, -2013 on a query).
 * Weights as Binance lists them: POST orderList/oco 1 (it counts as 2 orders on Binance; our order counter counts the
 * request once), DELETE orderList 1, GET orderList 4, allOrderList 20, openOrderList 6.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Command, MarketConfig, RejectCode, OcoLeg, OcoLegType, OrderListWithOrders, OrderView } from '@exchange/core';
import { AppError } from '../../platform/shared/errors';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { parseUnits } from '../../platform/shared/order-fields';
import { toEntrust } from '../../domains/spot/spot.format';
import type { BinanceRouteConfig } from './binance.auth';
import { BinanceError, BX } from './binance.errors';
import { paramsOf } from './binance.hooks';
import { spotMarketOrThrow, toBinanceSymbol } from './binance.symbols';
import { canceledOrder, idNumber, newOrderResponse, STP_MODE, type OrderScales } from './spot.format';
import { binanceOrderError, newClientOrderId, type NewOrderRespType } from './spot.order';
import {
  ClientOrderIdParam,
  DecimalParam,
  EnumParam,
  idParam,
  IntParam,
  intParam,
  signedParams,
  signedPartialParams,
  SymbolParam,
  timeParam,
} from './spot.params';
import { answers, NewOrderListResponse, OrderListStatus } from './binance.responses';
import { type marketScales } from '../../platform/shared/market-scales';

/** The leg types Binance allows on each side of an OCO (aboveType / belowType; docs/conditional-orders.md, OCO). */
const LEG_TYPES: Readonly<Record<'BUY' | 'SELL', { above: readonly OcoLegType[]; below: readonly OcoLegType[] }>> = {
  SELL: { above: ['LIMIT_MAKER', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'], below: ['STOP_LOSS', 'STOP_LOSS_LIMIT'] },
  BUY: { above: ['STOP_LOSS', 'STOP_LOSS_LIMIT'], below: ['LIMIT_MAKER', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'] },
};

/** The leg parameters of POST /api/v3/orderList/oco, for `above` and `below`. */
const legParams = (k: 'above' | 'below') => ({
  [`${k}Type`]: EnumParam,
  [`${k}ClientOrderId`]: ClientOrderIdParam,
  [`${k}IcebergQty`]: DecimalParam,
  [`${k}Price`]: DecimalParam,
  [`${k}StopPrice`]: DecimalParam,
  [`${k}TrailingDelta`]: IntParam,
  [`${k}TimeInForce`]: EnumParam,
  [`${k}StrategyId`]: IntParam,
  [`${k}StrategyType`]: IntParam,
  [`${k}PegPriceType`]: EnumParam,
  [`${k}PegOffsetType`]: EnumParam,
  [`${k}PegOffsetValue`]: IntParam,
});
const newOcoSchema = signedPartialParams({
  symbol: SymbolParam,
  listClientOrderId: ClientOrderIdParam,
  side: EnumParam,
  quantity: DecimalParam,
  ...legParams('above'),
  ...legParams('below'),
  newOrderRespType: EnumParam,
  selfTradePreventionMode: EnumParam,
});
const oneListSchema = signedPartialParams({
  symbol: SymbolParam,
  orderListId: IntParam,
  listClientOrderId: ClientOrderIdParam,
  newClientOrderId: ClientOrderIdParam,
});

const present = (v: string | undefined): v is string => v !== undefined && v !== '';

/** A parsed POST /api/v3/orderList/oco: the engine command (without userId and ts) and the answer type. */
export interface OcoRequest {
  cmd: Omit<Extract<Command, { type: 'placeOrderList' }>, 'userId' | 'ts'>;
  respType: NewOrderRespType;
}

/**
 * One leg's parameters (`k` above or below) -> an engine OcoLeg. Throws BinanceError: -1102 a missing type, price (a
 * LIMIT_MAKER or _LIMIT leg), stopPrice (a stop leg) or timeInForce (a _LIMIT leg, Binance: "Required if ...Type is
 * STOP_LOSS_LIMIT or TAKE_PROFIT_LIMIT"); -1116 an unknown type; -1106 a parameter the type does not take; -1115 a bad
 * timeInForce; -2010 a type not allowed on this side, trailing, iceberg or pegged legs (not supported here); -1111
 * too many decimals.
 */
function parseLeg(p: Record<string, string>, k: 'above' | 'below', side: 'BUY' | 'SELL', m: MarketConfig): OcoLeg {
  const type = p[`${k}Type`];
  if (!present(type)) throw BX.mandatoryMissing(`${k}Type`);
  const all: readonly string[] = ['LIMIT_MAKER', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'];
  if (!all.includes(type)) throw BX.invalidOrderType();
  if (!(LEG_TYPES[side][k] as readonly string[]).includes(type)) throw BX.newOrderRejected(`Unsupported ${k}Type for a ${side} OCO.`);
  if (present(p[`${k}TrailingDelta`])) throw BX.newOrderRejected('Trailing orders are not supported in an order list.');
  if (present(p[`${k}IcebergQty`])) throw BX.newOrderRejected('Iceberg orders are not supported for this symbol.');
  if (present(p[`${k}PegPriceType`]) || present(p[`${k}PegOffsetType`]) || present(p[`${k}PegOffsetValue`]))
    throw BX.newOrderRejected('Pegged orders are not supported for this symbol.');
  const hasPrice = type === 'LIMIT_MAKER' || type.endsWith('_LIMIT');
  const hasStop = type !== 'LIMIT_MAKER';
  const hasTif = type.endsWith('_LIMIT');
  const price = p[`${k}Price`];
  const stop = p[`${k}StopPrice`];
  const tif = p[`${k}TimeInForce`];
  if (hasPrice && !present(price)) throw BX.mandatoryMissing(`${k}Price`);
  if (!hasPrice && present(price)) throw BX.paramNotRequired(`${k}Price`);
  if (hasStop && !present(stop)) throw BX.mandatoryMissing(`${k}StopPrice`);
  if (!hasStop && present(stop)) throw BX.paramNotRequired(`${k}StopPrice`);
  if (hasTif && !present(tif)) throw BX.mandatoryMissing(`${k}TimeInForce`);
  if (!hasTif && present(tif)) throw BX.paramNotRequired(`${k}TimeInForce`);
  if (present(tif) && tif !== 'GTC' && tif !== 'IOC' && tif !== 'FOK') throw BX.invalidTimeInForce();
  const cid = p[`${k}ClientOrderId`];
  try {
    return {
      type: type as OcoLegType,
      ...(hasPrice ? { price: parseUnits(price!, m.priceDecimals, `${k}Price`) } : {}),
      ...(hasStop ? { stopPrice: parseUnits(stop!, m.priceDecimals, `${k}StopPrice`) } : {}),
      ...(hasTif ? { timeInForce: tif as 'GTC' | 'IOC' | 'FOK' } : {}),
      clientOrderId: present(cid) ? cid : newClientOrderId(),
    };
  } catch (err) {
    throw binanceOrderError(err);
  }
}

/**
 * Parses POST /api/v3/orderList/oco's merged parameters for market `m` into the engine's placeOrderList. Throws
 * BinanceError: -1102 a missing side, quantity or leg parameter; -1117 side; -1130 newOrderRespType or
 * selfTradePreventionMode; -1111 too many decimals; the leg errors of `parseLeg`.
 */
export function parseNewOco(p: Record<string, string>, m: MarketConfig): OcoRequest {
  if (!present(p.side)) throw BX.mandatoryMissing('side');
  if (p.side !== 'BUY' && p.side !== 'SELL') throw BX.invalidSide();
  if (!present(p.quantity)) throw BX.mandatoryMissing('quantity');
  if (present(p.selfTradePreventionMode) && p.selfTradePreventionMode !== STP_MODE)
    throw BX.badParam("Data sent for parameter 'selfTradePreventionMode' is not valid.");
  const respType = p.newOrderRespType ?? 'FULL';
  if (respType !== 'ACK' && respType !== 'RESULT' && respType !== 'FULL') throw BX.badParam("Data sent for parameter 'newOrderRespType' is not valid.");
  const above = parseLeg(p, 'above', p.side, m);
  const below = parseLeg(p, 'below', p.side, m);
  let quantity: bigint;
  try {
    quantity = parseUnits(p.quantity, m.qtyDecimals, 'quantity');
  } catch (err) {
    throw binanceOrderError(err);
  }
  const listClientOrderId = present(p.listClientOrderId) ? p.listClientOrderId : newClientOrderId();
  return { respType, cmd: { type: 'placeOrderList', symbol: m.symbol, contingencyType: 'OCO', side: p.side, quantity, above, below, listClientOrderId } };
}

/**
 * An engine rejection of a placeOrderList as Binance's error: invalid_order (the price relation, equal leg client ids,
 * a leg client id of another order) is -2010 "The relationship of the prices for the orders is not correct." (Binance's
 * text for the OCO price rule); the others as for a single order (insufficient balance, filters, would trigger
 * immediately, would take liquidity).
 */
export function ocoRejection(code: RejectCode): BinanceError {
  if (code === 'invalid_order') return BX.newOrderRejected('The relationship of the prices for the orders is not correct.');
  return binanceOrderError(new AppError(code, 400)) as BinanceError;
}

/** A list as Binance's GET orderList answers it (`orders` in orderId order). */
export function orderListStatus(l: OrderListWithOrders) {
  const v = l.orderList;
  const legs = [...l.listOrders].sort((a, b) => idNumber(a.orderId) - idNumber(b.orderId));
  return {
    orderListId: idNumber(v.orderListId),
    contingencyType: v.contingencyType,
    listStatusType: v.listStatusType,
    listOrderStatus: v.listOrderStatus,
    listClientOrderId: v.listClientOrderId ?? '',
    transactionTime: v.updatedTs,
    symbol: toBinanceSymbol(v.symbol),
    orders: legs.map((o) => ({ symbol: toBinanceSymbol(o.symbol), orderId: idNumber(o.orderId), clientOrderId: o.clientOrderId ?? '' })),
  };
}

/** What the OCO routes need: the engine port, the formatting scales of a market, the caller's user id. */
export interface OcoRoutesDeps {
  host: EnginePort;
  scalesOf: (m: MarketConfig) => OrderScales & ReturnType<typeof marketScales>;
  userOf: (req: FastifyRequest) => string;
  trade: (weight: number, order?: boolean) => { binance: BinanceRouteConfig };
  userData: (weight: number) => { binance: BinanceRouteConfig };
}

/** Registers POST /api/v3/orderList/oco, DELETE and GET /api/v3/orderList, GET openOrderList and allOrderList. */
export function registerOcoRoutes(app: FastifyInstance, { host, scalesOf, userOf, trade, userData }: OcoRoutesDeps): void {
  const engine = host.engine;
  /** A leg's list id as a Binance number. */
  const legReport = (o: OrderView, m: MarketConfig) => toEntrust(o, scalesOf(m));

  app.post(
    '/api/v3/orderList/oco',
    { config: trade(1, true), schema: { querystring: newOcoSchema, body: newOcoSchema, response: answers(NewOrderListResponse) } },
    async (req) => {
      const p = paramsOf(req);
      const m = spotMarketOrThrow(host, p.symbol);
      const { cmd, respType } = parseNewOco(p, m);
      const r = await host.submit({ ...cmd, userId: userOf(req) });
      if (r.code !== 'ok') throw ocoRejection(r.code);
      if (r.orderList === undefined || r.listOrders === undefined) throw new Error('placeOrderList accepted without its list');
      const list = { orderList: r.orderList, listOrders: r.listOrders };
      const lm = engine.market(r.orderList.symbol) ?? m;
      const listId = idNumber(r.orderList.orderListId);
      const legs = [...r.listOrders].sort((a, b) => idNumber(a.orderId) - idNumber(b.orderId));
      const reports = respType === 'ACK' ? {} : { orderReports: legs.map((o) => newOrderResponse(legReport(o, lm), scalesOf(lm), 'RESULT', [], listId)) };
      return { ...orderListStatus(list), ...reports };
    },
  );

  app.delete(
    '/api/v3/orderList',
    { config: trade(1), schema: { querystring: oneListSchema, body: oneListSchema, response: answers(NewOrderListResponse) } },
    async (req) => {
      const p = paramsOf(req);
      const m = spotMarketOrThrow(host, p.symbol);
      const id = idParam(p.orderListId);
      if (id === undefined && !present(p.listClientOrderId))
        throw new BinanceError(-1102, "Param 'listClientOrderId' or 'orderListId' must be sent, but both were empty/null!", 400);
      const userId = userOf(req);
      const known = engine.orderList(userId, id, p.listClientOrderId);
      if (known === undefined || known.orderList.symbol !== m.symbol) throw BX.cancelRejected('Order list does not exist.');
      const before = new Map(known.listOrders.map((o) => [o.orderId, o.clientOrderId ?? '']));
      const r = await host.submit({ type: 'cancelOrderList', userId, orderListId: known.orderList.orderListId });
      if (r.code !== 'ok' || r.orderList === undefined || r.listOrders === undefined) throw BX.cancelRejected('Order list does not exist.');
      const listId = idNumber(r.orderList.orderListId);
      const legs = [...r.listOrders].sort((a, b) => idNumber(a.orderId) - idNumber(b.orderId));
      const cancelId = present(p.newClientOrderId) ? p.newClientOrderId : newClientOrderId();
      const status = orderListStatus({ orderList: r.orderList, listOrders: r.listOrders });
      return {
        ...status,
        listClientOrderId: cancelId,
        orderReports: legs.map((o) => canceledOrder(legReport(o, m), scalesOf(m), before.get(o.orderId) ?? '', newClientOrderId(), listId)),
      };
    },
  );

  app.get(
    '/api/v3/orderList',
    {
      config: userData(4),
      schema: {
        querystring: signedParams({ orderListId: Type.Optional(IntParam), origClientOrderId: Type.Optional(ClientOrderIdParam) }),
        response: answers(OrderListStatus),
      },
    },
    async (req) => {
      const p = paramsOf(req);
      const id = idParam(p.orderListId);
      if (id === undefined && !present(p.origClientOrderId))
        throw new BinanceError(-1102, "Param 'origClientOrderId' or 'orderListId' must be sent, but both were empty/null!", 400);
      const l = engine.orderList(userOf(req), id, p.origClientOrderId);
      if (l === undefined || (id !== undefined && present(p.origClientOrderId) && l.orderList.listClientOrderId !== p.origClientOrderId))
        throw new BinanceError(-2013, 'Order list does not exist.', 400);
      return orderListStatus(l);
    },
  );

  app.get(
    '/api/v3/openOrderList',
    { config: userData(6), schema: { querystring: signedParams({}), response: answers(Type.Array(OrderListStatus)) } },
    async (req) => engine.orderLists(userOf(req), true).map(orderListStatus),
  );

  app.get(
    '/api/v3/allOrderList',
    {
      config: userData(20),
      schema: {
        querystring: signedParams({
          fromId: Type.Optional(IntParam),
          startTime: Type.Optional(IntParam),
          endTime: Type.Optional(IntParam),
          limit: Type.Optional(IntParam),
        }),
        response: answers(Type.Array(OrderListStatus)),
      },
    },
    async (req) => {
      const p = paramsOf(req);
      const limit = intParam(p.limit, 'limit', { min: 1, max: 1000, fallback: 500 });
      const fromId = idParam(p.fromId);
      const start = timeParam(p.startTime, 'startTime');
      const end = timeParam(p.endTime, 'endTime');
      // The engine's retained lists (open ones, and ended ones while a leg is retained), oldest first.
      const lists = engine
        .orderLists(userOf(req), false)
        .filter(
          (l) =>
            (fromId === undefined || idNumber(l.orderList.orderListId) >= idNumber(fromId)) &&
            (start === undefined || l.orderList.createdTs >= start) &&
            (end === undefined || l.orderList.createdTs <= end),
        );
      return (fromId === undefined && start === undefined ? lists.slice(-limit) : lists.slice(0, limit)).map(orderListStatus);
    },
  );
}
