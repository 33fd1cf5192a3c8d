/**
 * GET asset/asset/getAssets (login): the four accounts with every coin's available balance, for the transfer form.
 * The same endpoint and query key as the assets overview (features/assets get-assets.ts, not imported: features do
 * not import each other), so the two share one cache entry and a transfer's invalidation refreshes both.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type Assets, type WalletAccount } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { assetsKey } from './keys';

/** Fetches all accounts. Throws ApiError (toasted). */
export function getBalances(signal?: AbortSignal): Promise<Assets> {
  return apiGet<Assets>(API_PATHS.getAssets, undefined, { signal });
}

/** queryOptions of the accounts (as the overview's: 3 s fresh, refetched every 10 s while shown). */
export function balancesQueryOptions(userId: string, enabled: boolean) {
  return queryOptions({
    queryKey: assetsKey(userId),
    queryFn: ({ signal }) => getBalances(signal),
    enabled: enabled && !!userId,
    staleTime: 3_000,
    refetchInterval: 10_000,
  });
}

/** The signed-in user's accounts. */
export function useBalances() {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(balancesQueryOptions(userId, isLogin));
}

/** Available balance of `coin` in `account` ('0' when the account or coin is not listed). */
export function availableIn(assets: Assets | undefined, account: WalletAccount, coin: string): string {
  return assets?.accounts.find((a) => a.type === account)?.items.find((i) => i.coin === coin)?.available ?? '0';
}
