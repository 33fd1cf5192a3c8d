/** GET otc/otc/getOrderDetail?orderId (login, the two sides only): the order, names, payment details, appeal. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { OTC_PATHS, type OtcOrderDetail } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { otcKeys } from './keys';

/** Fetches the order; throws ApiError. */
export function getOtcOrderDetail(orderId: string, signal?: AbortSignal): Promise<OtcOrderDetail> {
  return apiGet<OtcOrderDetail>(OTC_PATHS.getOrderDetail, { orderId }, { signal, silent: true });
}

/** The order `orderId` (pushes of 'otcOrder' refetch it; polled every 10 s as a fallback). */
export function useOtcOrderDetail(orderId: string) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(
    queryOptions({
      queryKey: otcKeys.orderDetail(userId, orderId),
      queryFn: ({ signal }) => getOtcOrderDetail(orderId, signal),
      enabled: isLogin && !!userId && !!orderId,
      refetchInterval: 10_000,
    }),
  );
}
