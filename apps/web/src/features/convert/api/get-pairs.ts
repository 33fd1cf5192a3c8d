/** GET exchange/convert/getPairs (public): the coins convert offers and the markets joining them, with the taker fee. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { EARN_PATHS, type ConvertPairs } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';

/** Fetches the pairs; throws ApiError. */
export function getConvertPairs(signal?: AbortSignal): Promise<ConvertPairs> {
  return apiGet<ConvertPairs>(EARN_PATHS.convertPairs, undefined, { signal });
}

/** The convert pairs. */
export function useConvertPairs() {
  return useQuery(queryOptions({ queryKey: ['convert', 'public', 'pairs'], queryFn: ({ signal }) => getConvertPairs(signal), staleTime: 60_000 }));
}
