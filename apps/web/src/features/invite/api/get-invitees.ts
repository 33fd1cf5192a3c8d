/** GET invite/invite/invitees: a page of the caller's invitees (masked account, rebate earned, registration time). */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { INVITE_PATHS, type InviteePage } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { inviteKeys } from './keys';

/** Rows per page of the invitation lists. */
export const INVITE_PAGE_SIZE = 20;

/** Fetches one page. */
export function getInvitees(page: number, signal?: AbortSignal): Promise<InviteePage> {
  return apiGet<InviteePage>(INVITE_PATHS.invitees, { page, pageSize: INVITE_PAGE_SIZE }, { signal });
}

/** Query options of one page. */
export const inviteesQuery = (page: number) =>
  queryOptions({ queryKey: inviteKeys.invitees(page), queryFn: ({ signal }) => getInvitees(page, signal), placeholderData: keepPreviousData });

/** One page of invitees. */
export function useInvitees(page: number) {
  return useQuery(inviteesQuery(page));
}
