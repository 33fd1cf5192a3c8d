/**
 * Wire shapes of the console's OTC pages, from packages/api otc.ts (OTC_ADMIN_PATHS and the Admin* schemas; pages are
 * the contract's `Paged`: records, total, page, pageSize). Coin quantities are decimal strings at the coin's scale
 * (USDT, 8 places), fiat amounts and prices strings with 2 decimals, times Unix ms.
 */
import type { AdminOtcMerchant, AdminOtcOrderDetail, OtcAd, OtcAdStatus, OtcChatMessage, OtcMerchantState, OtcOrderState } from '@exchange/api';

export type { AdminOtcMerchant, AdminOtcOrderDetail, OtcAd, OtcAdStatus, OtcChatMessage, OtcMerchantState, OtcOrderState };

/** A page of a console list. */
export interface OtcPage<T> {
  records: T[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * A row of the console's order list: the order as an operator sees it (the detail's order fields and both sides'
 * ids and nicknames; the list answer may carry more, which the page ignores).
 */
export type AdminOtcOrderRow = Pick<
  AdminOtcOrderDetail,
  | 'orderId'
  | 'adId'
  | 'coin'
  | 'fiat'
  | 'price'
  | 'quantity'
  | 'fiatAmount'
  | 'state'
  | 'endReason'
  | 'createdAt'
  | 'paidAt'
  | 'updatedAt'
  | 'buyerId'
  | 'sellerId'
> &
  Partial<Pick<AdminOtcOrderDetail, 'buyerNickName' | 'sellerNickName'>>;
