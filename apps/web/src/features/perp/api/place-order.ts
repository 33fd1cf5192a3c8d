/**
 * POST contract/contract/placeOrder (login and nickname required): opens (or reduces) a position by lots. The body
 * carries a client order id, so retrying the same submission returns the first order instead of a second one.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTRACT_PATHS, type ContractOrder } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { invalidateContract } from './keys';

/** Sends the order; throws ApiError on FAILED (errorMessage toasted by the client unless `silent`). */
export function placeContractOrder(body: Record<string, string>, silent = false): Promise<ContractOrder> {
  return apiPost<ContractOrder>(CONTRACT_PATHS.placeOrder, body, { silent });
}

/** Mutation placing an order (errors come back to the form, which explains an insufficient balance itself). */
export function usePlaceContractOrder() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: (body: Record<string, string>) => placeContractOrder(body, true), onSettled: () => invalidateContract(qc, userId) });
}
