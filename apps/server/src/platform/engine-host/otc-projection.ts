/**
 * The peer-to-peer fiat (OTC) part of the projection: rows of the OTC events (otcMerchantChanged,
 * otcAdChanged, otcOrderChanged) for the tables of platform/db/schema/otc.ts, buffered by the projector (projector.ts) and
 * written in its batches (projection-store.ts). Each event carries the record after the change, so a row is the
 * record's last state: upserted by key, never an older state over a newer one (`seq`). Operator actions carry their
 * audit record (`audit`): the projector writes it to the audit log in the same batch. otcConfigured has no table (the
 * engine's config is read from the engine).
 */
import type { EngineEvent, OtcAdView, OtcMerchantView, OtcOrderView } from '@exchange/core';
import type { OtcAdRow, OtcBatch, OtcMerchantRow, OtcOrderRow } from '../db/projection-types';

const s = (v: bigint | null) => (v === null ? null : v.toString());

/** The otc_merchants row of a merchant state at journal position `seq`. */
export function otcMerchantRow(m: OtcMerchantView, seq: number): OtcMerchantRow {
  return {
    userId: m.userId,
    state: m.state,
    deposit: m.deposit.toString(),
    operatorId: m.operatorId,
    reason: m.reason,
    createdTs: m.createdTs,
    updatedTs: m.updatedTs,
    seq,
  };
}

/** The otc_ads row of an ad state at journal position `seq` (meta as JSON text). */
export function otcAdRow(a: OtcAdView, seq: number): OtcAdRow {
  return {
    id: BigInt(a.adId),
    userId: a.userId,
    side: a.side,
    asset: a.asset,
    fiat: a.fiat,
    priceType: a.priceType,
    price: s(a.price),
    floatPpm: a.floatPpm,
    minFiat: a.minFiat.toString(),
    maxFiat: a.maxFiat.toString(),
    paymentWindowMs: a.paymentWindowMs,
    totalQty: a.totalQty.toString(),
    remainingQty: a.remainingQty.toString(),
    status: a.status,
    meta: JSON.stringify(a.meta),
    createdTs: a.createdTs,
    updatedTs: a.updatedTs,
    seq,
  };
}

/** The otc_orders row of an order state at journal position `seq` (meta as JSON text). */
export function otcOrderRow(o: OtcOrderView, seq: number): OtcOrderRow {
  return {
    id: BigInt(o.orderId),
    clientId: o.clientId,
    adId: BigInt(o.adId),
    makerId: o.makerId,
    takerId: o.takerId,
    buyerId: o.buyerId,
    sellerId: o.sellerId,
    asset: o.asset,
    fiat: o.fiat,
    price: o.price.toString(),
    quantity: o.quantity.toString(),
    fiatAmount: o.fiatAmount.toString(),
    state: o.state,
    createdTs: o.createdTs,
    deadlineTs: o.deadlineTs,
    paidTs: o.paidTs,
    appealBy: o.appealBy,
    appealTs: o.appealTs,
    endReason: o.endReason,
    resolvedBy: o.resolvedBy,
    reason: o.reason,
    meta: JSON.stringify(o.meta),
    updatedTs: o.updatedTs,
    seq,
  };
}

/** Buffer of the OTC rows between two writes of the projector (last state per key). */
export class OtcBuffer {
  merchants = new Map<string, OtcMerchantRow>();
  ads = new Map<string, OtcAdRow>();
  orders = new Map<string, OtcOrderRow>();

  /** Buffers the row of one event of command `seq`; returns how many rows it added (0 for other events). */
  push(seq: number, ev: EngineEvent): number {
    switch (ev.type) {
      case 'otcMerchantChanged':
        this.merchants.set(ev.merchant.userId, otcMerchantRow(ev.merchant, seq));
        return 1;
      case 'otcAdChanged':
        this.ads.set(ev.ad.adId, otcAdRow(ev.ad, seq));
        return 1;
      case 'otcOrderChanged':
        this.orders.set(ev.order.orderId, otcOrderRow(ev.order, seq));
        return 1;
      default:
        return 0;
    }
  }

  /** Takes the buffered rows as a batch part (undefined when empty) and empties the buffer. */
  take(): OtcBatch | undefined {
    const b: OtcBatch = { merchants: [...this.merchants.values()], ads: [...this.ads.values()], orders: [...this.orders.values()] };
    this.merchants = new Map();
    this.ads = new Map();
    this.orders = new Map();
    return otcBatchSize(b) === 0 ? undefined : b;
  }

  /** Puts a batch part that failed to write back under anything newer buffered meanwhile; returns its row count. */
  restore(b: OtcBatch | undefined): number {
    if (b === undefined) return 0;
    for (const r of b.merchants) if (!this.merchants.has(r.userId)) this.merchants.set(r.userId, r);
    for (const r of b.ads) if (!this.ads.has(String(r.id))) this.ads.set(String(r.id), r);
    for (const r of b.orders) if (!this.orders.has(String(r.id))) this.orders.set(String(r.id), r);
    return otcBatchSize(b);
  }
}

/** Number of rows of a batch part. */
export function otcBatchSize(b: OtcBatch): number {
  return b.merchants.length + b.ads.length + b.orders.length;
}
