/**
 * The perpetual contracts' projection (platform/engine-host/projection.ts): rows of the perp events for the tables of
 * contract.tables.ts. Orders upserted by id (last state wins, never an older one over a newer), fills
 * inserted once by trade id, closed positions, funding payments, markets' settled funding rates and liquidations
 * inserted once by their keys (so the funding history is rebuilt from the journal with the rest). Orders, positions,
 * funding and liquidations of non-numeric users (liquidity bots, '@insurance') are not projected; fills always are.
 */
import type { PerpOrderView, PositionView } from '@exchange/core';
import { projectedTable } from '../../platform/db/projection-types';
import { perpFundingPayments, perpFundingRates, perpLiquidations, perpOrders, perpPositionHistory, perpTrades } from './perp.tables';
import { CLOSED_ORDER_STATUSES, decimalOrNull, isProjectedUser, type DomainProjection } from '../../platform/engine-host/projection';

export const PERP_TRADES_TABLE = projectedTable(perpTrades, { key: ['id'], mode: 'once' });
export const PERP_ORDERS_TABLE = projectedTable(perpOrders, {
  key: ['id'],
  mode: 'upsert',
  // quantity: a closePosition order takes the position's size at its trigger; the cond_* columns that move later.
  set: [
    'quantity',
    'filledQty',
    'filledQuote',
    'fee',
    'realizedPnl',
    'hold',
    'status',
    'closed',
    'updatedTs',
    'seq',
    'condTrailingRef',
    'condWorkingTs',
    'condExpireReason',
  ],
  newer: { field: 'seq' },
});
/** A closed position (positionChanged with size 0), once per journal position, user and market. */
export const PERP_POSITIONS_TABLE = projectedTable(perpPositionHistory, { key: ['seq', 'userId', 'symbol'], mode: 'once' });
export const PERP_FUNDING_TABLE = projectedTable(perpFundingPayments, { key: ['userId', 'symbol', 'fundingTs'], mode: 'once' });
/** A market's settled funding (fundingSettled): once by (symbol, fundingTs). */
export const PERP_FUNDING_RATES_TABLE = projectedTable(perpFundingRates, { key: ['symbol', 'fundingTs'], mode: 'once' });
export const PERP_LIQUIDATIONS_TABLE = projectedTable(perpLiquidations, { key: ['seq', 'userId', 'symbol'], mode: 'once' });

/** The perp_orders row of an order state at journal position `seq` (a conditional order's condition in its cond_* columns). */
export function perpOrderRow(o: PerpOrderView, seq: number): typeof perpOrders.$inferInsert {
  const c = o.condition;
  return {
    id: BigInt(o.orderId),
    clientOrderId: o.clientOrderId,
    userId: o.userId,
    symbol: o.symbol,
    side: o.side,
    orderType: o.orderType,
    timeInForce: o.timeInForce,
    price: decimalOrNull(o.price),
    quantity: o.quantity.toString(),
    lots: o.lots,
    reduceOnly: o.reduceOnly,
    tradeType: o.tradeType,
    trigger: o.trigger,
    leverage: o.leverage,
    marginMode: o.marginMode,
    filledQty: o.filledQty.toString(),
    filledQuote: o.filledQuote.toString(),
    fee: o.fee.toString(),
    realizedPnl: o.realizedPnl.toString(),
    hold: o.hold.toString(),
    takeProfit: decimalOrNull(o.takeProfit),
    stopLoss: decimalOrNull(o.stopLoss),
    status: o.status,
    closed: CLOSED_ORDER_STATUSES.has(o.status),
    createdTs: o.createdTs,
    updatedTs: o.updatedTs,
    seq,
    condType: c?.type ?? null,
    condStopPrice: c ? decimalOrNull(c.stopPrice) : null,
    condWorkingType: c?.workingType ?? null,
    condPriceProtect: c?.priceProtect ?? null,
    condClosePosition: c?.closePosition ?? null,
    condCallbackRateBps: c?.callbackRateBps ?? null,
    condActivationPrice: c ? decimalOrNull(c.activationPrice) : null,
    condTrailingRef: c ? decimalOrNull(c.trailingRef) : null,
    condWorkingTs: c?.workingTs ?? null,
    condExpireReason: c?.expireReason ?? null,
  };
}

