/**
 * GET asset/asset/getAssets (login required) reduced to the SPOT account: the available and frozen
 * balance per coin, for the order form's "available" and the insufficient-balance check. Balance
 * pushes of the private WebSocket channel refresh it (see hooks/use-spot-live).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type AssetItem, type Assets } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';

/** Query key of the assets of `userId` (shared shape with the assets feature: same endpoint, same key). */
export const assetsQueryKey = (userId: string) => ['asset', userId, 'assets'] as const;

/** Fetches all accounts; throws ApiError on failure. */
export function getAssets(signal?: AbortSignal): Promise<Assets> {
  return apiGet<Assets>(API_PATHS.getAssets, undefined, { signal, silent: true });
}

/** queryOptions of the assets (disabled when logged out). */
export function assetsQueryOptions(userId: string, enabled: boolean) {
  return queryOptions({ queryKey: assetsQueryKey(userId), queryFn: ({ signal }) => getAssets(signal), enabled: enabled && !!userId, staleTime: 3_000 });
}

/** The SPOT account's item of `coin` ('0' balances while loading or logged out). */
export function useSpotBalance(coin: string): AssetItem {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  const q = useQuery(assetsQueryOptions(userId, isLogin));
  const item = q.data?.accounts?.find((a) => a.type === 'SPOT')?.items.find((i) => i.coin === coin);
  return item ?? { coin, available: '0', frozen: '0', current: '0', convertedUsdt: '0', convertedCny: '0' };
}
