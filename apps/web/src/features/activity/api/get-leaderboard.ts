/** GET activity/activity/leaderboard?activityId (public): the live ranking, top 50, names masked. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ACTIVITY_PATHS, type ActivityLeaderboard } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { activityKeys } from './keys';

/** Fetches the leaderboard; throws ApiError. */
export function getLeaderboard(activityId: string, signal?: AbortSignal): Promise<ActivityLeaderboard> {
  return apiGet<ActivityLeaderboard>(ACTIVITY_PATHS.leaderboard, { activityId }, { signal, silent: true });
}

/** The live leaderboard, polled every 5 s (the spec's polling period). */
export function useLeaderboard(activityId: string) {
  return useQuery(
    queryOptions({
      queryKey: activityKeys.leaderboard(activityId),
      queryFn: ({ signal }) => getLeaderboard(activityId, signal),
      enabled: activityId !== '',
      refetchInterval: 5_000,
    }),
  );
}
