/** GET admin/user/detail: a user's profile, KYC, sessions and balances (read-only). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_PATHS, type AdminUserDetail } from '@exchange/api';
import { apiGet } from '../../../shared/api';

/** The query of one user's detail. */
export function userDetailOptions(userId: string) {
  return queryOptions({ queryKey: ['admin', 'users', 'detail', userId], queryFn: () => apiGet<AdminUserDetail>(ADMIN_PATHS.userDetail, { userId }) });
}

/** One user's detail. */
export function useUserDetail(userId: string) {
  return useQuery(userDetailOptions(userId));
}
