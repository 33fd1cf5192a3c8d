/** GET otc/otc/getAd?adId (public): one ad, for the order entry page. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { OTC_PATHS, type OtcAd } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { otcKeys } from './keys';

/** Fetches the ad; throws ApiError. */
export function getOtcAd(adId: string, signal?: AbortSignal): Promise<OtcAd> {
  return apiGet<OtcAd>(OTC_PATHS.getAd, { adId }, { signal, silent: true });
}

/** The ad `adId`, refreshed every 10 s (price of a floating ad, what is left). */
export function useOtcAd(adId: string) {
  return useQuery(queryOptions({ queryKey: otcKeys.ad(adId), queryFn: ({ signal }) => getOtcAd(adId, signal), enabled: !!adId, refetchInterval: 10_000 }));
}
