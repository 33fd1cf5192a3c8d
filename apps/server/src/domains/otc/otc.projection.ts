/**
 * The peer-to-peer fiat (OTC) projection (platform/engine-host/projection.ts): rows of the OTC events
 * (otcMerchantChanged, otcAdChanged, otcOrderChanged) for the tables of otc.tables.ts. Each event carries
 * the record after the change, so a row is the record's last state: upserted by key, never an older state over a newer
 * one (`seq`). Operator actions carry their audit record (`audit`), written to the audit log in the same batch.
 * otcConfigured has no table (the engine's config is read from the engine).
 */
import type { OtcAdView, OtcMerchantView, OtcOrderView } from '@exchange/core';
import { projectedTable } from '../../platform/db/projection-types';
import { otcAds, otcMerchants, otcOrders } from './otc.tables';
import { AUDIT_TABLE, auditRow, decimalOrNull, type DomainProjection } from '../../platform/engine-host/projection';

export const OTC_MERCHANTS_TABLE = projectedTable(otcMerchants, {
  key: ['userId'],
  mode: 'upsert',
  set: ['state', 'deposit', 'operatorId', 'reason', 'createdTs', 'updatedTs', 'seq'],
  newer: { field: 'seq' },
});
export const OTC_ADS_TABLE = projectedTable(otcAds, {
  key: ['id'],
  mode: 'upsert',
  set: ['priceType', 'price', 'floatPpm', 'minFiat', 'maxFiat', 'paymentWindowMs', 'totalQty', 'remainingQty', 'status', 'meta', 'updatedTs', 'seq'],
  newer: { field: 'seq' },
});
export const OTC_ORDERS_TABLE = projectedTable(otcOrders, {
  key: ['id'],
  mode: 'upsert',
  set: ['state', 'paidTs', 'appealBy', 'appealTs', 'endReason', 'resolvedBy', 'reason', 'meta', 'updatedTs', 'seq'],
  newer: { field: 'seq' },
});

/** The otc_merchants row of a merchant state at journal position `seq`. */
export function otcMerchantRow(m: OtcMerchantView, seq: number): typeof otcMerchants.$inferInsert {
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
export function otcAdRow(a: OtcAdView, seq: number): typeof otcAds.$inferInsert {
  return {
    id: BigInt(a.adId),
    userId: a.userId,
    side: a.side,
    asset: a.asset,
    fiat: a.fiat,
    priceType: a.priceType,
    price: decimalOrNull(a.price),
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
export function otcOrderRow(o: OtcOrderView, seq: number): typeof otcOrders.$inferInsert {
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

export const otcProjection: DomainProjection = {
  tables: [OTC_MERCHANTS_TABLE, OTC_ADS_TABLE, OTC_ORDERS_TABLE, AUDIT_TABLE],
  start: () => (seq, events, out) => {
    for (const ev of events) {
      let target: string;
      if (ev.type === 'otcMerchantChanged') {
        out.put(OTC_MERCHANTS_TABLE, otcMerchantRow(ev.merchant, seq));
        target = ev.merchant.userId;
      } else if (ev.type === 'otcAdChanged') {
        out.put(OTC_ADS_TABLE, otcAdRow(ev.ad, seq));
        target = ev.ad.userId;
      } else if (ev.type === 'otcOrderChanged') {
        out.put(OTC_ORDERS_TABLE, otcOrderRow(ev.order, seq));
        target = ev.order.takerId;
      } else continue;
      if (ev.audit !== undefined) out.put(AUDIT_TABLE, auditRow(target, ev.audit, seq, ev.ts));
    }
  },
};
