/** GET activity/activity/detail?activityId (public): one activity's rules, period and prizes. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ACTIVITY_PATHS, type ActivityItem } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { activityKeys } from './keys';

/** Fetches one activity; throws ApiError (activity_not_found for an unknown id). */
export function getActivity(activityId: string, signal?: AbortSignal): Promise<ActivityItem> {
  return apiGet<ActivityItem>(ACTIVITY_PATHS.detail, { activityId }, { signal, silent: true });
}

/** One activity (refreshed every 10 s: status and participants). */
export function useActivity(activityId: string) {
  const lang = useAppStore((s) => s.currentLangue);
  return useQuery(
    queryOptions({
      queryKey: activityKeys.detail(activityId, lang),
      queryFn: ({ signal }) => getActivity(activityId, signal),
      enabled: activityId !== '',
      refetchInterval: 10_000,
    }),
  );
}
