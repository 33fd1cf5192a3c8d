/** GET earn/earn/getLocks (login): the user's locks still running (/mort_record), newest first. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { EARN_PATHS, type EarnLockPage } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { earnKeys } from './keys';

/** Fetches the first 100 running locks; throws ApiError. */
export function getEarnLocks(signal?: AbortSignal): Promise<EarnLockPage> {
  return apiGet<EarnLockPage>(EARN_PATHS.getLocks, { status: 'LOCKED', page: 1, pageSize: 100 }, { signal });
}

/** The signed-in user's running locks, refreshed every 10 s (the daily interest arrives by the job). */
export function useEarnLocks() {
  const userId = useAppStore((s) => s.userId);
  return useQuery(
    queryOptions({ queryKey: earnKeys.locks(userId), queryFn: ({ signal }) => getEarnLocks(signal), enabled: !!userId, refetchInterval: 10_000 }),
  );
}
