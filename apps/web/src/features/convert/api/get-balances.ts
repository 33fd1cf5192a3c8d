/**
 * GET asset/asset/getAssets (login), read for convert: the SPOT account's available balance per coin (convert pays
 * from and into it). Same key as the assets overview (features/assets), so both share one cache entry.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type Assets } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';

/** The assets overview's key (features/assets). */
export const assetsKey = (userId: string) => ['asset', userId, 'assets'] as const;

/** The SPOT account's available balance of `coin` ('0' when none). */
export function spotAvailable(a: Assets | undefined, coin: string): string {
  return a?.accounts.find((x) => x.type === 'SPOT')?.items.find((i) => i.coin === coin)?.available ?? '0';
}

/** The signed-in user's balances. */
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
