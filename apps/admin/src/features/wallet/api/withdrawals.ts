/** GET admin/wallet/withdrawals (status filter, default REVIEW; paged) and the approve and reject decisions. */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ADMIN_PATHS } from '@exchange/api';
import { apiGet, apiPost } from '../../../shared/api';
import type { AdminWithdrawalsPage, WithdrawStatus } from './types';

/** The queue's filter: a status or ALL, the page from 1. */
export interface WithdrawalsFilter {
  status: WithdrawStatus | 'ALL';
  page: number;
}

/** The query of one page of the queue. */
export function withdrawalsOptions(f: WithdrawalsFilter) {
  return queryOptions({
    queryKey: ['admin', 'wallet', 'withdrawals', f],
    queryFn: () => apiGet<AdminWithdrawalsPage>(ADMIN_PATHS.withdrawals, { status: f.status, page: String(f.page) }),
    placeholderData: keepPreviousData,
  });
}

/** One page of the queue. */
export function useWithdrawals(f: WithdrawalsFilter) {
  return useQuery(withdrawalsOptions(f));
}

/** A decision on a withdrawal: approve, or reject with a reason in both languages. */
export type WithdrawalDecision = { id: string; approve: true } | { id: string; approve: false; reasonZh: string; reasonEn: string };

/** Sends the decision. */
export function decideWithdrawal(d: WithdrawalDecision): Promise<null> {
  return d.approve
    ? apiPost<null>(ADMIN_PATHS.approveWithdrawal, { id: d.id })
    : apiPost<null>(ADMIN_PATHS.rejectWithdrawal, { id: d.id, reasonZh: d.reasonZh, reasonEn: d.reasonEn });
}

/** The decision mutation; refreshes every console query (queue, audit log). */
export function useDecideWithdrawal() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: decideWithdrawal, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
