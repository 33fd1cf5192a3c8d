/**
 * GET data/data/getDepth?pairsName&type&limit: a REST snapshot of the order book, shown until the
 * WebSocket depth snapshot arrives (shared ws-client keeps the live book with seq gap detection).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type Depth, type MarketType } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';

/** Fetches the depth snapshot; throws ApiError on failure. */
export function getDepth(pairsName: string, type: MarketType, limit: number, signal?: AbortSignal): Promise<Depth> {
  return apiGet<Depth>(API_PATHS.getDepth, { pairsName, type, limit }, { signal, silent: true });
}

/** queryOptions of the REST depth snapshot. */
export function depthQueryOptions(pairsName: string, type: MarketType, limit = 20) {
  return queryOptions({
    queryKey: ['market', 'depth', type, pairsName, limit] as const,
    queryFn: ({ signal }) => getDepth(pairsName, type, limit, signal),
    staleTime: 5_000,
  });
}

/** The REST depth snapshot. */
export function useDepthSnapshot(pairsName: string, type: MarketType, limit = 20) {
  return useQuery(depthQueryOptions(pairsName, type, limit));
}
