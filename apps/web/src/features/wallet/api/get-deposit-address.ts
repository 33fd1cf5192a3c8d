/** GET asset/wallet/getDepositAddress (coin, chain; login): the caller's own deposit address, derived from the HD key. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type DepositAddress } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { walletKeys } from './keys';

export type { DepositAddress } from '@exchange/api';

/** Fetches the address. Throws ApiError (silent: the page shows LoadFailed with the reason). */
export function getDepositAddress(coin: string, chain: string, signal?: AbortSignal): Promise<DepositAddress> {
  return apiGet<DepositAddress>(API_PATHS.getDepositAddress, { coin, chain }, { signal, silent: true });
}

/** queryOptions of one coin's address on one network (an address does not change). */
export function depositAddressQueryOptions(userId: string, coin: string, chain: string, enabled: boolean) {
  return queryOptions({
    queryKey: walletKeys.depositAddress(userId, coin, chain),
    queryFn: ({ signal }) => getDepositAddress(coin, chain, signal),
    enabled: enabled && !!userId && !!coin && !!chain,
    staleTime: Infinity,
  });
}

/** The signed-in user's address of `coin` on `chain` (disabled when `enabled` is false). */
export function useDepositAddress(coin: string, chain: string, enabled: boolean) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(depositAddressQueryOptions(userId, coin, chain, enabled && isLogin));
}