/**
 * The row of a closed position (positionChanged with size 0) at journal position `seq`. The closing view's entry
 * price is 0 (no size left): `entryPrice` is the last one seen while it was open, when known.
 */
export function perpPositionRow(p: PositionView, seq: number, ts: number, entryPrice?: bigint): typeof perpPositionHistory.$inferInsert {
  return {
    userId: p.userId,
    symbol: p.symbol,
    side: p.side,
    marginMode: p.marginMode,
    leverage: p.leverage,
    entryPrice: (p.size === 0n && entryPrice !== undefined ? entryPrice : p.entryPrice).toString(),
    realizedPnl: p.realizedPnl.toString(),
    funding: p.funding.toString(),
    fees: p.fees.toString(),
    openTs: p.openTs,
    closeTs: ts,
    seq,
  };
}

export const perpProjection: DomainProjection = {
  tables: [PERP_TRADES_TABLE, PERP_ORDERS_TABLE, PERP_POSITIONS_TABLE, PERP_FUNDING_TABLE, PERP_FUNDING_RATES_TABLE, PERP_LIQUIDATIONS_TABLE],
  start: () => {
    /**
     * Entry price of each open position of a user (user:symbol), kept across batches for the closed-position row (a
     * position opened before the process started and closed after it has entry price 0 in its row).
     */
    const entries = new Map<string, bigint>();
    return (seq, events, out) => {
      for (const ev of events) {
        switch (ev.type) {
          case 'perpOrderAccepted':
          case 'perpOrderUpdated':
            if (isProjectedUser(ev.order.userId)) out.put(PERP_ORDERS_TABLE, perpOrderRow(ev.order, seq));
            break;
          case 'perpTrade':
            out.put(PERP_TRADES_TABLE, {
              id: BigInt(ev.tradeId),
              symbol: ev.symbol,
              kind: ev.kind,
              price: ev.price.toString(),
              quantity: ev.quantity.toString(),
              quoteAmount: ev.quoteAmount.toString(),
              takerSide: ev.takerSide,
              makerOrderId: ev.makerOrderId === null ? null : BigInt(ev.makerOrderId),
              takerOrderId: ev.takerOrderId === null ? null : BigInt(ev.takerOrderId),
              makerUserId: ev.makerUserId,
              takerUserId: ev.takerUserId,
              makerFee: ev.makerFee.toString(),
              takerFee: ev.takerFee.toString(),
              makerRealizedPnl: ev.makerRealizedPnl.toString(),
              takerRealizedPnl: ev.takerRealizedPnl.toString(),
              ts: ev.ts,
              seq,
            });
            break;
          case 'positionChanged': {
            const p = ev.position;
            if (!isProjectedUser(p.userId)) break;
            const key = `${p.userId}:${p.symbol}`;
            if (p.size !== 0n) {
              entries.set(key, p.entryPrice);
              break;
            }
            out.put(PERP_POSITIONS_TABLE, perpPositionRow(p, seq, ev.ts, entries.get(key)));
            entries.delete(key);
            break;
          }
          case 'fundingPayment':
            if (isProjectedUser(ev.userId)) {
              out.put(PERP_FUNDING_TABLE, {
                userId: ev.userId,
                symbol: ev.symbol,
                fundingTs: ev.fundingTs,
                rateE8: ev.rateE8,
                amount: ev.amount.toString(),
                ts: ev.ts,
                seq,
              });
            }
            break;
          case 'fundingSettled':
            out.put(PERP_FUNDING_RATES_TABLE, {
              symbol: ev.symbol,
              fundingTs: ev.fundingTs,
              rateE8: ev.rateE8,
              markPrice: ev.markPrice.toString(),
              paid: ev.paid.toString(),
              received: ev.received.toString(),
              positions: ev.positions,
              ts: ev.ts,
            });
            break;
          case 'liquidated':
            if (isProjectedUser(ev.userId)) {
              out.put(PERP_LIQUIDATIONS_TABLE, {
                userId: ev.userId,
                symbol: ev.symbol,
                marginMode: ev.marginMode,
                side: ev.side,
                size: ev.size.toString(),
                markPrice: ev.markPrice.toString(),
                equity: ev.equity.toString(),
                insuranceDelta: ev.insuranceDelta.toString(),
                ts: ev.ts,
                seq,
              });
            }
            break;
          default:
            break;
        }
      }
    };
  },
};
