/** GET invite/invite/rebates: a page of the caller's rebates per settled day. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { INVITE_PATHS, type RebateDayPage } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { INVITE_PAGE_SIZE } from './get-invitees';
import { inviteKeys } from './keys';

/** Fetches one page. */
export function getRebateDays(page: number, signal?: AbortSignal): Promise<RebateDayPage> {
  return apiGet<RebateDayPage>(INVITE_PATHS.rebates, { page, pageSize: INVITE_PAGE_SIZE }, { signal });
}

/** Query options of one page. */
export const rebateDaysQuery = (page: number) =>
  queryOptions({ queryKey: inviteKeys.rebates(page), queryFn: ({ signal }) => getRebateDays(page, signal), placeholderData: keepPreviousData });

/** One page of rebate days. */
export function useRebateDays(page: number) {
  return useQuery(rebateDaysQuery(page));
}
