/** POST asset/wallet/demoDeposit (demo mode only): the dev chain's faucet pays `amount` to the caller's address. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, type DemoDepositBody } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { walletKeys } from './keys';

/** Sends the test deposit; resolves with the chain transaction. Throws ApiError (toasted). */
export function demoDeposit(body: DemoDepositBody): Promise<{ txHash: string }> {
  return apiPost<{ txHash: string }>(API_PATHS.demoDeposit, { ...body });
}

/** Mutation; the deposit records are refetched (the watcher lists the deposit once it sees the block). */
export function useDemoDeposit() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: demoDeposit, onSuccess: () => qc.invalidateQueries({ queryKey: [...walletKeys.user(userId), 'records'] }) });
}
