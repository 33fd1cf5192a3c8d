/**
 * GET asset/asset/getAssets (login), read for the savings screen: the ASSETS account's available balance per coin
 * (a lock is paid from it). Same key as the assets overview, so both share one cache entry.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type Assets } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { assetsKey } from './keys';

/** The available balance of `coin` in account `type` ('0' when none). */
export function availableOf(a: Assets | undefined, type: string, coin: string): string {
  return a?.accounts.find((x) => x.type === type)?.items.find((i) => i.coin === coin)?.available ?? '0';
}

/** The signed-in user's balances (all accounts). */
export function useBalances() {
  const userId = useAppStore((s) => s.userId);
  return useQuery(
    queryOptions({
      queryKey: assetsKey(userId),
      queryFn: ({ signal }) => apiGet<Assets>(API_PATHS.getAssets, undefined, { signal }),
      enabled: !!userId,
      staleTime: 3_000,
    }),
  );
}
