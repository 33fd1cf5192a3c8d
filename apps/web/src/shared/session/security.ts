/**
 * GET member/security/getSecurity (issue 10): phone, email, Google, transaction password and withdrawal-lock states
 * of the signed-in user. Shared: the account centre shows them, the payment methods ask whether a transaction
 * password is set before asking for it (and lead to /accountCenter/postPasswordSet when not).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../api-client';
import { useAppStore } from '../storage';

/** Path of getSecurity, relative to /api/. */
export const GET_SECURITY_PATH = 'member/security/getSecurity';

/** Why withdrawals are blocked for 24 h (spec section 9). */
export type WithdrawLockReason = 'PASSWORD_CHANGED' | 'PASSWORD_RESET' | 'GOOGLE_CLOSED';

/** The account centre's states. phone/mail are masked; '' when not bound. Times are Unix ms. */
export interface SecurityInfo {
  phone: string;
  areaCode: string;
  mail: string;
  googleBound: boolean;
  transPasswordSet: boolean;
  withdrawLock: { until: number; reason: WithdrawLockReason } | null;
  lastLogin: { at: number; ip: string } | null;
}

/** Query key of the security states of `userId` (every security mutation invalidates it). */
export const securityQueryKey = (userId: string) => ['security', userId] as const;

/** Fetches the security states of the signed-in user. Throws ApiError. */
export function getSecurity(signal?: AbortSignal): Promise<SecurityInfo> {
  return apiGet<SecurityInfo>(GET_SECURITY_PATH, undefined, { signal });
}

/** queryOptions of the security states of `userId`. */
export function securityQueryOptions(userId: string) {
  return queryOptions({ queryKey: securityQueryKey(userId), queryFn: ({ signal }) => getSecurity(signal), enabled: !!userId });
}

/** The signed-in user's security states (disabled when logged out). */
export function useSecurity() {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery({ ...securityQueryOptions(userId), enabled: isLogin && !!userId });
}
