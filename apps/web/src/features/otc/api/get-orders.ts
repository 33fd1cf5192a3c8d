/** GET otc/otc/getOrders?tab (login): the caller's orders of a tab, newest first; pushes of 'otcOrder' refresh them. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { OTC_PATHS, type OtcOrderPage } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { otcKeys } from './keys';

/** The tabs of /transaction/otcOrder. */
export type OtcOrderTab = 'PENDING' | 'COMPLETED' | 'CANCELLED' | 'ALL';

/** Fetches the first page of a tab; throws ApiError. */
export function getOtcOrders(tab: OtcOrderTab, signal?: AbortSignal): Promise<OtcOrderPage> {
  return apiGet<OtcOrderPage>(OTC_PATHS.getOrders, { tab, page: 1, pageSize: 50 }, { signal, silent: true });
}

/** The caller's orders of `tab` (disabled when logged out). */
export function useOtcOrders(tab: OtcOrderTab) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(
    queryOptions({
      queryKey: otcKeys.orders(userId, tab),
      queryFn: ({ signal }) => getOtcOrders(tab, signal),
      enabled: isLogin && !!userId,
      refetchInterval: 15_000,
    }),
  );
}
