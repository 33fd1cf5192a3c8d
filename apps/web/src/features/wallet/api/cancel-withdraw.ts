/** POST asset/wallet/cancelWithdraw: the owner cancels a withdrawal still under review (the hold is released). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { invalidateAfterMove } from './keys';

/** Cancels withdrawal `id`. Throws ApiError (toasted: withdrawal_state_invalid once it left review). */
export function cancelWithdraw(id: string): Promise<unknown> {
  return apiPost(API_PATHS.cancelWithdraw, { id });
}

/** Mutation; balances and records are refetched. */
export function useCancelWithdraw() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: cancelWithdraw, onSettled: () => invalidateAfterMove(qc, userId) });
}
