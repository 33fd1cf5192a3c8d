/**
 * POST asset/wallet/withdraw: holds `amount` (fee included) at once and files the withdrawal for review. `clientId`
 * is the idempotency key: a retry with the same id answers the first withdrawal. Answers the withdrawal record.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, type WithdrawBody, type WithdrawRecord } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { invalidateAfterMove } from './keys';

/** Sends the withdrawal. Throws ApiError (toasted: trans_password_wrong, withdrawal_locked, daily_limit_exceeded ...). */
export function withdraw(body: WithdrawBody): Promise<WithdrawRecord> {
  return apiPost<WithdrawRecord>(API_PATHS.withdraw, { ...body });
}

/** Mutation; balances and records are refetched. */
export function useWithdraw() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: withdraw, onSuccess: () => invalidateAfterMove(qc, userId) });
}
