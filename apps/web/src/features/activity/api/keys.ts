/**
 * Query keys of the activity screens. Public reads sit under ['activity', 'public'], the user's under
 * ['activity', userId], so a join can invalidate both. The assets overview's key is repeated here (features do not
 * import each other): a payout moves the funding balance.
 */
import type { QueryClient } from '@tanstack/react-query';

/** The activity screens' query keys. */
export const activityKeys = {
  list: (lang: string) => ['activity', 'public', 'list', lang] as const,
  detail: (activityId: string, lang: string) => ['activity', 'public', 'detail', activityId, lang] as const,
  leaderboard: (activityId: string) => ['activity', 'public', 'leaderboard', activityId] as const,
  user: (userId: string) => ['activity', userId] as const,
  mine: (userId: string, activityId: string) => ['activity', userId, 'mine', activityId] as const,
  history: (userId: string, lang: string) => ['activity', userId, 'history', lang] as const,
};

/** After a join: the user's activity data and the public figures (participants, leaderboard) are stale. */
export function invalidateActivity(qc: QueryClient, userId: string): Promise<void> {
  return Promise.all([qc.invalidateQueries({ queryKey: activityKeys.user(userId) }), qc.invalidateQueries({ queryKey: ['activity', 'public'] })]).then(
    () => undefined,
  );
}
