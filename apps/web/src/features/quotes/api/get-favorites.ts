/** GET member/member/getFavorites?type (login required): the caller's favourite pairs. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type Favorite, type MarketType } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';

/** Query key of the favourites of `userId` in market `type`. */
export const favoritesQueryKey = (userId: string, type: MarketType) => ['member', userId, 'favorites', type] as const;

/** Fetches the favourites of market `type`; throws ApiError on failure. */
export function getFavorites(type: MarketType, signal?: AbortSignal): Promise<Favorite[]> {
  return apiGet<Favorite[]>(API_PATHS.getFavorites, { type }, { signal, silent: true });
}

/** queryOptions of the favourites (disabled when logged out). */
export function favoritesQueryOptions(userId: string, type: MarketType, enabled: boolean) {
  return queryOptions({
    queryKey: favoritesQueryKey(userId, type),
    queryFn: ({ signal }) => getFavorites(type, signal),
    enabled: enabled && !!userId,
    staleTime: 30_000,
  });
}

/** The set of favourite pair names of market `type` (empty when logged out). */
export function useFavorites(type: MarketType): { names: Set<string>; isLoading: boolean } {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  const q = useQuery(favoritesQueryOptions(userId, type, isLogin));
  const names = new Set(isLogin ? (q.data ?? []).filter((f) => f.type === type).map((f) => f.pairsName) : []);
  return { names, isLoading: isLogin && q.isLoading };
}
