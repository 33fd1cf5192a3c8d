/** GET admin/kyc/detail: one application's submitted data and image ids. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_PATHS, type AdminKycApplication } from '@exchange/api';
import { apiGet } from '../../../shared/api';

/** The query of one application (disabled without an id). */
export function kycDetailOptions(id: string | null) {
  return queryOptions({
    queryKey: ['admin', 'kyc', 'detail', id],
    queryFn: () => apiGet<AdminKycApplication>(ADMIN_PATHS.kycDetail, { id: id ?? '' }),
    enabled: id !== null,
  });
}

/** One application. */
export function useKycDetail(id: string | null) {
  return useQuery(kycDetailOptions(id));
}
