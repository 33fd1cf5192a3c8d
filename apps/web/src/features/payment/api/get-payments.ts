/** GET member/payment/getPayments: the user's payment methods. */
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { API_PATHS } from '@exchange/api';
import type { PaymentMethod } from './contract';

/** Query key of the payment methods (every payment mutation invalidates it). */
export const paymentsQueryKey = (userId: string) => ['payments', userId] as const;

/** Fetches the list; silent (the page shows real_name_required as its own prompt). Throws ApiError. */
export function getPayments(signal?: AbortSignal): Promise<PaymentMethod[]> {
  return apiGet<PaymentMethod[]>(API_PATHS.getPayments, undefined, { signal, silent: true });
}

/** The payment methods of the signed-in user. */
export function usePayments(enabled = true) {
  const userId = useAppStore((s) => s.userId);
  return useQuery({ queryKey: paymentsQueryKey(userId), queryFn: ({ signal }) => getPayments(signal), enabled: enabled && !!userId, retry: false });
}
