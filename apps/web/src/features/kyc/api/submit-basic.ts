/** POST member/kyc/submitBasic: country, real name, document type and number (+ guardian consent under 16). */
import { API_PATHS } from '@exchange/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../shared/api-client';
import { kycQueryKey, memberQueryKey, type IdType } from '../../../shared/session';
import { useAppStore } from '../../../shared/storage';

/** What submitBasic sends. */
export interface BasicInput {
  country: string;
  realName: string;
  idType: IdType;
  idNumber: string;
  guardianConsent?: boolean;
}

/** Submits; throws ApiError (`guardian_consent_required` silently, so the page can show the checkbox). */
export function submitBasic(input: BasicInput): Promise<unknown> {
  return apiPost(API_PATHS.submitBasic, { ...input, guardianConsent: input.guardianConsent ? 'true' : undefined }, { silent: true });
}

/** Mutation; refetches the verification and the member (cardState) on success. */
export function useSubmitBasic() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({
    mutationFn: submitBasic,
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: kycQueryKey(userId) }), qc.invalidateQueries({ queryKey: memberQueryKey(userId) })]),
  });
}
