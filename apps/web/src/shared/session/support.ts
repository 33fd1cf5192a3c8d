/**
 * The signed-in user's customer-service chat state (GET support/chat/getState): the unread operator
 * replies (the badge of the home header's customer-service icon, the side menu and /customer), whether the user's
 * last message waits for an answer, and whether an operator is online. Shared because the home header, the side
 * menu and the support feature all show it; a reply pushed on the private channel `supportChat` refreshes it.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { SUPPORT_PATHS, type SupportChatState } from '@exchange/api';
import { apiGet } from '../api-client';
import { useAppStore } from '../storage';
import { useWsChannel } from '../ws-client/hooks';

/** Query key of the chat state of `userId`. */
export const supportStateKey = (userId: string) => ['support', userId, 'state'] as const;

/** queryOptions of the chat state of `userId` (polled every 60 s as the fallback of the pushes). */
export function supportStateOptions(userId: string) {
  return queryOptions({
    queryKey: supportStateKey(userId),
    queryFn: ({ signal }) => apiGet<SupportChatState>(SUPPORT_PATHS.getState, undefined, { signal, silent: true }),
    enabled: !!userId,
    refetchInterval: 60_000,
  });
}

/** The chat state (undefined when logged out or loading); kept fresh by the pushes while mounted. */
export function useSupportState(): SupportChatState | undefined {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  useWsChannel(isLogin ? { channel: 'supportChat' } : null, (msg) => {
    if (msg.channel === 'supportChat') void qc.invalidateQueries({ queryKey: supportStateKey(userId) });
  });
  return useQuery({ ...supportStateOptions(isLogin ? userId : '') }).data;
}
