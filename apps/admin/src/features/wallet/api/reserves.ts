/**
 * Proof of reserves in the console: the latest published root (GET asset/reserves/getRoot, the public answer the app
 * shows) and POST admin/wallet/reservesSnapshot (permission wallet_decide), which publishes a new one.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ADMIN_PATHS, API_PATHS, type ReservesRoot } from '@exchange/api';
import { ApiError, apiGet, apiPost } from '../../../shared/api';
import type { AdminReservesResult } from './types';

/** The latest root, or null when none was published yet (reserves_no_snapshot). */
export function reservesRootOptions() {
  return queryOptions({
    queryKey: ['admin', 'wallet', 'reservesRoot'],
    queryFn: async (): Promise<ReservesRoot | null> => {
      try {
        return await apiGet<ReservesRoot>(API_PATHS.getReservesRoot);
      } catch (e) {
        if (e instanceof ApiError && e.code === 'reserves_no_snapshot') return null;
        throw e;
      }
    },
  });
}

/** The latest root. */
export function useReservesRoot() {
  return useQuery(reservesRootOptions());
}

/** Takes a snapshot; refreshes the root and the audit log. */
export function useTakeReservesSnapshot() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<AdminReservesResult>(ADMIN_PATHS.reservesSnapshot),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }),
  });
}
