/** GET otc/otc/getMerchant (login): the caller's merchant record (state NONE when never applied) and stats. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { OTC_PATHS, type OtcMerchantView } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { otcKeys } from './keys';

/** Fetches the record; throws ApiError. */
export function getOtcMerchant(signal?: AbortSignal): Promise<OtcMerchantView> {
  return apiGet<OtcMerchantView>(OTC_PATHS.getMerchant, undefined, { signal, silent: true });
}

/** The caller's merchant record (disabled when logged out). */
export function useOtcMerchant() {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(queryOptions({ queryKey: otcKeys.merchant(userId), queryFn: ({ signal }) => getOtcMerchant(signal), enabled: isLogin && !!userId }));
}
