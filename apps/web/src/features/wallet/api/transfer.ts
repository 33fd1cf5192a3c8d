/**
 * POST asset/wallet/transfer: moves `amount` of `coin` between two of the caller's accounts, free (spec section 9),
 * exact to the unit. `clientId` is the idempotency key. Answers the transfer record.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, type TransferBody, type TransferRecord } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { contractAccountKey, invalidateAfterMove } from './keys';

/** Sends the transfer. Throws ApiError (toasted: insufficient balance, same account ...). */
export function transfer(body: TransferBody): Promise<TransferRecord> {
  return apiPost<TransferRecord>(API_PATHS.transfer, { ...body });
}

/** Mutation; balances, records and the contract account (its max withdraw amount) are refetched. */
export function useTransfer() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({
    mutationFn: transfer,
    onSuccess: () => Promise.all([invalidateAfterMove(qc, userId), qc.invalidateQueries({ queryKey: contractAccountKey(userId) })]).then(() => undefined),
  });
}
