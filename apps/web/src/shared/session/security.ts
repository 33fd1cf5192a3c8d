/**
 * GET member/security/getSecurity: phone, email, Google, transaction password and withdrawal-lock states
 * of the signed-in user. Shared: the account centre shows them, the payment methods ask whether a transaction
 * password is set before asking for it (and lead to /accountCenter/postPasswordSet when not).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type SecurityState } from '@exchange/api';
import { apiGet } from '../api-client';
import { useAppStore } from '../storage';

/** Why withdrawals are blocked for 24 h (spec section 9). */
export type { WithdrawLockReason } from '@exchange/api';

/** The account centre's states (phone/mail masked; '' when not bound; times Unix ms). */
export type SecurityInfo = SecurityState;

/** Query key of the security states of `userId` (every security mutation invalidates it). */
export const securityQueryKey = (userId: string) => ['security', userId] as const;

/** Fetches the security states of the signed-in user. Throws ApiError. */
export function getSecurity(signal?: AbortSignal): Promise<SecurityInfo> {
  return apiGet<SecurityInfo>(API_PATHS.getSecurity, undefined, { signal });
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
