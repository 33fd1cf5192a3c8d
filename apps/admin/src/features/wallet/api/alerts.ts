/** GET admin/wallet/alerts: chain alerts (deep reorgs, failed broadcasts ...), newest first. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_PATHS } from '@exchange/api';
import { apiGet } from '../../../shared/api';
import type { ChainAlert } from './types';

/** The alerts query; refreshed every 30 s. */
export function alertsOptions() {
  return queryOptions({ queryKey: ['admin', 'wallet', 'alerts'], queryFn: () => apiGet<ChainAlert[]>(ADMIN_PATHS.chainAlerts), refetchInterval: 30_000 });
}

/** The chain alerts. */
export function useChainAlerts() {
  return useQuery(alertsOptions());
}
