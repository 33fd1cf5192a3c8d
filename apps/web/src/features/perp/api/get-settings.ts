/**
 * GET contract/contract/getSettings?symbol (login required): the caller's leverage and margin mode in a market and
 * the market's rules (brackets, fees, lot face value, tick and step, price band) the order form previews with.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CONTRACT_PATHS, type ContractSettings } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { contractKeys } from './keys';

/** Fetches the settings of `symbol`; throws ApiError on failure. */
export function getContractSettings(symbol: string, signal?: AbortSignal): Promise<ContractSettings> {
  return apiGet<ContractSettings>(CONTRACT_PATHS.getSettings, { symbol }, { signal, silent: true });
}

/** The caller's settings in `symbol` (disabled when logged out). */
export function useContractSettings(symbol: string) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(
    queryOptions({
      queryKey: contractKeys.settings(userId, symbol),
      queryFn: ({ signal }) => getContractSettings(symbol, signal),
      enabled: isLogin && !!userId && !!symbol,
    }),
  );
}
