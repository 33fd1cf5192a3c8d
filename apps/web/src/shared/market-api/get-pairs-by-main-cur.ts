/**
 * GET data/data/getPairsByMainCur?mainCur&type (spec section 7): the pairs of one main currency with
 * price, chPrice, updown, volume and the trading rules. Lists re-poll every 5 s (spec section 9)
 * while the page is mounted and the document visible (TanStack stops intervals in the background).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type MarketType, type Pair } from '@exchange/api';
import { apiGet } from '../api-client';

/** Polling period of market lists, ms (spec section 9). */
export const POLL_MS = 5_000;

/** Query key of the pairs of `mainCur` in market `type`. */
export const pairsQueryKey = (type: MarketType, mainCur: string) => ['market', 'pairs', type, mainCur] as const;

/** Fetches the pairs of `mainCur`; throws ApiError on failure. */
export function getPairsByMainCur(mainCur: string, type: MarketType, signal?: AbortSignal): Promise<Pair[]> {
  return apiGet<Pair[]>(API_PATHS.getPairsByMainCur, { mainCur, type }, { signal, silent: true });
}

/** queryOptions of the pairs of `mainCur`, polled every 5 s when `poll`. */
export function pairsQueryOptions(mainCur: string, type: MarketType, poll = true) {
  return queryOptions({
    queryKey: pairsQueryKey(type, mainCur),
    queryFn: ({ signal }) => getPairsByMainCur(mainCur, type, signal),
    enabled: !!mainCur,
    refetchInterval: poll ? POLL_MS : false,
  });
}

/** The pairs of `mainCur` (polled). */
export function usePairsByMainCur(mainCur: string, type: MarketType, poll = true) {
  return useQuery(pairsQueryOptions(mainCur, type, poll));
}
