/**
 * GET contract/contract/getOrders?tab=matched|unmatched|cancelled|history&symbol&page&pageSize (login required): the
 * caller's contract orders of a tab, newest first. Open orders ('unmatched') also follow the 'contractOrders' pushes
 * (hooks/use-contract-live).
 */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { CONTRACT_PATHS, type ContractOrderPage, type ContractOrderTab } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { contractKeys } from './keys';

/** Page size of the lists. */
export const CONTRACT_PAGE_SIZE = 20;

/** Fetches one page; throws ApiError on failure. */
export function getContractOrders(tab: ContractOrderTab, symbol: string | undefined, page: number, signal?: AbortSignal): Promise<ContractOrderPage> {
  return apiGet<ContractOrderPage>(CONTRACT_PATHS.getOrders, { tab, symbol, page, pageSize: CONTRACT_PAGE_SIZE }, { signal, silent: true });
}

/** The first page of a tab, optionally of one market (disabled when logged out). */
export function useContractOrders(tab: ContractOrderTab, symbol?: string) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(
    queryOptions({
      queryKey: contractKeys.orders(userId, tab, symbol),
      queryFn: ({ signal }) => getContractOrders(tab, symbol, 1, signal),
      enabled: isLogin && !!userId,
      refetchInterval: tab === 'unmatched' ? 10_000 : false,
    }),
  );
}

/** Paged list ("load more") of a tab, all markets. */
export function useContractOrderPages(tab: ContractOrderTab) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: contractKeys.orderPages(userId, tab),
      queryFn: ({ pageParam, signal }) => getContractOrders(tab, undefined, pageParam, signal),
      initialPageParam: 1,
      getNextPageParam: (last: ContractOrderPage) => (last.page * last.pageSize < last.total ? last.page + 1 : undefined),
      enabled: isLogin && !!userId,
    }),
  );
}
