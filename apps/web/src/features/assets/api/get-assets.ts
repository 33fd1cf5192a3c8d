/**
 * GET asset/asset/getAssets (login required): the four accounts (ASSETS, SPOT, CONTRACT, OTC) with
 * every coin (available, frozen, current, converted USDT/CNY) and the totals in USDT and CNY.
 * Refetched every 10 s while shown, and on balance pushes of the private WebSocket channel.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type Assets } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';

/** Query key of the assets of `userId`. */
export const assetsQueryKey = (userId: string) => ['asset', userId, 'assets'] as const;

/** Fetches all accounts; throws ApiError on failure (toasted). */
export function getAssets(signal?: AbortSignal): Promise<Assets> {
  return apiGet<Assets>(API_PATHS.getAssets, undefined, { signal });
}

/** queryOptions of the assets. */
export function assetsQueryOptions(userId: string, enabled: boolean) {
  return queryOptions({
    queryKey: assetsQueryKey(userId),
    queryFn: ({ signal }) => getAssets(signal),
    enabled: enabled && !!userId,
    staleTime: 3_000,
    refetchInterval: 10_000,
  });
}

/** The signed-in user's assets. */
export function useAssets() {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(assetsQueryOptions(userId, isLogin));
}
