/**
 * Wire types of the payment-method endpoints (server module member/payment) from `@exchange/api` (kyc.ts);
 * paths are API_PATHS. The add/edit fields and the route of each kind's page are the app's.
 */
import type { PayType } from '@exchange/api';

export type { PayType, PaymentMethod } from '@exchange/api';
export { MAX_PAYMENT_METHODS } from '@exchange/api';

/** Fields of add/update (the holder is the verified real name, not an input; the PIN is added by the caller). */
export interface PaymentInput {
  payType: PayType;
  bankName?: string;
  branch?: string;
  cardNo?: string;
  account?: string;
  qrImageId?: string;
}

/** The add/edit page of each kind (spec section 2 routes). */
export const PAY_TYPE_ROUTE: Record<PayType, string> = {
  BANK: '/payment/bankCard',
  WECHAT: '/payment/weixin',
  ALIPAY: '/payment/zhifubao',
};
