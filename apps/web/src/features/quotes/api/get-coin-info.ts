/** GET data/data/getCoinInfo?pairsName&type: the pair's ticker plus the coin introduction (spec section 1). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type CoinInfo, type MarketType } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';

/** Fetches the coin info of a pair; throws ApiError on failure. */
export function getCoinInfo(pairsName: string, type: MarketType, signal?: AbortSignal): Promise<CoinInfo> {
  return apiGet<CoinInfo>(API_PATHS.getCoinInfo, { pairsName, type }, { signal });
}

/** queryOptions of a pair's coin info; the language is in the key because the intro text is translated. */
export function coinInfoQueryOptions(pairsName: string, type: MarketType, lang: string) {
  return queryOptions({
    queryKey: ['market', 'coinInfo', type, pairsName, lang] as const,
    queryFn: ({ signal }) => getCoinInfo(pairsName, type, signal),
    refetchInterval: 5_000,
  });
}

/** The coin info of a pair, refreshed every 5 s for its 24 h figures. */
export function useCoinInfo(pairsName: string, type: MarketType) {
  const lang = useAppStore((s) => s.currentLangue);
  return useQuery(coinInfoQueryOptions(pairsName, type, lang));
}
