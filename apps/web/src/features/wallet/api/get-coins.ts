/** GET asset/wallet/getCoins (public): the coins of the wallet with their networks and rules (CoinChain). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type WalletCoin } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { walletKeys } from './keys';

export type { WalletCoin, CoinChain } from '@exchange/api';

/** Fetches the coin list. Throws ApiError (silent: the pages show LoadFailed). */
export function getCoins(signal?: AbortSignal): Promise<WalletCoin[]> {
  return apiGet<WalletCoin[]>(API_PATHS.getCoins, undefined, { signal, silent: true });
}

/** queryOptions of the coin list (rules change rarely: a minute fresh). */
export function coinsQueryOptions() {
  return queryOptions({ queryKey: walletKeys.coins(), queryFn: ({ signal }) => getCoins(signal), staleTime: 60_000 });
}

/** The coin list. */
export function useCoins() {
  return useQuery(coinsQueryOptions());
}
