/**
 * The signed-in user's identity verification (GET member/kyc/getKyc), shared by the verification pages,
 * the personal centre and the payment methods (whose holder name is the verified real name). Wire types from
 * `@exchange/api` (kyc.ts).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type KycProgress, type KycStatus } from '@exchange/api';
import { apiGet } from '../api-client';
import { useAppStore } from '../storage';

/** State of one verification level (spec section 4: unverified, under review, verified; rejected). */
export type KycState = KycProgress;

export type { IdType, KycBasic, KycAdvanced } from '@exchange/api';

/** GET member/kyc/getKyc. */
export type KycInfo = KycStatus;

/** Query key of the verification of `userId`. */
export const kycQueryKey = (userId: string) => ['kyc', userId] as const;

/** queryOptions of the verification of `userId`. */
export function kycQueryOptions(userId: string) {
  return queryOptions({
    queryKey: kycQueryKey(userId),
    queryFn: ({ signal }) => apiGet<KycInfo>(API_PATHS.getKyc, undefined, { signal }),
    enabled: !!userId,
  });
}

/** The signed-in user's verification (disabled when logged out). */
export function useKyc() {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery({ ...kycQueryOptions(userId), enabled: isLogin && !!userId });
}
