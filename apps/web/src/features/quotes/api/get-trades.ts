/** GET data/data/getTrades?pairsName&type&limit: latest public trades, newest first (then live over WS). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type MarketType, type PublicTrade } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';

/** Fetches the latest trades; throws ApiError on failure. */
export function getTrades(pairsName: string, type: MarketType, limit: number, signal?: AbortSignal): Promise<PublicTrade[]> {
  return apiGet<PublicTrade[]>(API_PATHS.getTrades, { pairsName, type, limit }, { signal, silent: true });
}

/** queryOptions of the latest trades. */
export function tradesQueryOptions(pairsName: string, type: MarketType, limit = 30) {
  return queryOptions({
    queryKey: ['market', 'trades', type, pairsName, limit] as const,
    queryFn: ({ signal }) => getTrades(pairsName, type, limit, signal),
    staleTime: 5_000,
  });
}

/** The latest trades (REST). */
export function useTradesSnapshot(pairsName: string, type: MarketType, limit = 30) {
  return useQuery(tradesQueryOptions(pairsName, type, limit));
}
