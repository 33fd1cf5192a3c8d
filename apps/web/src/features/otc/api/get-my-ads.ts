/** GET otc/otc/getMyAds (login): the merchant's own ads, every status. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { OTC_PATHS, type OtcAd } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { otcKeys } from './keys';

/** Fetches the ads; throws ApiError. */
export function getMyOtcAds(signal?: AbortSignal): Promise<OtcAd[]> {
  return apiGet<OtcAd[] | { records: OtcAd[] }>(OTC_PATHS.getMyAds, undefined, { signal, silent: true }).then((r) => (Array.isArray(r) ? r : r.records));
}

/** The caller's ads (disabled when logged out). */
export function useMyOtcAds() {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(
    queryOptions({ queryKey: otcKeys.myAds(userId), queryFn: ({ signal }) => getMyOtcAds(signal), enabled: isLogin && !!userId, refetchInterval: 10_000 }),
  );
}
