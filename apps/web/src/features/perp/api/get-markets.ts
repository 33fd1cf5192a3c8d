/**
 * GET contract/market/getMarkets (public): the perpetual markets with last, mark and index prices, funding and the
 * trading rules (brackets, fees, lot face value). The coin selection popup's contract tab and the trade screen read
 * it; 'contractTicker' pushes refresh one market (hooks/use-contract-market).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CONTRACT_MARKET_PATHS, type ContractMarket } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';

/** Query key of the market list. */
export const contractMarketsKey = ['contract-markets'] as const;

/** Fetches the markets; throws ApiError on failure. */
export function getContractMarkets(signal?: AbortSignal): Promise<ContractMarket[]> {
  return apiGet<ContractMarket[]>(CONTRACT_MARKET_PATHS.getMarkets, undefined, { signal, silent: true });
}

/** queryOptions of the market list (re-read every 5 s, spec section 9 polling). */
export function contractMarketsOptions(enabled = true) {
  return queryOptions({ queryKey: contractMarketsKey, queryFn: ({ signal }) => getContractMarkets(signal), enabled, refetchInterval: 5_000, staleTime: 2_000 });
}

/** Every perpetual market. */
export function useContractMarkets(enabled = true) {
  return useQuery(contractMarketsOptions(enabled));
}
