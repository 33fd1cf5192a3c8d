/** GET contract/market/getDepth?symbol&limit (public): the contract book's best levels; 'contractDepth' pushes replace it. */
import { useQuery } from '@tanstack/react-query';
import { CONTRACT_MARKET_PATHS, type ContractDepth } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';

/** Fetches the book; throws ApiError on failure. */
export function getContractDepth(symbol: string, limit: number, signal?: AbortSignal): Promise<ContractDepth> {
  return apiGet<ContractDepth>(CONTRACT_MARKET_PATHS.getDepth, { symbol, limit }, { signal, silent: true });
}

/** The first snapshot of the book (the pushes take over once they arrive). */
export function useContractDepthSnapshot(symbol: string, limit = 20) {
  return useQuery({
    queryKey: ['contract-depth', symbol, limit],
    queryFn: ({ signal }) => getContractDepth(symbol, limit, signal),
    enabled: !!symbol,
    staleTime: 5_000,
  });
}
