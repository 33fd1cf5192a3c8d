/** POST member/security/bindAccount: binds the missing phone or e-mail (a BIND code to it + the second proof). */
import { API_PATHS } from '@exchange/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../shared/api-client';
import { memberQueryKey } from '../../../shared/session';
import { useAppStore } from '../../../shared/storage';
import { type SecondFactor } from './contract';
import { securityQueryKey } from './get-security';

/** What bindAccount sends. */
export type BindAccountInput = ({ bindType: 'EMAIL'; mail: string } | { bindType: 'PHONE'; phone: string; areaCode: string }) & { code: string } & SecondFactor;

/** Binds; throws ApiError (toasted; `account_already_bound` when that kind is bound). */
export function bindAccount(input: BindAccountInput): Promise<unknown> {
  return apiPost(API_PATHS.bindAccount, { ...input });
}

/** Mutation; on success the security states and the member (phone/mail) are refetched. */
export function useBindAccount() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({
    mutationFn: bindAccount,
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: securityQueryKey(userId) }), qc.invalidateQueries({ queryKey: memberQueryKey(userId) })]),
  });
}
