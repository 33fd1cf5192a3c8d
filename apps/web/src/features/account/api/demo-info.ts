/**
 * GET demo/info (public): whether the server runs the demo and the whole USDT each new account is
 * credited there ("0" without demo mode). The sign-up page says the figure; it never changes while a
 * server runs, so it is fetched once. Failures are silent: the page then just does not mention it.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type DemoInfo } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { isDecimal, isZeroDecimal } from '../../../shared/format';

/** Query key of the demo info. */
export const demoInfoQueryKey = ['demo', 'info'] as const;

/** Fetches the demo info without toasting a failure; throws ApiError. */
export function getDemoInfo(signal?: AbortSignal): Promise<DemoInfo> {
  return apiGet<DemoInfo>(API_PATHS.demoInfo, undefined, { signal, silent: true });
}

/** queryOptions of the demo info (kept for the session, one try). */
export function demoInfoQueryOptions() {
  return queryOptions({ queryKey: demoInfoQueryKey, queryFn: ({ signal }) => getDemoInfo(signal), staleTime: Infinity, gcTime: Infinity, retry: false });
}

/** The USDT a new account gets (decimal string, e.g. "10000"), or null when none or not known. */
export function useWelcomeUsdt(): string | null {
  const q = useQuery(demoInfoQueryOptions());
  const usdt = q.data?.demoMode ? q.data.welcomeUsdt : null;
  return usdt && isDecimal(usdt) && !isZeroDecimal(usdt) ? usdt : null;
}
