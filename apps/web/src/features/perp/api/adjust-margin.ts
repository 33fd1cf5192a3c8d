/**
 * POST contract/contract/adjustMargin (login required): adds margin to an isolated position (amount > 0) or removes
 * some (amount < 0, "-5"); answers the position after the change. Silent: the adjust-margin sheet shows a refusal
 * under its amount (the server's message, in the user's language).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTRACT_PATHS, type AdjustMarginBody, type ContractPosition } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { contractKeys, invalidateContract } from './keys';
import { applyPositionPush } from '../hooks/use-contract-live';

/** Adjusts the margin; throws ApiError on FAILED (not toasted). */
export function adjustMargin(body: AdjustMarginBody): Promise<ContractPosition> {
  return apiPost<ContractPosition>(CONTRACT_PATHS.adjustMargin, { ...body }, { silent: true });
}

/** Mutation adjusting the margin: the answered position goes into the positions list at once, then it is re-read. */
export function useAdjustMargin() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({
    mutationFn: adjustMargin,
    onSuccess: (p) => qc.setQueryData<ContractPosition[]>(contractKeys.positions(userId), (old) => (old ? applyPositionPush(old, p) : old)),
    onSettled: () => invalidateContract(qc, userId),
  });
}
