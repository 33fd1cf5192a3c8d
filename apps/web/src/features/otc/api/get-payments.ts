/**
 * GET member/payment/getPayments (login): the user's own payment methods, for selling (the method the merchant pays
 * into) and for an ad's accepted methods. Same key as features/payment (repeated: features do not import each other).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type PaymentMethod } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { otcKeys } from './keys';

/** Fetches the methods; throws ApiError (silent: real_name_required is the page's own prompt). */
export function getMyPayments(signal?: AbortSignal): Promise<PaymentMethod[]> {
  return apiGet<PaymentMethod[]>(API_PATHS.getPayments, undefined, { signal, silent: true });
}

/** The user's payment methods (disabled when logged out or `enabled` is false). */
export function useMyPayments(enabled = true) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(
    queryOptions({ queryKey: otcKeys.payments(userId), queryFn: ({ signal }) => getMyPayments(signal), enabled: enabled && isLogin && !!userId, retry: false }),
  );
}
