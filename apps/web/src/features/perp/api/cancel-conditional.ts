/** POST contract/contract/cancelConditionalOrder (login required): cancels one of the caller's pending conditional orders. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTRACT_PATHS, type ContractConditionalOrder } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { invalidateContract } from './keys';

/** Cancels `orderId`; throws ApiError on FAILED (toasted). */
export function cancelContractConditional(orderId: string): Promise<ContractConditionalOrder> {
  return apiPost<ContractConditionalOrder>(CONTRACT_PATHS.cancelConditionalOrder, { orderId });
}

/** Mutation cancelling a conditional order. */
export function useCancelContractConditional() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: cancelContractConditional, onSettled: () => invalidateContract(qc, userId) });
}
