/**
 * GET data/data/getIndexCoin (spec section 7): pairs for the home screen by getCoinType TOP, UPDOWN,
 * VOLUME or PROJECT; re-polled every 5 s while the home page is mounted (spec section 4); polling
 * stops when the page is left because the query has no observer then.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type Pair } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';

/** Home list polling interval of the spec (section 9), ms. */
export const HOME_POLL_MS = 5000;
/** Number of top pairs on the home screen (spec section 9). */
export const TOP_PAIRS = 4;

/** Ranking kinds of the home list. */
export type IndexCoinType = 'TOP' | 'UPDOWN' | 'VOLUME' | 'PROJECT';

/** queryOptions of one home list, polled every 5 s. */
export function indexCoinQuery(type: IndexCoinType) {
  return queryOptions({
    queryKey: ['home', 'indexCoin', type] as const,
    queryFn: ({ signal }) => apiGet<Pair[]>(API_PATHS.getIndexCoin, { getCoinType: type }, { signal, silent: true }),
    refetchInterval: HOME_POLL_MS,
    refetchIntervalInBackground: false,
    staleTime: 0,
  });
}

/** One home list. */
export function useIndexCoin(type: IndexCoinType) {
  return useQuery(indexCoinQuery(type));
}
