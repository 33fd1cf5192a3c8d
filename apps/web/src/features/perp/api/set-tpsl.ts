/** POST contract/contract/setTpSl (login required): a position's take profit and stop loss ('' clears one). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTRACT_PATHS, type ContractPosition, type SetTpSlBody } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { invalidateContract } from './keys';

/** Sets TP/SL; throws ApiError on FAILED (toasted, e.g. take profit on the wrong side). */
export function setTpSl(body: SetTpSlBody): Promise<ContractPosition> {
  return apiPost<ContractPosition>(CONTRACT_PATHS.setTpSl, { ...body });
}

/** Mutation setting TP/SL. */
export function useSetTpSl() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: setTpSl, onSettled: () => invalidateContract(qc, userId) });
}
