/** POST member/kyc/submitAdvanced: the ids of the uploaded ID front, back and handheld photos. */
import { API_PATHS } from '@exchange/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../shared/api-client';
import { kycQueryKey } from '../../../shared/session';
import { useAppStore } from '../../../shared/storage';

/** Submits the three images. Throws ApiError (toasted). */
export function submitAdvanced(input: { frontImageId: string; backImageId: string; handheldImageId: string }): Promise<unknown> {
  return apiPost(API_PATHS.submitAdvanced, { ...input });
}

/** Mutation; refetches the verification on success. */
export function useSubmitAdvanced() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: submitAdvanced, onSuccess: () => qc.invalidateQueries({ queryKey: kycQueryKey(userId) }) });
}
