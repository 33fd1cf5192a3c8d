/**
 * GET member/message/list (login): the caller's messages of a tab, newest first, paged (20 a page, "load more" adds
 * pages: an infinite query). Invalidated by the 'inbox' pushes and the read marks (shared/inbox-api keys).
 */
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { INBOX_PATHS, type InboxCategory, type InboxPage } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { inboxKeys } from '../../../shared/inbox-api';
import { useAppStore } from '../../../shared/storage';

/** Messages a page. */
export const INBOX_PAGE_SIZE = 20;

/** A tab of /message: every category, or one. */
export type InboxTab = InboxCategory | 'ALL';

/** Fetches page `page` of a tab; throws ApiError (not toasted: the page shows the failure with retry). */
export function getInboxMessages(tab: InboxTab, page: number, signal?: AbortSignal): Promise<InboxPage> {
  return apiGet<InboxPage>(INBOX_PATHS.list, { ...(tab === 'ALL' ? {} : { category: tab }), page, pageSize: INBOX_PAGE_SIZE }, { signal, silent: true });
}

/** infiniteQueryOptions of a user's tab. */
export function inboxMessagesQuery(userId: string, tab: InboxTab, enabled: boolean) {
  return infiniteQueryOptions({
    queryKey: inboxKeys.list(userId, tab),
    queryFn: ({ pageParam, signal }) => getInboxMessages(tab, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last: InboxPage) => (last.page * last.pageSize < last.total ? last.page + 1 : undefined),
    enabled,
  });
}

/** The caller's messages of `tab` (disabled when logged out). */
export function useInboxMessages(tab: InboxTab) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useInfiniteQuery(inboxMessagesQuery(userId, tab, isLogin && !!userId));
}
