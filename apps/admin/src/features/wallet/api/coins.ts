/**
 * GET asset/wallet/getCoins (the app's public coin chooser): the console reads it for the networks' display names
 * ("BSC" is "BNB Smart Chain (BEP20)"); the hot-wallet rows carry only the codes.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type WalletCoin } from '@exchange/api';
import { apiGet } from '../../../shared/api';

/** The coin catalogue (rules change rarely: five minutes fresh). */
export function walletCoinsOptions() {
  return queryOptions({ queryKey: ['admin', 'wallet', 'coins'], queryFn: () => apiGet<WalletCoin[]>(API_PATHS.getCoins), staleTime: 300_000 });
}

/** Network code -> display name, over every coin's networks (empty until loaded, or when the call fails). */
export function useNetworkNames(): ReadonlyMap<string, string> {
  const q = useQuery(walletCoinsOptions());
  return new Map((q.data ?? []).flatMap((c) => c.chains.map((n) => [n.chain, n.chainName] as const)));
}
