/** GET admin/otc/orders: orders by state (APPEAL = the appeal queue) and user, paged. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { OTC_ADMIN_PATHS } from '@exchange/api';
import { apiGet } from '../../../shared/api';
import type { AdminOtcOrderRow, OtcOrderState, OtcPage } from './types';

/** The list's filter: a state or ALL, a user id ('' = everyone), the page from 1. */
export interface OrdersFilter {
  state: OtcOrderState | 'ALL';
  userId: string;
  page: number;
}

/** The query of one page of orders. */
export function ordersOptions(f: OrdersFilter) {
  return queryOptions({
    queryKey: ['admin', 'otc', 'orders', f],
    queryFn: () =>
      apiGet<OtcPage<AdminOtcOrderRow>>(OTC_ADMIN_PATHS.orders, { state: f.state === 'ALL' ? undefined : f.state, userId: f.userId, page: f.page }),
    placeholderData: keepPreviousData,
  });
}

/** One page of orders. */
export function useOrders(f: OrdersFilter) {
  return useQuery(ordersOptions(f));
}
