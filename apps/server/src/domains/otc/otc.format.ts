/**
 * Units and wire shapes of peer-to-peer fiat trading (packages/api otc.ts): fiat amounts and prices are engine
 * integers in cents shown with 2 decimals, coins at the asset's scale, floating rates in ppm shown as a percentage
 * with 2 decimals; rows of the projection (otc.repository.ts) back into the engine's views; the `meta` fields the
 * server keeps in the engine's ads and orders (file comment of otc.service.ts lists them).
 */
import { formatDecimal, OTC_FIAT_DECIMALS, tryParseDecimal, type OtcAdView, type OtcMerchantView, type OtcOrderView } from '@exchange/core';
import type { OtcOrder } from '@exchange/api';
import { AppError } from '../../platform/shared/errors';
import type { OtcAdRecord, OtcMerchantRecord, OtcOrderRecord } from './otc.repository';

/** The payment time limits an ad may choose, minutes (Binance P2P's; the default is 15). */
export const OTC_PAYMENT_WINDOWS_MIN = [15, 30, 45, 60, 120] as const;

/** Fiat cents as a decimal string with 2 decimals ("720.00"). */
export function fiatText(cents: bigint): string {
  return formatDecimal(cents, OTC_FIAT_DECIMALS);
}

/** Coin units at `scale` as a decimal string ("100.00000000"). */
export function coinText(units: bigint, scale: number): string {
  return formatDecimal(units, scale);
}

/** A floating rate in ppm of the index as a percentage with 2 decimals (1_015_000 -> "101.50"). */
export function percentText(ppm: number): string {
  return formatDecimal(BigInt(ppm) / 100n, 2);
}

/** A decimal string of at most `decimals` decimals as integer units; AppError (field) when it is not one or is 0. */
export function positiveUnits(value: string, decimals: number, field: string): bigint {
  const r = tryParseDecimal(value, decimals);
  if (!r.ok) throw new AppError(r.error === 'too_many_decimals' ? 'too_many_decimals' : 'validation_failed', 400, field);
  if (r.value <= 0n) throw new AppError('amount_invalid', 400, field);
  return r.value;
}

/** The percentage ("101.50") of a floating ad as ppm of the index (1_015_000). */
export function percentPpm(value: string): number {
  const r = tryParseDecimal(value, 2);
  if (!r.ok) throw new AppError('otc_price_invalid', 400, 'floatPercent');
  return Number(r.value) * 100;
}

/**
 * The USDT index in CNY cents: config.usdtCnyRate (the rate the asset pages use today, asset.service.ts) rounded half
 * up to a cent. Floating ads are priced from it (packages/core otcFloatPrice).
 */
export function indexCents(usdtCnyRate: string): bigint {
  const r = tryParseDecimal(usdtCnyRate, 8);
  if (!r.ok) throw new Error(`usdtCnyRate "${usdtCnyRate}" is not a decimal`);
  return (r.value + 500_000n) / 1_000_000n;
}

/** Splits a comma-separated list or an array of ids into unique non-empty strings. */
export function idList(v: string | readonly string[] | undefined): string[] {
  const parts = v === undefined ? [] : typeof v === 'string' ? v.split(',') : [...v];
  return [...new Set(parts.map((s) => s.trim()).filter((s) => s !== ''))];
}

/** A JSON object of strings (a projected `meta` column); {} when it is not one. */
export function metaOf(json: string): Record<string, string> {
  try {
    const v = JSON.parse(json) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** A projected merchant row as the engine's view. */
export function merchantOfRow(r: OtcMerchantRecord): OtcMerchantView {
  return {
    userId: r.userId,
    state: r.state as OtcMerchantView['state'],
    deposit: BigInt(r.deposit),
    operatorId: r.operatorId,
    reason: r.reason,
    createdTs: r.createdTs,
    updatedTs: r.updatedTs,
  };
}

/** A projected ad row as the engine's view. */
export function adOfRow(r: OtcAdRecord): OtcAdView {
  return {
    adId: r.id.toString(),
    userId: r.userId,
    side: r.side as OtcAdView['side'],
    asset: r.asset,
    fiat: r.fiat,
    priceType: r.priceType as OtcAdView['priceType'],
    price: r.price === null ? null : BigInt(r.price),
    floatPpm: r.floatPpm,
    minFiat: BigInt(r.minFiat),
    maxFiat: BigInt(r.maxFiat),
    paymentWindowMs: r.paymentWindowMs,
    totalQty: BigInt(r.totalQty),
    remainingQty: BigInt(r.remainingQty),
    status: r.status as OtcAdView['status'],
    meta: metaOf(r.meta),
    createdTs: r.createdTs,
    updatedTs: r.updatedTs,
  };
}

/** A projected order row as the engine's view. */
export function orderOfRow(r: OtcOrderRecord): OtcOrderView {
  return {
    orderId: r.id.toString(),
    clientId: r.clientId,
    adId: r.adId.toString(),
    makerId: r.makerId,
    takerId: r.takerId,
    buyerId: r.buyerId,
    sellerId: r.sellerId,
    asset: r.asset,
    fiat: r.fiat,
    price: BigInt(r.price),
    quantity: BigInt(r.quantity),
    fiatAmount: BigInt(r.fiatAmount),
    state: r.state as OtcOrderView['state'],
    createdTs: r.createdTs,
    deadlineTs: r.deadlineTs,
    paidTs: r.paidTs,
    appealBy: r.appealBy,
    appealTs: r.appealTs,
    endReason: r.endReason as OtcOrderView['endReason'],
    resolvedBy: r.resolvedBy,
    reason: r.reason,
    meta: metaOf(r.meta),
    updatedTs: r.updatedTs,
  };
}

/** An order as `viewerId` (one of its two sides) sees it in lists. */
export function toOtcOrder(o: OtcOrderView, viewerId: string, scale: number, appealAfterMs: number, counterparty: string, unread: number): OtcOrder {
  return {
    orderId: o.orderId,
    adId: o.adId,
    mySide: o.buyerId === viewerId ? 'BUY' : 'SELL',
    myRole: o.makerId === viewerId ? 'MAKER' : 'TAKER',
    coin: o.asset,
    fiat: o.fiat,
    price: fiatText(o.price),
    quantity: coinText(o.quantity, scale),
    fiatAmount: fiatText(o.fiatAmount),
    state: o.state,
    endReason: o.endReason ?? '',
    counterparty,
    createdAt: o.createdTs,
    deadline: o.state === 'PENDING_PAYMENT' ? o.deadlineTs : 0,
    paidAt: o.paidTs ?? 0,
    appealableAt: o.paidTs !== null ? o.paidTs + appealAfterMs : 0,
    updatedAt: o.updatedTs,
    unread,
  };
}
