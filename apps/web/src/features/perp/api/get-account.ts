/**
 * GET contract/contract/getAccount (login required): the contract account in USDT at the mark prices (available
 * balance for new orders, margins, unrealized PnL, risk level). 'contractAccount' pushes replace it
 * (hooks/use-contract-live).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CONTRACT_PATHS, type ContractAccount } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { contractKeys } from './keys';

/** Fetches the account; throws ApiError on failure. */
export function getContractAccount(signal?: AbortSignal): Promise<ContractAccount> {
  return apiGet<ContractAccount>(CONTRACT_PATHS.getAccount, undefined, { signal, silent: true });
}

/** queryOptions of the account (disabled when logged out). */
export function contractAccountOptions(userId: string, enabled: boolean) {
  return queryOptions({
    queryKey: contractKeys.account(userId),
    queryFn: ({ signal }) => getContractAccount(signal),
    enabled: enabled && !!userId,
    staleTime: 3_000,
  });
}

/** The caller's contract account (undefined while loading or logged out). */
export function useContractAccount() {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(contractAccountOptions(userId, isLogin));
}
