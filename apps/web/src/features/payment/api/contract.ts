/**
 * Paths and shapes of the payment-method endpoints (issue 10; server module member/payment), mirroring the server
 * contract (brief H2) until `@exchange/api` carries them in kyc.ts.
 */

/** Paths relative to /api/. */
export const PAYMENT_PATHS = {
  getPayments: 'member/payment/getPayments',
  addPayment: 'member/payment/addPayment',
  updatePayment: 'member/payment/updatePayment',
  setPaymentEnabled: 'member/payment/setPaymentEnabled',
  deletePayment: 'member/payment/deletePayment',
  uploadImage: 'member/upload/image',
} as const;

/** Kinds of payment method. */
export type PayType = 'BANK' | 'WECHAT' | 'ALIPAY';

/** One payment method as getPayments answers it (cardNo masked except the last 4). */
export interface PaymentMethod {
  id: string;
  payType: PayType;
  realName: string;
  bankName?: string;
  branch?: string;
  cardNo?: string;
  account?: string;
  qrImageId?: string;
  enabled: boolean;
  createdAt: number;
}

/** Fields of add/update (the holder is the verified real name, not an input). */
export interface PaymentInput {
  payType: PayType;
  bankName?: string;
  branch?: string;
  cardNo?: string;
  account?: string;
  qrImageId?: string;
}

/** Most payment methods one user may keep (the server's limit, brief H2). */
export const MAX_PAYMENT_METHODS = 10;

/** The add/edit page of each kind (spec section 2 routes). */
export const PAY_TYPE_ROUTE: Record<PayType, string> = {
  BANK: '/payment/bankCard',
  WECHAT: '/payment/weixin',
  ALIPAY: '/payment/zhifubao',
};
