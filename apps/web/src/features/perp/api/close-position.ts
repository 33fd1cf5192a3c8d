/** POST contract/contract/closePosition (login required): a market close of the whole position or of `lots` of it. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTRACT_PATHS, type ClosePositionBody, type ContractOrder } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { invalidateContract } from './keys';

/** Closes; throws ApiError on FAILED (toasted). */
export function closePosition(body: ClosePositionBody): Promise<ContractOrder> {
  return apiPost<ContractOrder>(CONTRACT_PATHS.closePosition, { ...body });
}

/** Mutation closing a position. */
export function useClosePosition() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: closePosition, onSettled: () => invalidateContract(qc, userId) });
}
