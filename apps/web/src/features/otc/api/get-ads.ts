/**
 * GET otc/otc/getAds?side&amount&payType (public): the market's online ads for the USER's side (BUY lists the
 * merchants' SELL ads, cheapest first), polled every 5 s (spec section 9's list polling).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { OTC_PATHS, type OtcAdPage, type OtcPayType, type OtcSide } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { otcKeys } from './keys';

/** Page size of the market. */
export const OTC_ADS_PAGE_SIZE = 50;

/** Fetches the first page; throws ApiError. */
export function getOtcAds(side: OtcSide, amount: string, payType: OtcPayType | '', signal?: AbortSignal): Promise<OtcAdPage> {
  return apiGet<OtcAdPage>(
    OTC_PATHS.getAds,
    { side, amount: amount || undefined, payType: payType || undefined, page: 1, pageSize: OTC_ADS_PAGE_SIZE },
    { signal, silent: true },
  );
}

/** The market's ads for `side`, filtered by a fiat amount and a payment type ('' = any). */
export function useOtcAds(side: OtcSide, amount: string, payType: OtcPayType | '') {
  return useQuery(
    queryOptions({ queryKey: otcKeys.ads(side, amount, payType), queryFn: ({ signal }) => getOtcAds(side, amount, payType, signal), refetchInterval: 5_000 }),
  );
}
