/** GET member/security/getSecurityLog { pageNo, pageSize }: logins and security events, newest first. */
import { API_PATHS } from '@exchange/api';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiGet } from '../../../shared/api-client';
import { type SecurityLogEntry, type SecurityLogPage } from './contract';

/** Entries a page. */
export const LOG_PAGE_SIZE = 20;

/** The entries of a page. */
export function logEntries(page: SecurityLogPage): SecurityLogEntry[] {
  return page.list;
}

/** Fetches page `pageNo` (1-based). Throws ApiError. */
export function getSecurityLog(pageNo: number, signal?: AbortSignal): Promise<SecurityLogPage> {
  return apiGet<SecurityLogPage>(API_PATHS.getSecurityLog, { pageNo, pageSize: LOG_PAGE_SIZE }, { signal });
}

/** The log as an infinite query; it ends when `total` entries are loaded. */
export function useSecurityLog() {
  return useInfiniteQuery({
    queryKey: ['security', 'log'],
    queryFn: ({ pageParam, signal }) => getSecurityLog(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (all.reduce((n, p) => n + p.list.length, 0) >= last.total || last.list.length === 0 ? undefined : all.length + 1),
  });
}
