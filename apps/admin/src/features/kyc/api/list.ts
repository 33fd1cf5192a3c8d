/** GET admin/kyc/list: KYC applications, pending first, filtered by state and level, paged. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_PATHS, type AdminKycPage } from '@exchange/api';
import { apiGet } from '../../../shared/api';

/** The queue's filter. */
export interface KycFilter {
  state?: 'PENDING' | 'PASS' | 'REJECTED';
  level?: 'BASIC' | 'ADVANCED';
  page: number;
  pageSize: number;
}

/** The query of one page of the queue. */
export function kycListOptions(f: KycFilter) {
  return queryOptions({
    queryKey: ['admin', 'kyc', 'list', f],
    queryFn: () => apiGet<AdminKycPage>(ADMIN_PATHS.kycList, { ...f }),
    placeholderData: keepPreviousData,
  });
}

/** One page of the queue. */
export function useKycList(f: KycFilter) {
  return useQuery(kycListOptions(f));
}
