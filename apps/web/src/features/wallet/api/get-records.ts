/**
 * GET asset/wallet/getRecords (type, coin?, page from 1, pageSize <= 50; login): the caller's deposits, withdrawals
 * or transfers, newest first. `useRecordPages` pages them for the capital records list; `useRecentDeposits` is the
 * deposit page's first page, polled every 2 s while a deposit is waiting for confirmations (or one is expected).
 */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { API_PATHS, type RecordType, type RecordsPage } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { walletKeys } from './keys';

export type { RecordsPage, RecordType, DepositRecord, WithdrawRecord, TransferRecord } from '@exchange/api';

/** Page size of the records list. */
export const RECORDS_PAGE_SIZE = 20;

/** Poll interval of the deposit page while a deposit is confirming, ms. */
export const CONFIRMING_POLL_MS = 2_000;

/** Fetches one page. Throws ApiError (silent: the list shows LoadFailed). */
export function getRecords(type: RecordType, page: number, coin?: string, signal?: AbortSignal, pageSize = RECORDS_PAGE_SIZE): Promise<RecordsPage> {
  return apiGet<RecordsPage>(API_PATHS.getRecords, { type, coin: coin || undefined, page, pageSize }, { signal, silent: true });
}

/** The records of one page, whichever list `type` names. */
export function recordsOf(p: RecordsPage): unknown[] {
  return p.type === 'coinCharging' ? p.deposits : p.type === 'withdrawCoin' ? p.withdrawals : p.transfers;
}

/** infiniteQueryOptions of a records list, of one coin or ('') all. */
export function recordPagesQueryOptions(userId: string, type: RecordType, coin: string, enabled: boolean) {
  return infiniteQueryOptions({
    queryKey: [...walletKeys.records(userId, type, coin), 'pages'] as const,
    queryFn: ({ pageParam, signal }) => getRecords(type, pageParam, coin, signal),
    initialPageParam: 1,
    getNextPageParam: (last: RecordsPage, all: RecordsPage[]) =>
      all.reduce((n, p) => n + recordsOf(p).length, 0) < last.total && recordsOf(last).length > 0 ? all.length + 1 : undefined,
    enabled: enabled && !!userId,
  });
}

/** The paged list of one record type, of one coin or ('') all. */
export function useRecordPages(type: RecordType, coin = '') {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useInfiniteQuery(recordPagesQueryOptions(userId, type, coin, isLogin));
}

/** queryOptions of the latest deposits of `coin`; polls while one is CONFIRMING or `expecting` (a test deposit sent). */
export function recentDepositsQueryOptions(userId: string, coin: string, expecting: boolean, enabled: boolean) {
  return queryOptions({
    queryKey: walletKeys.records(userId, 'coinCharging', coin),
    queryFn: ({ signal }) => getRecords('coinCharging', 1, coin, signal, 5),
    enabled: enabled && !!userId && !!coin,
    refetchInterval: (q) => (expecting || q.state.data?.deposits.some((d) => d.status === 'CONFIRMING') ? CONFIRMING_POLL_MS : false),
  });
}

/** The deposit page's latest deposits of `coin`. */
export function useRecentDeposits(coin: string, expecting: boolean, enabled: boolean) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(recentDepositsQueryOptions(userId, coin, expecting, enabled && isLogin));
}
