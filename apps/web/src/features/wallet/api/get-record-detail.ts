/**
 * GET asset/wallet/getRecordDetail (type, id; login): one record of the caller (not_found for another user's).
 * Polled every 2 s while it is still moving (a deposit confirming, a withdrawal not yet completed, rejected or failed).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type RecordDetail, type RecordType } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { walletKeys } from './keys';
import { CONFIRMING_POLL_MS } from './get-records';

export type { RecordDetail } from '@exchange/api';

/** Fetches one record. Throws ApiError (silent: the page shows LoadFailed). */
export function getRecordDetail(type: RecordType, id: string, signal?: AbortSignal): Promise<RecordDetail> {
  return apiGet<RecordDetail>(API_PATHS.getRecordDetail, { type, id }, { signal, silent: true });
}

/** True while the record can still change state. */
export function isMoving(d: RecordDetail | undefined): boolean {
  if (!d) return false;
  if (d.deposit) return d.deposit.status === 'CONFIRMING';
  if (d.withdrawal) return !['COMPLETED', 'REJECTED', 'FAILED'].includes(d.withdrawal.status);
  return false;
}

/** queryOptions of one record. */
export function recordDetailQueryOptions(userId: string, type: RecordType, id: string, enabled: boolean) {
  return queryOptions({
    queryKey: walletKeys.recordDetail(userId, type, id),
    queryFn: ({ signal }) => getRecordDetail(type, id, signal),
    enabled: enabled && !!userId && !!id,
    refetchInterval: (q) => (isMoving(q.state.data) ? CONFIRMING_POLL_MS : false),
  });
}

/** One record of the signed-in user. */
export function useRecordDetail(type: RecordType, id: string) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(recordDetailQueryOptions(userId, type, id, isLogin));
}
