/**
 * Engine order/trade values -> the wire shapes Entrust, Fill and UserTrade (packages/api schemas.ts). Engine integers
 * are formatted with the market's decimals: prices at priceDecimals, quantities at qtyDecimals, quote
 * amounts at the quote asset's scale, fees at the fee asset's scale. Averages are rounded down.
 */
import { formatDecimal, type OrderListView, type OrderView, type RejectCode, type StopKind } from '@exchange/core';
import type { Entrust, Fill, OcoEntrust, OcoLegRole, TriggerState, UserTrade } from '@exchange/api';
import type { spotOrders, spotTrades } from './spot.tables';
import type { UserTradeRow } from './spot.repository';
import { averagePrice, type MarketScales } from '../../platform/shared/market-scales';

/** An engine order as the API's Entrust. */
export function toEntrust(o: OrderView, s: MarketScales): Entrust {
  const { priceDecimals, qtyDecimals } = s.market;
  const avg = averagePrice(o.filledQuote, o.filledQty, s);
  return {
    id: o.orderId,
    clientOrderId: o.clientOrderId ?? '',
    pairsName: o.symbol,
    side: o.side,
    orderType: o.orderType,
    timeInForce: o.timeInForce,
    price: o.price === null ? '' : formatDecimal(o.price, priceDecimals),
    amount: o.quantity === null ? '' : formatDecimal(o.quantity, qtyDecimals),
    total: o.quoteAmount === null ? '' : formatDecimal(o.quoteAmount, s.quoteScale),
    dealAmount: formatDecimal(o.filledQty, qtyDecimals),
    dealTotal: formatDecimal(o.filledQuote, s.quoteScale),
    avgPrice: avg === null ? '' : formatDecimal(avg, priceDecimals),
    fee: formatDecimal(o.fee, s.scaleOf(o.feeAsset)),
    feeCur: o.feeAsset,
    status: o.status,
    createTime: o.createdTs,
    updateTime: o.updatedTs,
    ...triggerFields(o, priceDecimals),
    orderListId: o.orderListId ?? '',
    listLeg: listLeg(o),
  };
}

/**
 * The role of an order in its OCO list (packages/api OcoLegRole): STOP_LOSS for the leg with a stop-loss trigger,
 * TAKE_PROFIT for the other (a limit maker leg, or a take-profit trigger leg of a list placed through the Binance API),
 * '' outside a list. Every OCO has exactly one stop-loss leg (docs/conditional-orders.md, OCO: the leg types by side).
 */
export function listLeg(o: Pick<OrderView, 'orderListId' | 'trigger'>): OcoLegRole {
  if (o.orderListId === undefined) return '';
  return o.trigger?.kind === 'STOP_LOSS' ? 'STOP_LOSS' : 'TAKE_PROFIT';
}

/** An engine order list with its legs as the API's OcoEntrust: the take-profit leg first, then the stop-loss leg. */
export function toOcoEntrust(list: OrderListView, legs: readonly OrderView[], s: MarketScales): OcoEntrust {
  const orders = legs.map((o) => toEntrust(o, s)).sort((a, b) => (a.listLeg === b.listLeg ? 0 : a.listLeg === 'TAKE_PROFIT' ? -1 : 1));
  return {
    orderListId: list.orderListId,
    clientOrderId: list.listClientOrderId ?? '',
    pairsName: list.symbol,
    side: list.side,
    listStatus: list.listOrderStatus === 'EXECUTING' ? 'EXECUTING' : 'ALL_DONE',
    createTime: list.createdTs,
    updateTime: list.updatedTs,
    orders,
  };
}

/** The trigger state of an order (packages/api TriggerState; docs/conditional-orders.md "The command and the view"). */
export function triggerState(o: OrderView): TriggerState {
  const t = o.trigger;
  if (t === undefined) return 'NONE';
  if (t.expireReason !== null) return 'EXPIRED_AT_TRIGGER';
  return t.workingTs === null ? 'PENDING' : 'TRIGGERED';
}

