/** GET entrust/entrust/getEntrustDetail?id (login required): one order with its fills. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type EntrustDetail } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';

/** Fetches an order with fills; throws ApiError on failure. */
export function getEntrustDetail(id: string, signal?: AbortSignal): Promise<EntrustDetail> {
  return apiGet<EntrustDetail>(API_PATHS.getEntrustDetail, { id }, { signal });
}

/** queryOptions of an order's detail. */
export function entrustDetailQueryOptions(id: string, enabled = true) {
  return queryOptions({ queryKey: ['entrust', 'detail', id] as const, queryFn: ({ signal }) => getEntrustDetail(id, signal), enabled });
}

/** The detail of order `id` (fetched when `enabled`, e.g. when the row is expanded). */
export function useEntrustDetail(id: string, enabled: boolean) {
  return useQuery(entrustDetailQueryOptions(id, enabled));
}
