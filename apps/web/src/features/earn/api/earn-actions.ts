/** POST earn/earn/lock and earn/earn/redeem (login). Each refreshes the user's savings, the products and the balances. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EARN_PATHS, type EarnLock, type EarnLockBody } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { invalidateEarn } from './keys';

/** Locks an amount in a product (clientId: a retry returns the same lock); throws ApiError (toasted). */
export function lockEarn(body: EarnLockBody): Promise<EarnLock> {
  return apiPost<EarnLock>(EARN_PATHS.lock, { ...body });
}

/** Redeems a lock (early, losing the interest paid, or after maturity). */
export function redeemEarn(lockId: string): Promise<EarnLock> {
  return apiPost<EarnLock>(EARN_PATHS.redeem, { lockId });
}

/** The savings mutations. */
export function useEarnActions() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  const onSettled = () => invalidateEarn(qc, userId);
  return { lock: useMutation({ mutationFn: lockEarn, onSettled }), redeem: useMutation({ mutationFn: redeemEarn, onSettled }) };
}
