/** Display rules of the console's OTC pages that are worth a test: what a resolution moves, durations, colours. */
import type { TFunction } from 'i18next';
import type { AdminOtcOrderDetail, OtcAdStatus, OtcMerchantState, OtcOrderState } from './api/types';

/** Tag colour of a merchant state. */
export const MERCHANT_COLOR: Record<OtcMerchantState, string> = {
  NONE: 'default',
  PENDING: 'gold',
  ACTIVE: 'green',
  SUSPENDED: 'red',
  REJECTED: 'volcano',
  LEFT: 'default',
};
/** Tag colour of an order state. */
export const ORDER_COLOR: Record<OtcOrderState, string> = {
  PENDING_PAYMENT: 'blue',
  PAID: 'cyan',
  APPEAL: 'magenta',
  COMPLETED: 'green',
  CANCELLED: 'default',
};
/** Tag colour of an ad status. */
export const AD_COLOR: Record<OtcAdStatus, string> = { ONLINE: 'green', PAUSED: 'gold', CLOSED: 'default' };

/** A side's name for an operator: "nickname (UID)", or the id alone without a nickname. */
export function partyName(nickName: string | undefined, userId: string): string {
  return nickName ? `${nickName} (${userId})` : userId;
}

/**
 * The exact sentence of a resolution's confirm dialog: what moves and to whom, the order's quantity as the wire gives
 * it ("Release 100.00000000 USDT to buyer Bob (10000002)"; "Return ... to seller ...").
 */
export function resolutionText(
  t: TFunction,
  o: Pick<AdminOtcOrderDetail, 'quantity' | 'coin' | 'buyerNickName' | 'buyerId' | 'sellerNickName' | 'sellerId'>,
  outcome: 'RELEASE' | 'RETURN',
): string {
  return outcome === 'RELEASE'
    ? t('otc.releaseText', { qty: o.quantity, coin: o.coin, name: partyName(o.buyerNickName, o.buyerId) })
    : t('otc.returnText', { qty: o.quantity, coin: o.coin, name: partyName(o.sellerNickName, o.sellerId) });
}

/** Seconds as "m min s s" (the merchant's average release time); "-" for 0 (no data). */
export function formatSeconds(t: TFunction, seconds: number): string {
  if (!seconds) return '-';
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m ? t('otc.minSec', { m, s }) : t('otc.sec', { s });
}
