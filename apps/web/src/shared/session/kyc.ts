/**
 * The signed-in user's identity verification (issue 10; GET member/kyc/getKyc), shared by the verification pages,
 * the personal centre and the payment methods (whose holder name is the verified real name). Shapes mirror the
 * server contract (brief H2) until `@exchange/api` carries them in kyc.ts.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../api-client';
import { useAppStore } from '../storage';

/** Path of getKyc, relative to /api/. */
export const GET_KYC_PATH = 'member/kyc/getKyc';

/** State of one verification level. */
export type KycState = 'NONE' | 'PENDING' | 'PASS' | 'REJECTED';

/** Document types of basic verification. */
export type IdType = 'ID_CARD' | 'PASSPORT' | 'DRIVING_LICENSE';

/** Basic verification as getKyc answers it (idNumber masked: first 3 and last 4). */
export interface KycBasic {
  state: KycState;
  country?: string;
  realName?: string;
  idType?: IdType;
  idNumber?: string;
  rejectReason?: string;
  submittedAt?: number | null;
  decidedAt?: number | null;
}

/** Advanced verification (document photos). */
export interface KycAdvanced {
  state: KycState;
  rejectReason?: string;
  submittedAt?: number | null;
  decidedAt?: number | null;
}

/** GET member/kyc/getKyc. */
export interface KycInfo {
  basic: KycBasic;
  advanced: KycAdvanced;
}

/** Query key of the verification of `userId`. */
export const kycQueryKey = (userId: string) => ['kyc', userId] as const;

/** queryOptions of the verification of `userId`. */
export function kycQueryOptions(userId: string) {
  return queryOptions({
    queryKey: kycQueryKey(userId),
    queryFn: ({ signal }) => apiGet<KycInfo>(GET_KYC_PATH, undefined, { signal }),
    enabled: !!userId,
  });
}

/** The signed-in user's verification (disabled when logged out). */
export function useKyc() {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery({ ...kycQueryOptions(userId), enabled: isLogin && !!userId });
}
