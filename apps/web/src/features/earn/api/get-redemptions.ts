/** GET earn/earn/getRedemptions (login): the user's redemptions (/redeem_record), latest first. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { EARN_PATHS, type EarnLockPage } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { earnKeys } from './keys';

/** Fetches the latest 100 redemptions; throws ApiError. */
export function getEarnRedemptions(signal?: AbortSignal): Promise<EarnLockPage> {
  return apiGet<EarnLockPage>(EARN_PATHS.getRedemptions, { page: 1, pageSize: 100 }, { signal });
}

/** The signed-in user's redemptions. */
export function useEarnRedemptions() {
  const userId = useAppStore((s) => s.userId);
  return useQuery(queryOptions({ queryKey: earnKeys.redemptions(userId), queryFn: ({ signal }) => getEarnRedemptions(signal), enabled: !!userId }));
}
