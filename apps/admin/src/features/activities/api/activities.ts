/** GET admin/activity/list and detail, POST admin/activity/create and end (activities, campaigns). */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ACTIVITY_ADMIN_PATHS, type AdminActivity, type AdminActivityDetail, type CreateActivityBody } from '@exchange/api';
import { apiGet, apiPost } from '../../../shared/api';

/** The query of every activity, newest first. */
export function activitiesOptions() {
  return queryOptions({ queryKey: ['admin', 'activities'], queryFn: () => apiGet<AdminActivity[]>(ACTIVITY_ADMIN_PATHS.list), refetchInterval: 10_000 });
}

/** Every activity. */
export function useActivities() {
  return useQuery(activitiesOptions());
}

/** One activity with its ranking (user ids), polled every 5 s while shown. */
export function useActivityDetail(activityId: string | null) {
  return useQuery(
    queryOptions({
      queryKey: ['admin', 'activities', 'detail', activityId],
      queryFn: () => apiGet<AdminActivityDetail>(ACTIVITY_ADMIN_PATHS.detail, { activityId: activityId ?? '' }),
      enabled: activityId !== null,
      refetchInterval: 5_000,
    }),
  );
}

/** Defines an activity (the server audits it). */
export function createActivity(body: CreateActivityBody): Promise<AdminActivity> {
  return apiPost<AdminActivity>(ACTIVITY_ADMIN_PATHS.create, { ...body, prizes: Array.isArray(body.prizes) ? body.prizes.join(',') : body.prizes });
}

/** Ends an activity now (the server audits it; the payout job pays it within seconds). */
export function endActivity(activityId: string): Promise<AdminActivity> {
  return apiPost<AdminActivity>(ACTIVITY_ADMIN_PATHS.end, { activityId });
}

/** The create mutation; refreshes every console query (the list and the audit log). */
export function useCreateActivity() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createActivity, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}

/** The end mutation; refreshes every console query. */
export function useEndActivity() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: endActivity, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
