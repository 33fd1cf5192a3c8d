/**
 * GET support/chat/getMessages (login): the user's support messages, oldest first (the last 50; `beforeId` pages
 * back through older ones). Reading marks the operators' replies read on the server. 'supportChat' pushes append.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { SUPPORT_PATHS, type SupportMessage, type SupportMessagePage } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { supportKeys } from './keys';

/** Fetches a page of messages (the latest, or those before `beforeId`); throws ApiError. */
export function getSupportMessages(beforeId?: string, signal?: AbortSignal): Promise<SupportMessagePage> {
  return apiGet<SupportMessagePage>(SUPPORT_PATHS.getMessages, beforeId ? { beforeId } : undefined, { signal, silent: true });
}

/** The latest page of the chat, with a slow poll as the fallback of the pushes. */
export function useSupportMessages() {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(
    queryOptions({
      queryKey: supportKeys.messages(userId),
      queryFn: ({ signal }) => getSupportMessages(undefined, signal),
      enabled: isLogin && !!userId,
      refetchInterval: 15_000,
    }),
  );
}

/** The page with `m` added once (by id), in id order (ids grow with time). */
export function withMessage(page: SupportMessagePage | undefined, m: SupportMessage): SupportMessagePage {
  const rest = (page?.messages ?? []).filter((x) => x.id !== m.id);
  return { hasMore: page?.hasMore ?? false, messages: [...rest, m].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1)) };
}

/** `older` (an earlier page) put before the messages of `page`, without duplicates. */
export function withOlder(page: SupportMessagePage | undefined, older: SupportMessagePage): SupportMessagePage {
  const ids = new Set((page?.messages ?? []).map((m) => m.id));
  return { hasMore: older.hasMore, messages: [...older.messages.filter((m) => !ids.has(m.id)), ...(page?.messages ?? [])] };
}
