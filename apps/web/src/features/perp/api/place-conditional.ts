/**
 * POST contract/contract/placeConditionalOrder (login required): a stop-limit, stop-market, take-profit or trailing
 * stop order, pending until the mark or last price reaches its trigger. The body carries a client order id, so
 * retrying the same submission returns the first order instead of a second one.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTRACT_PATHS, type ContractConditionalOrder } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { invalidateContract } from './keys';

/** Sends the order; throws ApiError on FAILED (errorMessage toasted by the client unless `silent`). */
export function placeContractConditional(body: Record<string, string>, silent = false): Promise<ContractConditionalOrder> {
  return apiPost<ContractConditionalOrder>(CONTRACT_PATHS.placeConditionalOrder, body, { silent });
}

/** Mutation placing a conditional order (errors come back to the form, which toasts the server's message). */
export function usePlaceContractConditional() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({
    mutationFn: (body: Record<string, string>) => placeContractConditional(body, true),
    onSettled: () => invalidateContract(qc, userId),
  });
}
