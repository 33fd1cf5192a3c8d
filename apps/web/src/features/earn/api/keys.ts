/**
 * Query keys of the savings screens. A user's data sits under ['earn', userId]; the public products under
 * ['earn', 'public']. The assets overview's key is repeated here (features do not import each other): a lock or a
 * redemption moves the ASSETS balance.
 */
import type { QueryClient } from '@tanstack/react-query';

export const earnKeys = {
  products: () => ['earn', 'public', 'products'] as const,
  user: (userId: string) => ['earn', userId] as const,
  locks: (userId: string) => ['earn', userId, 'locks'] as const,
  redemptions: (userId: string) => ['earn', userId, 'redemptions'] as const,
};

/** The assets overview's key (features/assets). */
export const assetsKey = (userId: string) => ['asset', userId, 'assets'] as const;

/** After a lock or a redemption: the user's savings, the products' quotas and the balances are stale. */
export function invalidateEarn(qc: QueryClient, userId: string): Promise<void> {
  return Promise.all([
    qc.invalidateQueries({ queryKey: earnKeys.user(userId) }),
    qc.invalidateQueries({ queryKey: earnKeys.products() }),
    qc.invalidateQueries({ queryKey: assetsKey(userId) }),
  ]).then(() => undefined);
}
