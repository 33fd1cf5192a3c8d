/**
 * Query keys of the OTC screens. Every key of a user's OTC data starts with ['otc', userId] so that an
 * order action can invalidate all of it; public reads (config, the market's ads) sit under ['otc', 'public'].
 * The assets overview's key is repeated here (features do not import each other): an order's end moves balances.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { OtcPayType, OtcSide } from '@exchange/api';

/** The OTC screens' query keys. */
export const otcKeys = {
  config: () => ['otc', 'public', 'config'] as const,
  ads: (side: OtcSide, amount: string, payType: OtcPayType | '') => ['otc', 'public', 'ads', side, amount, payType] as const,
  ad: (adId: string) => ['otc', 'public', 'ad', adId] as const,
  user: (userId: string) => ['otc', userId] as const,
  merchant: (userId: string) => ['otc', userId, 'merchant'] as const,
  myAds: (userId: string) => ['otc', userId, 'myAds'] as const,
  orders: (userId: string, tab: string) => ['otc', userId, 'orders', tab] as const,
  orderDetail: (userId: string, orderId: string) => ['otc', userId, 'order', orderId] as const,
  messages: (userId: string, orderId: string) => ['otc', userId, 'messages', orderId] as const,
  payments: (userId: string) => ['payments', userId] as const,
};

/** The assets overview's key (features/assets). */
export const assetsKey = (userId: string) => ['asset', userId, 'assets'] as const;

/** After an OTC action: the user's OTC data, the public ads and the balances are stale. */
export function invalidateOtc(qc: QueryClient, userId: string): Promise<void> {
  return Promise.all([
    qc.invalidateQueries({ queryKey: otcKeys.user(userId) }),
    qc.invalidateQueries({ queryKey: ['otc', 'public', 'ads'] }),
    qc.invalidateQueries({ queryKey: assetsKey(userId) }),
  ]).then(() => undefined);
}
