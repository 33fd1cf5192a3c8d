/** GET contract/market/getTrades?symbol&limit (public): the latest book trades of a contract, newest first. */
import { useQuery } from '@tanstack/react-query';
import { CONTRACT_MARKET_PATHS, type ContractTrade } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';

/** Fetches the trades; throws ApiError on failure. */
export function getContractTrades(symbol: string, limit: number, signal?: AbortSignal): Promise<ContractTrade[]> {
  return apiGet<ContractTrade[]>(CONTRACT_MARKET_PATHS.getTrades, { symbol, limit }, { signal, silent: true });
}

/** The latest trades before the pushes (the pushes are merged on top by hooks/use-contract-market). */
export function useContractTradesSnapshot(symbol: string, limit = 30) {
  return useQuery({
    queryKey: ['contract-trades', symbol, limit],
    queryFn: ({ signal }) => getContractTrades(symbol, limit, signal),
    enabled: !!symbol,
    staleTime: 5_000,
  });
}
