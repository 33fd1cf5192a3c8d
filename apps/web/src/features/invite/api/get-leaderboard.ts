/** GET invite/invite/leaderboard: the all-time invitation leaderboard (by number of invitees). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { INVITE_PATHS, type RankingList } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { inviteKeys } from './keys';

/** Fetches the leaderboard. */
export function getLeaderboard(signal?: AbortSignal): Promise<RankingList> {
  return apiGet<RankingList>(INVITE_PATHS.leaderboard, undefined, { signal });
}

/** Query options of the leaderboard. */
export const leaderboardQuery = () => queryOptions({ queryKey: inviteKeys.leaderboard, queryFn: ({ signal }) => getLeaderboard(signal) });

/** The leaderboard. */
export function useLeaderboard() {
  return useQuery(leaderboardQuery());
}
