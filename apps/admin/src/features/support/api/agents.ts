/** GET admin/support/agents: operators who can take conversations (roles with `support`), online or not. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { SUPPORT_ADMIN_PATHS, type SupportAgent } from '@exchange/api';
import { apiGet } from '../../../shared/api';

/** The query of the agents. */
export const agentsOptions = () =>
  queryOptions({ queryKey: ['admin', 'support', 'agents'], queryFn: () => apiGet<SupportAgent[]>(SUPPORT_ADMIN_PATHS.agents), refetchInterval: 30_000 });

/** The agents. */
export function useAgents() {
  return useQuery(agentsOptions());
}
