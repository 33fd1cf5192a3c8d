/**
 * GET entrust/entrust/getEntrustList?type=current|history&pairsName&page&pageSize (login required):
 * the caller's open or ended orders, newest first. Current orders also follow the private WebSocket
 * 'orders' channel (hooks/use-spot-live invalidates this key).
 */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { API_PATHS, type EntrustPage } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';

/** Which list. */
export type EntrustListType = 'current' | 'history';

/** Page size of the lists. */
export const ENTRUST_PAGE_SIZE = 20;

/** Query key of a list (all entrust keys start with 'entrust'). */
export const entrustListKey = (userId: string, type: EntrustListType, pairsName?: string) => ['entrust', userId, type, pairsName ?? ''] as const;

/** Fetches one page; throws ApiError on failure. */
export function getEntrustList(type: EntrustListType, pairsName: string | undefined, page: number, signal?: AbortSignal): Promise<EntrustPage> {
  return apiGet<EntrustPage>(API_PATHS.getEntrustList, { type, pairsName, page, pageSize: ENTRUST_PAGE_SIZE }, { signal, silent: true });
}

/** queryOptions of the first page (the trading screen's current orders). */
export function entrustListQueryOptions(userId: string, type: EntrustListType, pairsName: string | undefined, enabled: boolean) {
  return queryOptions({
    queryKey: entrustListKey(userId, type, pairsName),
    queryFn: ({ signal }) => getEntrustList(type, pairsName, 1, signal),
    enabled: enabled && !!userId,
    refetchInterval: type === 'current' ? 10_000 : false,
  });
}

/** The first page of a list (disabled when logged out). */
export function useEntrustList(type: EntrustListType, pairsName?: string) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(entrustListQueryOptions(userId, type, pairsName, isLogin));
}

/** Paged list ("load more") of all orders of a type. */
export function useEntrustPages(type: EntrustListType) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: [...entrustListKey(userId, type), 'pages'] as const,
      queryFn: ({ pageParam, signal }) => getEntrustList(type, undefined, pageParam, signal),
      initialPageParam: 1,
      getNextPageParam: (last: EntrustPage) => (last.page * last.pageSize < last.total ? last.page + 1 : undefined),
      enabled: isLogin && !!userId,
    }),
  );
}
