/** GET invite/invite/ranking: the monthly rebate ranking (this month from its 1st, or last month's final list). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { INVITE_PATHS, type RankingList } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { inviteKeys } from './keys';

/** Fetches the ranking of a month. */
export function getRanking(month: 'this' | 'last', signal?: AbortSignal): Promise<RankingList> {
  return apiGet<RankingList>(INVITE_PATHS.ranking, { month }, { signal });
}

/** Query options of a month's ranking. */
export const rankingQuery = (month: 'this' | 'last') =>
  queryOptions({ queryKey: inviteKeys.ranking(month), queryFn: ({ signal }) => getRanking(month, signal) });

/** A month's ranking. */
export function useRanking(month: 'this' | 'last') {
  return useQuery(rankingQuery(month));
}
