/**
 * GET data/data/getKline?pairsName&type&period&limit: candles oldest first. Live bars come over the
 * WebSocket kline channel and are merged by the chart (see components/KlineChart).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type Kline, type KlinePeriod, type MarketType } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';

/** Candles loaded per interval. */
export const KLINE_LIMIT = 300;

/** Fetches candles; throws ApiError on failure. */
export function getKline(pairsName: string, type: MarketType, period: KlinePeriod, signal?: AbortSignal): Promise<Kline[]> {
  return apiGet<Kline[]>(API_PATHS.getKline, { pairsName, type, period, limit: KLINE_LIMIT }, { signal, silent: true });
}

/** queryOptions of the candles of one interval. */
export function klineQueryOptions(pairsName: string, type: MarketType, period: KlinePeriod) {
  return queryOptions({
    queryKey: ['market', 'kline', type, pairsName, period] as const,
    queryFn: ({ signal }) => getKline(pairsName, type, period, signal),
    staleTime: 10_000,
  });
}

/** The candles of one interval. */
export function useKline(pairsName: string, type: MarketType, period: KlinePeriod) {
  return useQuery(klineQueryOptions(pairsName, type, period));
}
