/**
 * Query keys of the wallet. Every key of a user's wallet data starts with ['wallet', userId] so that a
 * mutation can invalidate all of it; the coin list is public. The assets overview's key is repeated here (features do
 * not import each other): ['asset', userId, 'assets'] is features/assets/api/get-assets.ts `assetsQueryKey`.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { RecordType } from '@exchange/api';

/** The wallet's query keys. */
export const walletKeys = {
  coins: () => ['wallet-coins'] as const,
  user: (userId: string) => ['wallet', userId] as const,
  depositAddress: (userId: string, coin: string, chain: string) => ['wallet', userId, 'depositAddress', coin, chain] as const,
  withdrawInfo: (userId: string, coin: string, chain: string) => ['wallet', userId, 'withdrawInfo', coin, chain] as const,
  records: (userId: string, type: RecordType, coin = '') => ['wallet', userId, 'records', type, coin] as const,
  recordDetail: (userId: string, type: RecordType, id: string) => ['wallet', userId, 'recordDetail', type, id] as const,
  addressBook: (userId: string) => ['wallet', userId, 'addressBook'] as const,
};

/** The assets overview's key (features/assets get-assets.ts). */
export const assetsKey = (userId: string) => ['asset', userId, 'assets'] as const;

/** The contract account's key (features/perp api/keys.ts `contractKeys.account`): the transfer form's maximum out of CONTRACT. */
export const contractAccountKey = (userId: string) => ['contract', userId, 'account'] as const;

/** After money moved: the balances and every wallet list and form of the user are stale. */
export function invalidateAfterMove(qc: QueryClient, userId: string): Promise<void> {
  return Promise.all([qc.invalidateQueries({ queryKey: assetsKey(userId) }), qc.invalidateQueries({ queryKey: walletKeys.user(userId) })]).then(
    () => undefined,
  );
}
