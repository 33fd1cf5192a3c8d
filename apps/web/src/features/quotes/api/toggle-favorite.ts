/**
 * POST member/member/addFavorite and member/member/cancelFavorite (login required), one mutation
 * that picks the call by `on`. The favourites query is updated optimistically and refetched after.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, type Favorite, type MarketType } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { favoritesQueryKey } from './get-favorites';

/** Variables of the favourite mutation: `on` true adds, false removes. */
export interface ToggleFavoriteVars {
  pairsName: string;
  type: MarketType;
  on: boolean;
}

/** Adds (`on`) or removes a favourite; throws ApiError on failure (toasted). */
export function toggleFavorite({ pairsName, type, on }: ToggleFavoriteVars): Promise<unknown> {
  return apiPost(on ? API_PATHS.addFavorite : API_PATHS.cancelFavorite, { pairsName, type });
}

/** Mutation hook with an optimistic update of the favourites list. */
export function useToggleFavorite() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({
    mutationFn: toggleFavorite,
    onMutate: async (v: ToggleFavoriteVars) => {
      const key = favoritesQueryKey(userId, v.type);
      await qc.cancelQueries({ queryKey: key });
      const prev = qc.getQueryData<Favorite[]>(key);
      const rest = (prev ?? []).filter((f) => f.pairsName !== v.pairsName);
      qc.setQueryData<Favorite[]>(key, v.on ? [...rest, { pairsName: v.pairsName, type: v.type }] : rest);
      return { prev, key };
    },
    onError: (_e, _v, ctx) => {
      if (ctx) qc.setQueryData(ctx.key, ctx.prev);
    },
    onSettled: (_d, _e, v) => qc.invalidateQueries({ queryKey: favoritesQueryKey(userId, v.type) }),
  });
}
