/** GET data/data/getMainCurs (spec section 7): the main (quote) currency names, e.g. ["USDT", "BTC"]. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS } from '@exchange/api';
import { apiGet } from '../api-client';

/** Fetches the main currencies; throws ApiError on failure (toasted by the client). */
export function getMainCurs(signal?: AbortSignal): Promise<string[]> {
  return apiGet<string[]>(API_PATHS.getMainCurs, undefined, { signal });
}

/** queryOptions of the main currencies (rarely change: 5 min stale). */
export function mainCursQueryOptions() {
  return queryOptions({ queryKey: ['market', 'mainCurs'] as const, queryFn: ({ signal }) => getMainCurs(signal), staleTime: 300_000 });
}

/** The main currencies. */
export function useMainCurs() {
  return useQuery(mainCursQueryOptions());
}
