/** GET admin/support/conversations: the support queue by filter (waiting first, the longest waiting first), polled. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { SUPPORT_ADMIN_PATHS, type AdminSupportQueue, type SupportQueueFilter } from '@exchange/api';
import { apiGet } from '../../../shared/api';

/** The queue's filter and page. */
export interface QueueFilter {
  filter: SupportQueueFilter;
  page: number;
}

/** How often the queue is polled, ms (it is also how the app knows an operator is online). */
export const QUEUE_POLL_MS = 3000;

/** The query of one page of the queue. */
export function queueOptions(f: QueueFilter) {
  return queryOptions({
    queryKey: ['admin', 'support', 'queue', f],
    queryFn: () => apiGet<AdminSupportQueue>(SUPPORT_ADMIN_PATHS.conversations, { filter: f.filter, page: f.page }),
    placeholderData: keepPreviousData,
    refetchInterval: QUEUE_POLL_MS,
  });
}

/** One page of the queue, live. */
export function useQueue(f: QueueFilter) {
  return useQuery(queueOptions(f));
}
