/** GET activity/activity/history (login): the activities the caller joined, with progress and reward. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ACTIVITY_PATHS, type ActivityHistoryRow } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { activityKeys } from './keys';

/** Fetches the history; throws ApiError. */
export function getHistory(signal?: AbortSignal): Promise<ActivityHistoryRow[]> {
  return apiGet<ActivityHistoryRow[]>(ACTIVITY_PATHS.history, {}, { signal, silent: true });
}

/** The caller's joined activities (disabled when logged out). */
export function useActivityHistory() {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  const lang = useAppStore((s) => s.currentLangue);
  return useQuery(
    queryOptions({
      queryKey: activityKeys.history(userId, lang),
      queryFn: ({ signal }) => getHistory(signal),
      enabled: isLogin && !!userId,
      refetchInterval: 15_000,
    }),
  );
}
