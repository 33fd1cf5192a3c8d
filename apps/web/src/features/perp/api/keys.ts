/**
 * Query keys of the contract screens. Every key of a user's contract data starts with
 * ['contract', userId] so that an order, a close or a setting change can invalidate all of it; the assets overview's
 * key is repeated here (features do not import each other): ['asset', userId, 'assets'].
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ContractOrderTab } from '@exchange/api';

/** The contract screens' query keys. */
export const contractKeys = {
  user: (userId: string) => ['contract', userId] as const,
  account: (userId: string) => ['contract', userId, 'account'] as const,
  positions: (userId: string) => ['contract', userId, 'positions'] as const,
  settings: (userId: string, symbol: string) => ['contract', userId, 'settings', symbol] as const,
  orders: (userId: string, tab: ContractOrderTab, symbol = '') => ['contract', userId, 'orders', tab, symbol] as const,
  orderPages: (userId: string, tab: ContractOrderTab) => ['contract', userId, 'orders', tab, '', 'pages'] as const,
  orderDetail: (userId: string, orderId: string) => ['contract', userId, 'orderDetail', orderId] as const,
  conditional: (userId: string, tab: ConditionalTab, symbol = '') => ['contract', userId, 'conditional', tab, symbol] as const,
};

/** The conditional orders' lists: pending ones, and the triggered, cancelled or expired ones. */
export type ConditionalTab = 'open' | 'history';

/** The assets overview's key (features/assets). */
export const assetsKey = (userId: string) => ['asset', userId, 'assets'] as const;

/** After an order, a close or a setting change: the user's contract data and balances are stale. */
export function invalidateContract(qc: QueryClient, userId: string): Promise<void> {
  return Promise.all([qc.invalidateQueries({ queryKey: contractKeys.user(userId) }), qc.invalidateQueries({ queryKey: assetsKey(userId) })]).then(
    () => undefined,
  );
}
