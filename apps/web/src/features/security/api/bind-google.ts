/** POST member/security/bindGoogle and closeGoogle: bind or unbind the Google authenticator. */
import { API_PATHS } from '@exchange/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { securityQueryKey } from './get-security';

/** Binds the pending secret: its current TOTP code + a VERIFY code. Throws ApiError (toasted). */
export function bindGoogle(input: { googleCode: string; verifyCode: string }): Promise<unknown> {
  return apiPost(API_PATHS.bindGoogle, { ...input });
}

/** Unbinds (sets the 24 h withdrawal lock GOOGLE_CLOSED). Throws ApiError (toasted). */
export function closeGoogle(input: { googleCode: string; verifyCode: string }): Promise<unknown> {
  return apiPost(API_PATHS.closeGoogle, { ...input });
}

/** Mutation of `which`; refetches the security states on success. */
export function useGoogleMutation(which: 'bind' | 'close') {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({
    mutationFn: which === 'bind' ? bindGoogle : closeGoogle,
    onSuccess: () => qc.invalidateQueries({ queryKey: securityQueryKey(userId) }),
  });
}
