/**
 * GET contract/market/getIndexComponents (public): the sources of a contract's last index tick, their prices, weights
 * and what the index rule did with each (spec section 9). Read while the components sheet is open, every 2 s (the
 * index ticks once a second).
 */
import { useQuery } from '@tanstack/react-query';
import { CONTRACT_MARKET_PATHS, type IndexComponents } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';

/** Query key of a contract's index components. */
export const indexComponentsKey = (symbol: string) => ['contract-index-components', symbol] as const;

/** Fetches the components; throws ApiError on failure. */
export function getIndexComponents(symbol: string, signal?: AbortSignal): Promise<IndexComponents> {
  return apiGet<IndexComponents>(CONTRACT_MARKET_PATHS.getIndexComponents, { symbol }, { signal, silent: true });
}

/** The components of `symbol`'s index, refreshed every 2 s while `enabled`. */
export function useIndexComponents(symbol: string, enabled: boolean) {
  return useQuery({
    queryKey: indexComponentsKey(symbol),
    queryFn: ({ signal }) => getIndexComponents(symbol, signal),
    enabled,
    refetchInterval: enabled ? 2_000 : false,
  });
}
