/** GET activity/activity/my?activityId (login): the caller's progress, rank and reward in one activity. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ACTIVITY_PATHS, type ActivityMine } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { activityKeys } from './keys';

/** Fetches the caller's progress; throws ApiError. */
export function getMine(activityId: string, signal?: AbortSignal): Promise<ActivityMine> {
  return apiGet<ActivityMine>(ACTIVITY_PATHS.my, { activityId }, { signal, silent: true });
}

/** The caller's progress, polled every 5 s (disabled when logged out). */
export function useMine(activityId: string) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(
    queryOptions({
      queryKey: activityKeys.mine(userId, activityId),
      queryFn: ({ signal }) => getMine(activityId, signal),
      enabled: isLogin && !!userId && activityId !== '',
      refetchInterval: 5_000,
    }),
  );
}
