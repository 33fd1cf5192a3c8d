/**
 * GET entrust/entrust/getTradeList?pairsName&page&pageSize (login required): the caller's own fills (trade
 * history), newest first. The private 'orders' push of a fill refreshes it (hooks/use-spot-live), as does placing
 * an order (api/set-entrust invalidates every 'entrust' key).
 */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { API_PATHS, type UserTradePage } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { ENTRUST_PAGE_SIZE } from './get-entrust-list';

/** Query key of the fills of `userId` (of one pair, or '' for all); under 'entrust' so order changes refresh it. */
export const tradeListKey = (userId: string, pairsName?: string) => ['entrust', userId, 'trades', pairsName ?? ''] as const;

/** Fetches one page of fills; throws ApiError on failure. */
export function getTradeList(pairsName: string | undefined, page: number, signal?: AbortSignal): Promise<UserTradePage> {
  return apiGet<UserTradePage>(API_PATHS.getTradeList, { pairsName, page, pageSize: ENTRUST_PAGE_SIZE }, { signal, silent: true });
}

/** queryOptions of the first page of fills (the trading screen's trade history tab). */
export function tradeListQueryOptions(userId: string, pairsName: string | undefined, enabled: boolean) {
  return queryOptions({
    queryKey: tradeListKey(userId, pairsName),
    queryFn: ({ signal }) => getTradeList(pairsName, 1, signal),
    enabled: enabled && !!userId,
  });
}

/** The first page of the caller's fills of `pairsName` (disabled when logged out or when `enabled` is false). */
export function useTradeList(pairsName: string | undefined, enabled = true) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(tradeListQueryOptions(userId, pairsName, isLogin && enabled));
}

/** Every fill of the caller, paged ("load more"). */
export function useTradePages() {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: [...tradeListKey(userId), 'pages'] as const,
      queryFn: ({ pageParam, signal }) => getTradeList(undefined, pageParam, signal),
      initialPageParam: 1,
      getNextPageParam: (last: UserTradePage) => (last.page * last.pageSize < last.total ? last.page + 1 : undefined),
      enabled: isLogin && !!userId,
    }),
  );
}
