/** POST contract/contract/cancelOrder (login required): cancels one of the caller's open contract orders. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTRACT_PATHS, type ContractOrder } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { invalidateContract } from './keys';

/** Cancels `orderId`; throws ApiError on FAILED (toasted). */
export function cancelContractOrder(orderId: string): Promise<ContractOrder> {
  return apiPost<ContractOrder>(CONTRACT_PATHS.cancelOrder, { orderId });
}

/** Mutation cancelling an order. */
export function useCancelContractOrder() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: cancelContractOrder, onSettled: () => invalidateContract(qc, userId) });
}
