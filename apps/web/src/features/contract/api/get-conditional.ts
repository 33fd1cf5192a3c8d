/**
 * GET contract/contract/getConditionalOrders?tab=open|history&symbol&page&pageSize (login required): the caller's
 * conditional orders, pending ones (open, oldest first) or triggered, cancelled and expired ones (history, newest
 * first). The open list is polled: a trigger moves an order from it to the history.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CONTRACT_PATHS, type ContractConditionalPage } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { contractKeys, type ConditionalTab } from './keys';
import { CONTRACT_PAGE_SIZE } from './get-orders';

/** Fetches one page; throws ApiError on failure. */
export function getContractConditional(tab: ConditionalTab, symbol: string | undefined, page: number, signal?: AbortSignal): Promise<ContractConditionalPage> {
  return apiGet<ContractConditionalPage>(CONTRACT_PATHS.getConditionalOrders, { tab, symbol, page, pageSize: CONTRACT_PAGE_SIZE }, { signal, silent: true });
}

/** The first page of a tab, optionally of one market (disabled when logged out). */
export function useContractConditional(tab: ConditionalTab, symbol?: string) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(
    queryOptions({
      queryKey: contractKeys.conditional(userId, tab, symbol),
      queryFn: ({ signal }) => getContractConditional(tab, symbol, 1, signal),
      enabled: isLogin && !!userId,
      refetchInterval: 5_000,
    }),
  );
}
