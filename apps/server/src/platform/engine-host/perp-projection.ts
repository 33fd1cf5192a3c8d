/**
 * The perpetual contracts' part of the projection: rows of the perp events for the tables of
 * platform/db/schema/contract.ts, buffered by the projector (projector.ts) and written in its batches (projection-store.ts).
 * Same rules as the spot rows: orders upserted by id (last state wins, never an older one over a newer), fills
 * inserted once by trade id, closed positions, funding payments, markets' settled funding rates and liquidations
 * inserted once by their keys (so the funding history is rebuilt from the journal with the rest). Orders,
 * positions, funding and liquidations of non-numeric users (liquidity bots, '@insurance') are not projected; fills
 * always are.
 */
import type { EngineEvent, PerpOrderView, PositionView } from '@exchange/core';
import type { PerpBatch, PerpFundingRateRow, PerpFundingRow, PerpLiquidationRow, PerpOrderRow, PerpPositionRow, PerpTradeRow } from '../db/projection-types';

const CLOSED: ReadonlySet<string> = new Set(['FILLED', 'CANCELED', 'EXPIRED']);
const isUser = (id: string) => /^[0-9]+$/.test(id);
const s = (v: bigint | null) => (v === null ? null : v.toString());

/** The perp_orders row of an order state at journal position `seq`. */
export function perpOrderRow(o: PerpOrderView, seq: number): PerpOrderRow {
  return {
    id: BigInt(o.orderId),
    clientOrderId: o.clientOrderId,
    userId: o.userId,
    symbol: o.symbol,
    side: o.side,
    orderType: o.orderType,
    timeInForce: o.timeInForce,
    price: s(o.price),
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
    takeProfit: s(o.takeProfit),
    stopLoss: s(o.stopLoss),
    status: o.status,
    closed: CLOSED.has(o.status),
    createdTs: o.createdTs,
    updatedTs: o.updatedTs,
    seq,
  };
}

/**
 * The row of a closed position (positionChanged with size 0) at journal position `seq`. The closing view's entry
 * price is 0 (no size left): `entryPrice` is the last one seen while it was open, when known.
 */
export function perpPositionRow(p: PositionView, seq: number, ts: number, entryPrice?: bigint): PerpPositionRow {
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

/** Buffer of the perp rows between two writes of the projector. */
export class PerpBuffer {
  orders = new Map<string, PerpOrderRow>();
  trades: PerpTradeRow[] = [];
  positions: PerpPositionRow[] = [];
  funding: PerpFundingRow[] = [];
  liquidations: PerpLiquidationRow[] = [];
  rates: PerpFundingRateRow[] = [];
  /**
   * Entry price of each open position of a user (user:symbol), kept across batches for the closed-position row (a
   * position opened before the process started and closed after it has entry price 0 in its row).
   */
  private readonly entries = new Map<string, bigint>();

  /** Buffers the rows of one event of command `seq`; returns how many rows it added (0 for other events). */
  push(seq: number, ev: EngineEvent): number {
    switch (ev.type) {
      case 'perpOrderAccepted':
      case 'perpOrderUpdated':
        if (!isUser(ev.order.userId)) return 0;
        this.orders.set(ev.order.orderId, perpOrderRow(ev.order, seq));
        return 1;
      case 'perpTrade':
        this.trades.push({
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
        return 1;
      case 'positionChanged': {
        const p = ev.position;
        if (!isUser(p.userId)) return 0;
        const key = `${p.userId}:${p.symbol}`;
        if (p.size !== 0n) {
          this.entries.set(key, p.entryPrice);
          return 0;
        }
        this.positions.push(perpPositionRow(p, seq, ev.ts, this.entries.get(key)));
        this.entries.delete(key);
        return 1;
      }
      case 'fundingPayment':
        if (!isUser(ev.userId)) return 0;
        this.funding.push({ userId: ev.userId, symbol: ev.symbol, fundingTs: ev.fundingTs, rateE8: ev.rateE8, amount: ev.amount.toString(), ts: ev.ts, seq });
        return 1;
      case 'fundingSettled':
        this.rates.push({
          symbol: ev.symbol,
          fundingTs: ev.fundingTs,
          rateE8: ev.rateE8,
          markPrice: ev.markPrice.toString(),
          paid: ev.paid.toString(),
          received: ev.received.toString(),
          positions: ev.positions,
          ts: ev.ts,
        });
        return 1;
      case 'liquidated':
        if (!isUser(ev.userId)) return 0;
        this.liquidations.push({
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
        return 1;
      default:
        return 0;
    }
  }

  /** Takes the buffered rows as a batch part (undefined when empty) and empties the buffer. */
  take(): PerpBatch | undefined {
    const b: PerpBatch = {
      orders: [...this.orders.values()],
      trades: this.trades,
      positions: this.positions,
      funding: this.funding,
      liquidations: this.liquidations,
      rates: this.rates,
    };
    this.rates = [];
    this.orders = new Map();
    this.trades = [];
    this.positions = [];
    this.funding = [];
    this.liquidations = [];
    return perpBatchSize(b) === 0 ? undefined : b;
  }

  /** Puts a batch part that failed to write back under anything newer buffered meanwhile; returns its row count. */
  restore(b: PerpBatch | undefined): number {
    if (b === undefined) return 0;
    for (const r of b.orders) if (!this.orders.has(String(r.id))) this.orders.set(String(r.id), r);
    this.trades = b.trades.concat(this.trades);
    this.positions = b.positions.concat(this.positions);
    this.funding = b.funding.concat(this.funding);
    this.liquidations = b.liquidations.concat(this.liquidations);
    this.rates = (b.rates ?? []).concat(this.rates);
    return perpBatchSize(b);
  }
}

/** Number of rows of a batch part. */
export function perpBatchSize(b: PerpBatch): number {
  return b.orders.length + b.trades.length + b.positions.length + b.funding.length + b.liquidations.length + (b.rates?.length ?? 0);
}
