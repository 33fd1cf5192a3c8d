/** POST contract/contract/setMarginMode (login required): cross or isolated; refused with a position or open orders. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTRACT_PATHS, type ContractSettings, type SetMarginModeBody } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { invalidateContract } from './keys';

/** Sets the margin mode; throws ApiError on FAILED (toasted). */
export function setMarginMode(body: SetMarginModeBody): Promise<ContractSettings> {
  return apiPost<ContractSettings>(CONTRACT_PATHS.setMarginMode, { ...body });
}

/** Mutation setting the margin mode. */
export function useSetMarginMode() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: setMarginMode, onSettled: () => invalidateContract(qc, userId) });
}
