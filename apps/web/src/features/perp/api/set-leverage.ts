/** POST contract/contract/setLeverage (login required): the caller's leverage in a market; settings and positions refetch. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTRACT_PATHS, type ContractSettings, type SetLeverageBody } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { invalidateContract } from './keys';

/** Sets the leverage; throws ApiError on FAILED (toasted). */
export function setLeverage(body: SetLeverageBody): Promise<ContractSettings> {
  return apiPost<ContractSettings>(CONTRACT_PATHS.setLeverage, { ...body });
}

/** Mutation setting the leverage. */
export function useSetLeverage() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: setLeverage, onSettled: () => invalidateContract(qc, userId) });
}
