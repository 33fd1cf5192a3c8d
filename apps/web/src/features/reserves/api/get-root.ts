/** GET asset/reserves/getRoot (public): the latest proof-of-reserves snapshot, or null when none is published yet. */
import { useQuery } from '@tanstack/react-query';
import { API_PATHS, type ReservesRoot } from '@exchange/api';
import { apiGet, isApiError } from '../../../shared/api-client';

/** Query key of the published root. */
export const reservesRootKey = ['reserves', 'root'] as const;

/** Fetches the root; null for reserves_no_snapshot (the page says so). Throws ApiError otherwise. */
export async function getReservesRoot(signal?: AbortSignal): Promise<ReservesRoot | null> {
  try {
    return await apiGet<ReservesRoot>(API_PATHS.getReservesRoot, undefined, { signal, silent: true });
  } catch (e) {
    if (isApiError(e, 'reserves_no_snapshot')) return null;
    throw e;
  }
}

/** The published root. */
export function useReservesRoot() {
  return useQuery({ queryKey: reservesRootKey, queryFn: ({ signal }) => getReservesRoot(signal), retry: false });
}
