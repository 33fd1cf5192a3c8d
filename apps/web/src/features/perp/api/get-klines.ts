/** GET contract/market/getKlines?symbol&period&price=last|mark (public): bars of the trades or of the mark price, oldest first. */
import { useQuery } from '@tanstack/react-query';
import { CONTRACT_MARKET_PATHS, type ContractKlinePrice, type Kline, type KlinePeriod } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';

/** Fetches the bars; throws ApiError on failure. */
export function getContractKlines(symbol: string, period: KlinePeriod, price: ContractKlinePrice, signal?: AbortSignal): Promise<Kline[]> {
  return apiGet<Kline[]>(CONTRACT_MARKET_PATHS.getKlines, { symbol, period, price, limit: 300 }, { signal, silent: true });
}

/** Bars of `symbol` at `period` following `price`, re-read every 5 s. */
export function useContractKlines(symbol: string, period: KlinePeriod, price: ContractKlinePrice) {
  return useQuery({
    queryKey: ['contract-klines', symbol, period, price],
    queryFn: ({ signal }) => getContractKlines(symbol, period, price, signal),
    enabled: !!symbol,
    refetchInterval: 5_000,
  });
}
