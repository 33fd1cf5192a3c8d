/** GET invite/invite/rules (public): the rebate rules and constants (spec section 9). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { INVITE_PATHS, type InviteRules } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { inviteKeys } from './keys';

/** Fetches the rules. */
export function getInviteRules(signal?: AbortSignal): Promise<InviteRules> {
  return apiGet<InviteRules>(INVITE_PATHS.rules, undefined, { signal });
}

/** Query options of the rules (they change only with a deployment). */
export const inviteRulesQuery = () => queryOptions({ queryKey: inviteKeys.rules, queryFn: ({ signal }) => getInviteRules(signal), staleTime: 3_600_000 });

/** The rules. */
export function useInviteRules() {
  return useQuery(inviteRulesQuery());
}
