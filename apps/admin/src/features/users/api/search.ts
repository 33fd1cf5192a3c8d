/** GET admin/user/search: users by UID, e-mail or phone. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_PATHS, type AdminUserRow } from '@exchange/api';
import { apiGet } from '../../../shared/api';

/** The query of a search (disabled for an empty one). */
export function userSearchOptions(q: string) {
  return queryOptions({
    queryKey: ['admin', 'users', 'search', q],
    queryFn: () => apiGet<AdminUserRow[]>(ADMIN_PATHS.userSearch, { q }),
    enabled: q.trim() !== '',
  });
}

/** Users matching `q`. */
export function useUserSearch(q: string) {
  return useQuery(userSearchOptions(q));
}
