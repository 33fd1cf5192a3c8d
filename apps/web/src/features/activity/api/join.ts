/** POST activity/activity/join (login): join an ongoing activity once. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ACTIVITY_PATHS, type ActivityMine } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { invalidateActivity } from './keys';

/** Joins; throws ApiError (toasted: not started, ended, already joined). */
export function joinActivity(activityId: string): Promise<ActivityMine> {
  return apiPost<ActivityMine>(ACTIVITY_PATHS.join, { activityId });
}

/** The join mutation; refreshes the user's activity data and the public figures. */
export function useJoinActivity() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: joinActivity, onSettled: () => invalidateActivity(qc, userId) });
}
