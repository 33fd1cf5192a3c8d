/**
 * The spot orders' projection (platform/engine-host/projection.ts): every order state of a registered user, upserted
 * by id (the last state wins, never an older one over a newer), and every fill, inserted once by trade id (fills of
 * the liquidity bots too: the market's trade history).
 */
import type { OrderView, TradeEvent } from '@exchange/core';
import { projectedTable } from '../../platform/db/projection-types';
import { spotOrders, spotTrades } from './spot.tables';
import { CLOSED_ORDER_STATUSES, decimalOrNull, isProjectedUser, type DomainProjection } from '../../platform/engine-host/projection';

export const SPOT_TRADES_TABLE = projectedTable(spotTrades, { key: ['id'], mode: 'once' });
export const SPOT_ORDERS_TABLE = projectedTable(spotOrders, {
  key: ['id'],
  mode: 'upsert',
  set: ['filledQty', 'filledQuote', 'fee', 'status', 'closed', 'updatedTs', 'seq', 'workingTs', 'expireReason'],
  newer: { field: 'seq' },
});

/** The spot_orders row of an order state at journal position `seq` (a conditional order's trigger in its stop_* columns). */
export function spotOrderRow(o: OrderView, seq: number): typeof spotOrders.$inferInsert {
  const t = o.trigger;
  return {
    id: BigInt(o.orderId),
    clientOrderId: o.clientOrderId,
    userId: o.userId,
    symbol: o.symbol,
    side: o.side,
    orderType: o.orderType,
    timeInForce: o.timeInForce,
    price: decimalOrNull(o.price),
    quantity: decimalOrNull(o.quantity),
    quoteAmount: decimalOrNull(o.quoteAmount),
    filledQty: o.filledQty.toString(),
    filledQuote: o.filledQuote.toString(),
    fee: o.fee.toString(),
    feeAsset: o.feeAsset,
    status: o.status,
    closed: CLOSED_ORDER_STATUSES.has(o.status),
    createdTs: o.createdTs,
    updatedTs: o.updatedTs,
    seq,
    stopKind: t?.kind ?? null,
    stopPrice: t ? decimalOrNull(t.stopPrice) : null,
    trailingDelta: t?.trailingDelta ?? null,
    workingTs: t?.workingTs ?? null,
    expireReason: t?.expireReason ?? null,
    orderListId: o.orderListId === undefined ? null : BigInt(o.orderListId),
  };
}

/** The spot_trades row of a fill at journal position `seq`. */
export function spotTradeRow(t: TradeEvent, seq: number): typeof spotTrades.$inferInsert {
  return {
    id: BigInt(t.tradeId),
    symbol: t.symbol,
    price: t.price.toString(),
    quantity: t.quantity.toString(),
    quoteAmount: t.quoteAmount.toString(),
    takerSide: t.takerSide,
    makerOrderId: BigInt(t.makerOrderId),
    takerOrderId: BigInt(t.takerOrderId),
    makerUserId: t.makerUserId,
    takerUserId: t.takerUserId,
    makerFee: t.makerFee.toString(),
    makerFeeAsset: t.makerFeeAsset,
    takerFee: t.takerFee.toString(),
    takerFeeAsset: t.takerFeeAsset,
    ts: t.ts,
    seq,
  };
}

export const spotProjection: DomainProjection = {
  tables: [SPOT_TRADES_TABLE, SPOT_ORDERS_TABLE],
  start: () => (seq, events, out) => {
    for (const ev of events) {
      if (ev.type === 'trade') out.put(SPOT_TRADES_TABLE, spotTradeRow(ev, seq));
      else if ((ev.type === 'orderAccepted' || ev.type === 'orderUpdated') && isProjectedUser(ev.order.userId)) {
        out.put(SPOT_ORDERS_TABLE, spotOrderRow(ev.order, seq));
      }
    }
  },
};
