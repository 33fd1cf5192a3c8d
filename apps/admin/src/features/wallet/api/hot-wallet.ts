/** GET admin/wallet/hotWallet: per chain and coin, the hot wallet and deposit addresses on chain against user liabilities. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_PATHS } from '@exchange/api';
import { apiGet } from '../../../shared/api';
import type { HotWalletRow } from './types';

/** The hot-wallet query. */
export function hotWalletOptions() {
  return queryOptions({ queryKey: ['admin', 'wallet', 'hotWallet'], queryFn: () => apiGet<HotWalletRow[]>(ADMIN_PATHS.hotWallet) });
}

/** The hot-wallet rows. */
export function useHotWallet() {
  return useQuery(hotWalletOptions());
}