/** The conditional part of an Entrust: '' / 0 for an ordinary order; the stop price at priceDecimals. */
function triggerFields(
  o: OrderView,
  priceDecimals: number,
): Pick<Entrust, 'stopType' | 'stopPrice' | 'trailingDelta' | 'triggerState' | 'workingTime' | 'expireReason'> {
  const t = o.trigger;
  return {
    stopType: t?.kind ?? '',
    stopPrice: t?.stopPrice == null ? '' : formatDecimal(t.stopPrice, priceDecimals),
    trailingDelta: t?.trailingDelta ?? 0,
    triggerState: triggerState(o),
    workingTime: t?.workingTs ?? 0,
    expireReason: t?.expireReason ?? '',
  };
}

/** A projected order row back into the engine's OrderView (integers from numeric strings). */
export function rowToOrderView(r: typeof spotOrders.$inferSelect): OrderView {
  const big = (v: string | null) => (v === null ? null : BigInt(v));
  return {
    orderId: r.id.toString(),
    clientOrderId: r.clientOrderId,
    userId: r.userId,
    symbol: r.symbol,
    side: r.side as OrderView['side'],
    orderType: r.orderType as OrderView['orderType'],
    timeInForce: r.timeInForce as OrderView['timeInForce'],
    price: big(r.price),
    quantity: big(r.quantity),
    quoteAmount: big(r.quoteAmount),
    filledQty: BigInt(r.filledQty),
    filledQuote: BigInt(r.filledQuote),
    fee: BigInt(r.fee),
    feeAsset: r.feeAsset,
    status: r.status as OrderView['status'],
    createdTs: r.createdTs,
    updatedTs: r.updatedTs,
    ...rowTrigger(r),
    ...(r.orderListId !== null ? { orderListId: r.orderListId.toString() } : {}),
  };
}

/** The trigger part of a projected row (its stop_kind set only for a conditional order; trailingRef is not projected). */
function rowTrigger(r: typeof spotOrders.$inferSelect): Pick<OrderView, 'trigger'> {
  if (r.stopKind === null) return {};
  return {
    trigger: {
      kind: r.stopKind as StopKind,
      stopPrice: r.stopPrice === null ? null : BigInt(r.stopPrice),
      trailingDelta: r.trailingDelta,
      trailingRef: null,
      workingTs: r.workingTs,
      expireReason: r.expireReason as RejectCode | null,
    },
  };
}

/** One projected trade as a Fill of order `orderId` (MAKER or TAKER side of it). */
export function toFill(t: typeof spotTrades.$inferSelect, orderId: string, s: MarketScales): Fill {
  const maker = t.makerOrderId.toString() === orderId;
  const fee = BigInt(maker ? t.makerFee : t.takerFee);
  const feeCur = maker ? t.makerFeeAsset : t.takerFeeAsset;
  return {
    tradeId: t.id.toString(),
    price: formatDecimal(BigInt(t.price), s.market.priceDecimals),
    amount: formatDecimal(BigInt(t.quantity), s.market.qtyDecimals),
    total: formatDecimal(BigInt(t.quoteAmount), s.quoteScale),
    fee: formatDecimal(fee, s.scaleOf(feeCur)),
    feeCur,
    role: maker ? 'MAKER' : 'TAKER',
    time: t.ts,
  };
}

/**
 * One user's side of a projected trade as the API's UserTrade: that user's order, side (the taker's side, or
 * its opposite for the maker), role and fee; formatted like toFill.
 */
export function toUserTrade(t: UserTradeRow, s: MarketScales): UserTrade {
  const takerSide = t.takerSide === 'SELL' ? 'SELL' : 'BUY';
  const side = t.role === 'TAKER' ? takerSide : takerSide === 'BUY' ? 'SELL' : 'BUY';
  return {
    tradeId: t.id.toString(),
    orderId: t.orderId.toString(),
    pairsName: t.symbol,
    side,
    price: formatDecimal(BigInt(t.price), s.market.priceDecimals),
    amount: formatDecimal(BigInt(t.quantity), s.market.qtyDecimals),
    total: formatDecimal(BigInt(t.quoteAmount), s.quoteScale),
    fee: formatDecimal(BigInt(t.fee), s.scaleOf(t.feeAsset)),
    feeCur: t.feeAsset,
    role: t.role,
    time: t.ts,
  };
}
