/** GET invite/invite/summary: the caller's invitees, rebates paid and pending, and threshold standing. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { INVITE_PATHS, type InviteSummary } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { inviteKeys } from './keys';

/** Fetches the summary. */
export function getInviteSummary(signal?: AbortSignal): Promise<InviteSummary> {
  return apiGet<InviteSummary>(INVITE_PATHS.summary, undefined, { signal });
}

/** Query options of the summary. */
export const inviteSummaryQuery = () => queryOptions({ queryKey: inviteKeys.summary, queryFn: ({ signal }) => getInviteSummary(signal) });

/** The summary (logged in only: `enabled`). */
export function useInviteSummary(enabled: boolean) {
  return useQuery({ ...inviteSummaryQuery(), enabled });
}
