/** GET activity/activity/list (public): every activity, newest first, texts in the app's language. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ACTIVITY_PATHS, type ActivityItem } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { activityKeys } from './keys';

/** Fetches the list; throws ApiError. */
export function getActivities(signal?: AbortSignal): Promise<ActivityItem[]> {
  return apiGet<ActivityItem[]>(ACTIVITY_PATHS.list, {}, { signal, silent: true });
}

/** Every activity (refreshed every 30 s: statuses follow the clock). */
export function useActivities() {
  const lang = useAppStore((s) => s.currentLangue);
  return useQuery(queryOptions({ queryKey: activityKeys.list(lang), queryFn: ({ signal }) => getActivities(signal), refetchInterval: 30_000 }));
}
