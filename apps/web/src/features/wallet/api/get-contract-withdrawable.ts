/**
 * GET contract/contract/getAccount (login): the contract account, read by the transfer form for `maxWithdrawAmount`,
 * what may leave the contract account while positions are open (its available balance plus the cross unrealized
 * loss, never a profit; Binance's max withdraw amount). The same endpoint and query key as the contract screen's
 * account (features/perp get-account.ts, not imported: features do not import each other), so the two share one
 * cache entry and the contract screen's pushes and invalidations keep it fresh.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CONTRACT_PATHS, type ContractAccount } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { contractAccountKey } from './keys';

/** Refetch interval while the transfer form shows it, ms: the unrealized loss moves with the mark price. */
export const CONTRACT_ACCOUNT_POLL_MS = 5_000;

/** Fetches the contract account. Throws ApiError (silent: the form falls back to the ledger's balance, the server checks). */
export function getContractAccount(signal?: AbortSignal): Promise<ContractAccount> {
  return apiGet<ContractAccount>(CONTRACT_PATHS.getAccount, undefined, { signal, silent: true });
}

/** queryOptions of the contract account (fetched when `enabled`: the transfer leaves the contract account). */
export function contractWithdrawableQueryOptions(userId: string, enabled: boolean) {
  return queryOptions({
    queryKey: contractAccountKey(userId),
    queryFn: ({ signal }) => getContractAccount(signal),
    enabled: enabled && !!userId,
    staleTime: 3_000,
    refetchInterval: CONTRACT_ACCOUNT_POLL_MS,
  });
}

/** The signed-in user's contract account, while `enabled` (from CONTRACT). */
export function useContractWithdrawable(enabled: boolean) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(contractWithdrawableQueryOptions(userId, enabled && isLogin));
}
