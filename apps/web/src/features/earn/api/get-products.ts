/** GET earn/earn/getProducts (public): the savings products open for locking. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { EARN_PATHS, type EarnProduct } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { earnKeys } from './keys';

/** Fetches the products; throws ApiError. */
export function getEarnProducts(signal?: AbortSignal): Promise<EarnProduct[]> {
  return apiGet<EarnProduct[]>(EARN_PATHS.getProducts, undefined, { signal });
}

/** The products, refreshed every 30 s (the remaining quota moves). */
export function useEarnProducts() {
  return useQuery(queryOptions({ queryKey: earnKeys.products(), queryFn: ({ signal }) => getEarnProducts(signal), refetchInterval: 30_000 }));
}
