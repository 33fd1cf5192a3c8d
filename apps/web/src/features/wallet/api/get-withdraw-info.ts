/**
 * GET asset/wallet/getWithdrawInfo (coin, chain; login): what the withdraw form needs: available balance, minimum,
 * maximum (already the smaller of available, per-withdrawal maximum and what is left of the daily limit), fee,
 * decimals, verification, transaction password and Google states, where the e-mail/SMS code goes, the 24 h lock.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type WithdrawInfo } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { walletKeys } from './keys';

export type { WithdrawInfo } from '@exchange/api';

/** Fetches the form's data. Throws ApiError (silent: the page shows LoadFailed). */
export function getWithdrawInfo(coin: string, chain: string, signal?: AbortSignal): Promise<WithdrawInfo> {
  return apiGet<WithdrawInfo>(API_PATHS.getWithdrawInfo, { coin, chain }, { signal, silent: true });
}

/** queryOptions of the form's data of `coin` on `chain`. */
export function withdrawInfoQueryOptions(userId: string, coin: string, chain: string, enabled: boolean) {
  return queryOptions({
    queryKey: walletKeys.withdrawInfo(userId, coin, chain),
    queryFn: ({ signal }) => getWithdrawInfo(coin, chain, signal),
    enabled: enabled && !!userId && !!coin && !!chain,
  });
}

/** The withdraw form's data for the signed-in user. */
export function useWithdrawInfo(coin: string, chain: string, enabled: boolean) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(withdrawInfoQueryOptions(userId, coin, chain, enabled && isLogin));
}
