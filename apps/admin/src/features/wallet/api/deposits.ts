/** GET admin/wallet/deposits: the deposit monitor, status filter (default ALL), newest first, paged. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_PATHS } from '@exchange/api';
import { apiGet } from '../../../shared/api';
import type { AdminDepositsPage, DepositStatus } from './types';

/** The monitor's filter. */
export interface DepositsFilter {
  status: DepositStatus | 'ALL';
  page: number;
}

/** The query of one page; refreshed every 10 s (confirmations move). */
export function depositsOptions(f: DepositsFilter) {
  return queryOptions({
    queryKey: ['admin', 'wallet', 'deposits', f],
    queryFn: () => apiGet<AdminDepositsPage>(ADMIN_PATHS.deposits, { status: f.status, page: String(f.page) }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
}

/** One page of the monitor. */
export function useDeposits(f: DepositsFilter) {
  return useQuery(depositsOptions(f));
}
