/**
 * GET member/message/unreadCount (login): the caller's unread messages, in total and per category. Read by the unread
 * badge of the home header (avatar dot), the side menu's Messages entry and the /message tabs, under one key. Live: a
 * push on the private channel 'inbox' (a message arrived or changed, written before the push) invalidates the user's
 * inbox queries; a refetch every 30 s covers the messages that are not pushed (security-log messages written by
 * another gateway, and a socket that was down).
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { INBOX_PATHS, type InboxUnread } from '@exchange/api';
import { apiGet } from '../api-client';
import { useAppStore } from '../storage';
import { useWsChannel } from '../ws-client/hooks';
import { inboxKeys } from './keys';

/** Backstop refetch of the unread count (ms): pushes do the live work. */
export const INBOX_UNREAD_REFETCH_MS = 30_000;

/** Fetches the unread counts; throws ApiError (not toasted). */
export function getInboxUnread(signal?: AbortSignal): Promise<InboxUnread> {
  return apiGet<InboxUnread>(INBOX_PATHS.unreadCount, {}, { signal, silent: true });
}

/** queryOptions of a user's unread counts. */
export function inboxUnreadQuery(userId: string, enabled: boolean) {
  return queryOptions({
    queryKey: inboxKeys.unread(userId),
    queryFn: ({ signal }) => getInboxUnread(signal),
    enabled,
    refetchInterval: INBOX_UNREAD_REFETCH_MS,
  });
}

/** The caller's unread counts (undefined logged out or before the first answer); keeps them live by the 'inbox' pushes. */
export function useInboxUnread(): InboxUnread | undefined {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  const on = isLogin && !!userId;
  useInboxPushes(on ? userId : null);
  return useQuery(inboxUnreadQuery(userId, on)).data;
}

/** Invalidates the user's inbox queries on each 'inbox' push (no-op for null). */
export function useInboxPushes(userId: string | null): void {
  const qc = useQueryClient();
  useWsChannel(userId ? { channel: 'inbox' } : null, (msg) => {
    if (msg.channel === 'inbox' && userId) void qc.invalidateQueries({ queryKey: inboxKeys.user(userId) });
  });
}
